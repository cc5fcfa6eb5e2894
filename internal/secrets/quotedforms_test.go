package secrets

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"go.yaml.in/yaml/v3"

	"github.com/mcpsync/mcpsync/internal/strquote"
)

// quotedDocs are one-value documents holding secret as each format mcpsync
// writes spells it (the writers spell strings by strquote, and YAML's by
// yaml.v3), each with its decoder: a masked document that still decodes
// to the secret shows it.
var quotedDocs = []struct {
	format string
	doc    func(secret string) string
	decode func(doc string) (string, bool)
}{
	{"JSON", func(s string) string { return `{"args": ["--token", "` + strquote.JSON(s) + `"]}` }, func(d string) (string, bool) {
		var v struct{ Args []string }
		if json.Unmarshal([]byte(d), &v) != nil || len(v.Args) != 2 {
			return "", false
		}
		return v.Args[1], true
	}},
	{"TOML", func(s string) string { return `args = ["--token", "` + strquote.TOML(s) + `"]` }, func(d string) (string, bool) {
		var v struct{ Args []string }
		if _, err := toml.Decode(d, &v); err != nil || len(v.Args) != 2 {
			return "", false
		}
		return v.Args[1], true
	}},
	{"YAML", func(s string) string {
		out, err := yaml.Marshal(map[string][]string{"args": {"--token", s}})
		if err != nil {
			return ""
		}
		return string(out)
	}, func(d string) (string, bool) {
		var v struct{ Args []string }
		if yaml.Unmarshal([]byte(d), &v) != nil || len(v.Args) != 2 {
			return "", false
		}
		return v.Args[1], true
	}},
	{"HCL", func(s string) string { return `["--token", "` + strquote.HCL(s) + `"]` }, func(d string) (string, bool) {
		e, diags := hclsyntax.ParseExpression([]byte(d), "x.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			return "", false
		}
		v, diags := e.Value(nil)
		if diags.HasErrors() || !v.CanIterateElements() || v.LengthInt() != 2 {
			return "", false
		}
		return v.AsValueSlice()[1].AsString(), true
	}},
}

// TestScrubberKnowsEveryQuotedForm: a secret that each format escapes in
// its own way (a quote, an ampersand, a control character, a byte YAML
// does not print) is hidden in every format's document. JSON's diff lines
// showed "Zk3\"q9&Xv…" as it was, and YAML's lines the value in single
// quotes with its quote doubled, or in double quotes with YAML's \e: the
// scrubber knew the value, its JSON form with HTML escaping and its URL
// forms only.
func TestScrubberKnowsEveryQuotedForm(t *testing.T) {
	for _, secret := range []string{
		"Zk3\"q9&XvB2mLp7RtW4", "Qx9'vL2#mN7: pR4t", "Kq2\x1bVn9Lm4Rt8Wz1Pc5", "p\\q-Zt5Wn8Rk2Xj7",
		"a${b}cQ7mZ4tR9wK2", "tab\tVn9Lm4Rt8Wz1", "del\x7fVn9Lm4Rt8Wz1", "nel\u0085Vn9Lm4Rt8", "ls\u2028Vn9Lm4Rt8",
	} {
		checkQuotedForms(t, secret)
	}
}

func checkQuotedForms(t *testing.T, secret string) {
	t.Helper()
	s := &Scrubber{}
	s.Add(secret)
	for _, q := range quotedDocs {
		doc := q.doc(secret)
		if got, ok := q.decode(doc); !ok || got != secret {
			continue // a document this format cannot hold or read back: not the scrubber's to mask
		}
		masked := s.Text(doc)
		if got, ok := q.decode(masked); ok && strings.Contains(got, secret) {
			t.Errorf("%s: %q still reads as the secret %q once masked", q.format, masked, secret)
		}
	}
}

// FuzzScrubberKnowsEveryQuotedForm: any secret of one line, of four
// characters or more, is hidden in every format's document. Values are
// UTF-8: every source of one is (HCL and TOML refuse other bytes, a JSON
// file's read as U+FFFD), and yaml.v3 writes other bytes as !!binary.
//
// The fuzzer stalls here for tens of seconds at a time once its corpus
// holds long inputs (no input takes more than 6 ms): 5,000 inputs keep the
// CI pass short.
// ci-fuzztime: 5000x
func FuzzScrubberKnowsEveryQuotedForm(f *testing.F) {
	for _, s := range []string{"Zk3\"q9&XvB2mLp7RtW4", "Qx9'vL2#mN7: pR4t", "Kq2\x1bVn9Lm4Rt8Wz1Pc5", "é\x00ab%{x}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, secret string) {
		if len(strings.TrimSpace(secret)) < 4 || strings.ContainsAny(secret, "\r\n") || strings.Contains(secret, Marker) || !utf8.ValidString(secret) {
			return // several lines, or too short to hide (Add's rules), or masked already
		}
		checkQuotedForms(t, secret)
	})
}

// TestMaskLineHidesQuotedValuesWhole: a line rule masks the whole value
// of a pair, however it is quoted. A value in one kind of quotes that
// holds the other kind, YAML's doubled single quote, and a # inside a
// plain YAML value (no comment: no space before it) were masked up to
// that character, or not at all, and the rest printed.
func TestMaskLineHidesQuotedValuesWhole(t *testing.T) {
	for _, c := range []struct{ line, tail string }{
		{`args = ["--password", "Qx9'vL2#mN7: pR4t"]`, "vL2#mN7"},
		{`args: ['--token', 'Qx9''vL2mN7pR4tW']`, "vL2mN7pR4tW"},
		{`args: ["--token", 'Qx9"vL2mN7pR4tW']`, "vL2mN7pR4tW"},
		{`      API_KEY: 'Lk8''Mn2#Op: 5Qr9St'`, "Mn2#Op"},
		{`      password: ab#cdXyz123Qw`, "cdXyz123Qw"},
		{`      password: ab#cdXyz123Qw # the old one`, "cdXyz123Qw"},
	} {
		if got := MaskLine(c.line); strings.Contains(got, c.tail) {
			t.Errorf("MaskLine(%q) = %q", c.line, got)
		}
	}
	// and a comment stays a comment
	if got := MaskLine(`      password: Xyz123QwAb # rotate monthly`); got != `      password: Xyz***  # rotate monthly` && got != `      password: Xyz*** # rotate monthly` {
		t.Errorf("a comment: %q", got)
	}
}

// TestPassIsAPasswordName: DB_PASS and the like name a password (their
// values were not found, and printed in list, show and diffs), and a word
// that only holds "pass" does not.
func TestPassIsAPasswordName(t *testing.T) {
	for _, name := range []string{"DB_PASS", "SMTP_PASS", "redis-pass", "mailPass", "PASS", "--pass", "db.pass", "PASS_WORD_X"} {
		if !secretName(name) || !passwordName(name) {
			t.Errorf("%s: secretName %v, passwordName %v", name, secretName(name), passwordName(name))
		}
		if fs := Scan(Field{Place: InEnv, Name: name}, "Wq8zTn5Lp2Rk9"); len(fs) == 0 {
			t.Errorf("%s: its value is no secret", name)
		}
	}
	for _, name := range []string{"BYPASS", "PASSTHROUGH", "COMPASS", "PASS_FILE", "passenger"} {
		if secretName(name) {
			t.Errorf("%s names a secret", name)
		}
	}
}
