package secrets

import (
	"strings"
	"testing"
)

// TestMaskAfterFlag: an argument on a line of its own after a flag named
// like a secret is masked, in each spelling of a list element (JSON,
// TOML, YAML quoted and plain); one after any other flag, a reference,
// and a line after anything but a flag are left as they are.
func TestMaskAfterFlag(t *testing.T) {
	for _, c := range []struct{ prev, line, want string }{
		{`        "--password",`, `        "Qx9vL2mN7pR4tZ8w" x`, `        "Qx9***" x`},
		{`  "--api-key",`, `  "Zk3q9XvB2mLp7RtW4"`, `  "Zk3***"`},
		{`    - --token`, `    - Lk8Mn2Op5Qr9St: [`, `    - Lk8***`},
		{`    - '--token'`, `    - 'Lk8''Mn2Op5Qr9St'`, `    - 'Lk8***'`},
		{`  '--secret',`, `  'Lk8Mn2Op5Qr9St',`, `  'Lk8***',`},
		{`        "--password",`, `        "${DB_PASSWORD}"`, `        "${DB_PASSWORD}"`},
		{`        "--root",`, `        "/srv/data/reports" x`, `        "/srv/data/reports" x`},
		{`        "some-server",`, `        "Qx9vL2mN7pR4tZ8w" x`, `        "Qx9vL2mN7pR4tZ8w" x`},
		{`  "password": "x",`, `        "Qx9vL2mN7pR4tZ8w"`, `        "Qx9vL2mN7pR4tZ8w"`},
		{`        "--password",`, `        ]`, `        ]`},
		{`      "API_KEY":`, `        "Qx9vL2mN7pR4tZ8w" x`, `        "Qx9***" x`},
		{`      API_KEY:`, `        Qx9vL2mN7pR4tZ8w: [`, `        Qx9***`},
		{`      token:`, `        'Qx9vL2mN7pR4tZ8w`, `        'Qx9***`},
		{`        "--password",`, `        "Qx9vL2mN7pR4tZ8w`, `        "Qx9***`},
		{`      API_KEY:`, `        ${API_KEY}`, `        ${API_KEY}`},
		{`      command:`, `        npx`, `        npx`},
		{`      env:`, `        API_KEY: x`, `        API_KEY: x`},
		{`      "API_KEY":`, `      }`, `      }`},
	} {
		if got := MaskAfterFlag(c.prev, c.line); got != c.want {
			t.Errorf("MaskAfterFlag(%q, %q) = %q, want %q", c.prev, c.line, got, c.want)
		}
	}
}

// FuzzMaskAfterFlag: masking after a flag never adds or removes a line
// break, masks nothing after a line that is no flag, and masked text is
// not masked again.
func FuzzMaskAfterFlag(f *testing.F) {
	f.Add(`  "--password",`, `  "Qx9vL2mN7pR4tZ8w" x`)
	f.Add(`- --token`, `- Lk8Mn2Op5Qr9St`)
	f.Add(`'--secret',`, `'a''b''c''d''e'`)
	f.Fuzz(func(t *testing.T, prev, line string) {
		if once, ok := checkMaskAfter(t, MaskAfterFlag, prev, line); ok && once != line && !trailingFlag.Get().MatchString(prev) {
			t.Fatalf("masked %q after %q, which ends with no flag", line, prev)
		}
	})
}

// TestMaskExcerpt: in the line at the error of a file that does not
// parse, the value of a key or a flag named like a secret is masked even
// where the broken syntax hides it from MaskLine: a string never closed,
// a value that should have been quoted.
func TestMaskExcerpt(t *testing.T) {
	for _, c := range []struct{ prev, line, want string }{
		{``, `bearer_token = "Qx9vL2mN7pR4tZ8w`, `bearer_token = "Qx9***`},
		{``, `env = { API_KEY = Qx9vL2mN7pR4tZ8w }`, `env = { API_KEY = Qx9*** }`},
		{``, `args = ["--password", Qx9vL2mN7pR4tZ8w]`, `args = ["--password", Qx9***]`},
		{``, `args = ["--password", "Qx9vL2mN7pR4tZ8w`, `args = ["--password", "Qx9***`},
		{``, `      "Authorization": "Bearer eyQx9vL2mN7pR4tZ8w`, `      "Authorization": "Bearer eyQ***`},
		{``, `    password: Qx9vL2mN7pR4tZ8w: [`, `    password: Qx9*** [`},
		{``, `url = "https://example.com/mcp`, `url = "https://example.com/mcp`},
		{``, `port = 8080 x`, `port = 8080 x`},
		{``, `env = { API_KEY = "${API_KEY}" x }`, `env = { API_KEY = "${API_KEY}" x }`},
		{``, `token = "${TOKEN}`, `token = "${TOKEN}`},
		{`        "--password",`, `        "Qx9vL2mN7pR4tZ8w" x`, `        "Qx9***" x`},
	} {
		if got := MaskExcerpt(c.prev, c.line); got != c.want {
			t.Errorf("MaskExcerpt(%q, %q) = %q, want %q", c.prev, c.line, got, c.want)
		}
	}
}

// FuzzMaskExcerpt: an excerpt's masking never adds or removes a line
// break, and masked text is not masked again.
func FuzzMaskExcerpt(f *testing.F) {
	f.Add(``, `bearer_token = "Qx9vL2mN7pR4tZ8w`)
	f.Add(``, `env = { API_KEY = Qx9vL2mN7pR4tZ8w, TOKEN = 'abcdefghijkl }`)
	f.Add(`  "--password",`, `  "Qx9vL2mN7pR4tZ8w" x`)
	f.Fuzz(func(t *testing.T, prev, line string) { checkMaskAfter(t, MaskExcerpt, prev, line) })
}

// checkMaskAfter checks what the fuzz targets of a mask of line after
// prev share: it adds or removes no line break, and masks nothing twice.
// It returns mask(prev, line), and false for an input too long to try.
func checkMaskAfter(t *testing.T, mask func(prev, line string) string, prev, line string) (string, bool) {
	if len(prev)+len(line) > 4096 {
		return "", false
	}
	once := mask(prev, line)
	if strings.Count(once, "\n") != strings.Count(line, "\n") {
		t.Fatalf("line breaks changed: %q -> %q", line, once)
	}
	if twice := mask(prev, once); twice != once {
		t.Fatalf("not idempotent after %q: %q -> %q -> %q", prev, line, once, twice)
	}
	return once, true
}
