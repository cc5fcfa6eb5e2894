package canonical

import (
	"reflect"
	"testing"
)

func TestTranslate(t *testing.T) {
	cases := []struct {
		in       string
		from, to Dialect
		want     string
		problems int
	}{
		{"Bearer ${TOKEN}", DialectCanonical, DialectEnvColon, "Bearer ${env:TOKEN}", 0},
		{"Bearer ${env:TOKEN}", DialectEnvColon, DialectCanonical, "Bearer ${TOKEN}", 0},
		{"{env:HOME}/x", DialectBraceEnv, DialectCanonical, "${HOME}/x", 0},
		{"${HOME}/x", DialectCanonical, DialectBraceEnv, "{env:HOME}/x", 0},
		{"${PORT:-8080}", DialectCanonical, DialectDollar, "${PORT:-8080}", 0},
		{"${PORT:-8080}", DialectCanonical, DialectEnvColon, "${env:PORT}", 1},
		{"${PORT:-8080}", DialectCanonical, DialectShellNoDefault, "${PORT}", 1},
		{"$HOME/bin", DialectShell, DialectCanonical, "${HOME}/bin", 0},
		{"$HOME/bin", DialectCanonical, DialectShell, "$HOME/bin", 0}, // literal in canonical
		{"${input:api-key}", DialectVSCode, DialectCanonical, "${input:api-key}", 0},
		{"${input:api-key}", DialectVSCode, DialectDollar, "${API_KEY}", 1},
		{"${userHome}/.x", DialectVSCode, DialectDollar, "${HOME}/.x", 0},
		{"${workspaceFolder}/x", DialectVSCode, DialectDollar, "${workspaceFolder}/x", 1},
		{"${{ secrets.TOKEN }}", DialectContinue, DialectCanonical, "${TOKEN}", 0},
		{"${TOKEN}", DialectCanonical, DialectContinue, "${{ secrets.TOKEN }}", 0},
		{"${TOKEN}", DialectCanonical, DialectNone, "${TOKEN}", 1},
		{"no refs $ { } {env:}", DialectCanonical, DialectEnvColon, "no refs $ { } {env:}", 0},
		{"${unterminated", DialectCanonical, DialectEnvColon, "${unterminated", 0},
		{"${1BAD}", DialectCanonical, DialectEnvColon, "${1BAD}", 0},
	}
	for _, c := range cases {
		got, problems := Translate(c.in, c.from, c.to)
		if got != c.want || len(problems) != c.problems {
			t.Errorf("Translate(%q, %s→%s) = %q with %d problems %v; want %q with %d",
				c.in, c.from.Name, c.to.Name, got, len(problems), problems, c.want, c.problems)
		}
	}
}

func TestParseForeign(t *testing.T) {
	tm := Parse("${API_KEY}", DialectEnvColon)
	if len(tm) != 1 || tm[0].Kind != EnvRef || !tm[0].Foreign {
		t.Fatalf("a ${VAR} in a Cursor file should be a foreign reference, got %+v", tm)
	}
	tm = Parse("${env:API_KEY}", DialectEnvColon)
	if tm[0].Foreign {
		t.Fatalf("${env:VAR} is native to Cursor, got %+v", tm)
	}
	tm = Parse("${X:-d}", DialectShellNoDefault)
	if !tm[0].Foreign {
		t.Fatalf("Qwen does not expand defaults, got %+v", tm)
	}
}

func TestExpand(t *testing.T) {
	env := map[string]string{"SET": "v", "EMPTY": ""}
	lookup := EnvLookup(func(k string) (string, bool) { v, ok := env[k]; return v, ok }, "/home/u", "/proj/app")
	cases := []struct {
		in, want string
		missing  []string
	}{
		{"a${SET}b", "avb", nil},
		{"${UNSET:-dflt}", "dflt", nil},
		{"${EMPTY:-dflt}", "dflt", nil},
		{"${EMPTY}", "", nil},
		{"x${UNSET}y", "x${UNSET}y", []string{"UNSET"}},
		{"${userHome}/${workspaceFolderBasename}", "/home/u/app", nil},
		{"${input:key}", "${input:key}", []string{"input:key"}},
	}
	for _, c := range cases {
		got, missing := Parse(c.in, DialectCanonical).Expand(lookup)
		if got != c.want || !reflect.DeepEqual(missing, c.missing) {
			t.Errorf("Expand(%q) = %q, %v; want %q, %v", c.in, got, missing, c.want, c.missing)
		}
	}
}

func TestInputEnvName(t *testing.T) {
	for in, want := range map[string]string{"perplexity-key": "PERPLEXITY_KEY", "1x": "_1X", "": "_"} {
		if got := InputEnvName(in); got != want {
			t.Errorf("InputEnvName(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzPlaceholderRoundTrip(f *testing.F) {
	for _, s := range []string{"Bearer ${TOKEN}", "${env:X}", "{env:Y}/z", "$HOME/x", "${A:-b}", "${input:k}",
		"${{ secrets.S }}", "${userHome}", "${", "}${}{env:}", "https://x/${P}/mcp"} {
		f.Add(s)
	}
	dialects := []Dialect{DialectCanonical, DialectDollar, DialectShell, DialectEnvColon, DialectVSCode, DialectBraceEnv, DialectContinue, DialectNone}
	f.Fuzz(func(t *testing.T, s string) {
		for _, from := range dialects {
			tm := Parse(s, from)
			// Concatenating the segments' source text gives back the input.
			var back string
			for _, seg := range tm {
				back += seg.Text
			}
			if back != s {
				t.Fatalf("Parse(%q, %s) segments join to %q", s, from.Name, back)
			}
			// Rendering canonically and parsing again keeps every reference.
			c, _ := tm.Render(DialectCanonical)
			again := Parse(c, DialectCanonical)
			if got, want := again.EnvNames(), tm.EnvNames(); len(got) < len(want) {
				t.Fatalf("refs lost: %q -> %q: %v vs %v", s, c, want, got)
			}
		}
	})
}

func TestNameProblems(t *testing.T) {
	for name, bad := range map[string]bool{
		"github": false, "a b": false, "a.b": false, "a/b": false, "../x": false, "a@b": false, "a:b": false,
		"ünï": false, `q"uote`: false, "a~b": false, "io.github.owner/repo": false,
		"": true, "  ": true, "a\tb": true, "a\nb": true, "evil\x1b]0;x\a": true, "del\x7f": true, "c1\u009b": true,
		"rtl\u202egnp": true, " lead": true, "trail ": true, "bad\xffutf8": true,
	} {
		if got := NameProblem(name) != ""; got != bad {
			t.Errorf("NameProblem(%q) = %q, want a problem: %v", name, NameProblem(name), bad)
		}
	}
}
