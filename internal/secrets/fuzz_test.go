package secrets

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/rogpeppe/go-internal/txtar"
)

// addSeeds adds seedTexts, the lines of the client cases (seedLines) and
// extra to f's corpus.
func addSeeds(f *testing.F, extra ...string) {
	for _, s := range append(append(slices.Clip(seedTexts), seedLines(f)...), extra...) {
		f.Add(s)
	}
}

// seedLines returns the lines of the golden client cases: real shapes of
// JSON, TOML and YAML lines holding env, headers, args and URLs.
func seedLines(tb testing.TB) []string {
	tb.Helper()
	var out []string
	cases, _ := filepath.Glob("../../testdata/clients/*/*.txtar")
	for _, c := range cases {
		a, err := txtar.ParseFile(c)
		if err != nil {
			tb.Fatal(err)
		}
		for _, f := range a.Files {
			if strings.HasPrefix(f.Name, "input") {
				for _, l := range strings.Split(string(f.Data), "\n") {
					if strings.ContainsAny(l, ":=") && len(l) < 400 {
						out = append(out, l)
					}
				}
			}
		}
	}
	return out
}

var seedTexts = []string{
	`+      "API_KEY": "sk-live-123456",`, `"Authorization": "Bearer ${TOKEN}"`, `password = "x\"y"`,
	`"token": "héllo wörld ünïcode"`, `key = ""`, `"a": "b", "secret": "c"`,
	`      GITHUB_TOKEN: ` + ghToken, `"args": ["--api-key", "abcd1234efgh", "--token=abcd1234efgh"]`,
	`url = "https://u:p4ssw0rd1@h/x?api_key=Zk3q9XvB2m&sig=abcdefgh"`, `Bearer ` + jwt, anthropic + " " + slackBot,
	`headers = { Authorization = "Bearer ${env("LINEAR_API_KEY")}" }`, "API_KEY=" + randomValue + " next",
}

// FuzzMaskLine: masking never panics, never adds or removes a line break,
// is idempotent, and never lets through a provider token or JWT that Scan
// finds in the line.
func FuzzMaskLine(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, line string) {
		if len(line) > 4096 {
			return
		}
		once := MaskLine(line)
		if strings.Count(once, "\n") != strings.Count(line, "\n") {
			t.Fatalf("line breaks changed: %q -> %q", line, once)
		}
		if twice := MaskLine(once); twice != once {
			t.Fatalf("not idempotent: %q -> %q -> %q", line, once, twice)
		}
		for _, fd := range Scan(Field{Place: InArg}, line) {
			if (fd.Kind == KindKnownToken || fd.Kind == KindJWT) && strings.Contains(once, fd.Value) {
				t.Fatalf("%s %q is still visible in %q", fd.Label, fd.Value, once)
			}
		}
		var s Scrubber
		s.Add(line)
		if strings.TrimSpace(line) != "" && len(strings.TrimSpace(line)) >= 4 && !strings.ContainsAny(line, "\r\n") &&
			strings.Contains(s.Line(line), line) && !strings.Contains(Mask(line), line) {
			t.Fatalf("a known secret is still visible: %q -> %q", line, s.Line(line))
		}
	})
}

// FuzzScan: Scan never panics; every finding's offsets hold its value,
// lies outside references and does not overlap another; Extract of a
// server holding the value leaves no extractable finding and keeps every
// reference.
func FuzzScan(f *testing.F) {
	for _, s := range seedTexts {
		f.Add(uint8(0), "API_KEY", s)
		f.Add(uint8(3), "", s)
	}
	for _, l := range seedLines(f) {
		f.Add(uint8(1), "Authorization", l)
	}
	f.Fuzz(func(t *testing.T, place uint8, name, value string) {
		if len(value) > 4096 || len(name) > 64 {
			return
		}
		fs := Scan(Field{Place: Place(place % 5), Name: name}, value)
		refs := refRE.Get().FindAllStringIndex(value, -1)
		for i, fd := range fs {
			if fd.Start < 0 || fd.End > len(value) || fd.Start >= fd.End || value[fd.Start:fd.End] != fd.Value {
				t.Fatalf("bad offsets %d:%d for %q in %q", fd.Start, fd.End, fd.Value, value)
			}
			if i > 0 && fs[i-1].End > fd.Start {
				t.Fatalf("findings overlap: %+v %+v", fs[i-1], fd)
			}
			for _, r := range refs {
				if fd.Start < r[1] && r[0] < fd.End {
					t.Fatalf("finding %q overlaps the reference %q", fd.Value, value[r[0]:r[1]])
				}
			}
		}
		srv := canonical.Server{Name: "s", Transport: canonical.Stdio, Command: "x",
			Env: map[string]string{"API_KEY": value}, Args: []string{"--token", value}}
		out, _ := Extract(srv, ScanServer(srv))
		for _, fd := range ScanServer(out) {
			if fd.Extractable {
				t.Fatalf("left after Extract of %q: %+v in %+v", value, fd, out)
			}
		}
		for _, r := range refs {
			ref := value[r[0]:r[1]]
			if !strings.Contains(out.Env["API_KEY"], ref) {
				t.Fatalf("Extract lost the reference %q: %q", ref, out.Env["API_KEY"])
			}
		}
	})
}

func TestSeedLinesFound(t *testing.T) {
	if _, err := os.Stat("../../testdata/clients"); err != nil {
		t.Skip("testdata/clients not found")
	}
	if len(seedLines(t)) < 50 {
		t.Fatalf("only %d seed lines", len(seedLines(t)))
	}
}

// FuzzQuotedPairs holds quotedPairs, the scan MaskLine uses, equal to the
// quotedPair regexp it stands for: the same matches, the same groups.
func FuzzQuotedPairs(f *testing.F) {
	addSeeds(f, `""ab": "x"`, `ab"cd": "x"`, `"a\"b": "c\"d"`, `k = "v\`, "k: \"a\\\nb\"", `k="a\é"`,
		"k:\t\f\"\xff\\\xff\"", `"a":"b""c":"d"`, `x "-": ""`, `k : "v" , "t": "u"`, `"k"   =   "`)
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		got, want := quotedPairs(s), quotedPair.Get().FindAllStringSubmatchIndex(s, -1)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("quotedPairs(%q) = %v, the regexp finds %v", s, got, want)
		}
	})
}

// FuzzYAMLPairGate holds mayBeYAMLPair to never turn away a line that
// yamlPair matches.
func FuzzYAMLPairGate(f *testing.F) {
	addSeeds(f, "- key: v", "+  - token: abc", "--: x", "-- : y", " \t-\tk:  v # c", `"k": "v"`, "k=v", ":x")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		if !mayBeYAMLPair(s) && yamlPair.Get().MatchString(s) {
			t.Fatalf("mayBeYAMLPair(%q) is false, and yamlPair matches it", s)
		}
	})
}

// FuzzReferences holds references, the scan, equal to refRE.
func FuzzReferences(f *testing.F) {
	addSeeds(f, "${{ a }}", "${{a}b}", "${{a}", "${a", "${", "$", "$_1x$y", "{env:X}", "{env:}", "{env:1}", "{file:~/k}",
		"{file:", "%APPDATA%", "%A", "%%", "Bearer ${env:T}x{env:U}", "${A}${B}", "$${{x}}}", "\xff${\xfe}", "{env:A_b9}}")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		var want [][2]int
		for _, m := range refRE.Get().FindAllStringIndex(s, -1) {
			want = append(want, [2]int{m[0], m[1]})
		}
		if got := references(s); !reflect.DeepEqual(got, want) {
			t.Fatalf("references(%q) = %v, the regexp finds %v", s, got, want)
		}
	})
}

// FuzzYAMLKeyGate holds yamlKeyMayHide to never turn away a line whose
// yamlPair match maskPair would change.
func FuzzYAMLKeyGate(f *testing.F) {
	addSeeds(f, "- token: abcdefghijklmnop", "-API_KEY: x8f7a6s5d4f3g2h1", "+  - password: hunter2", "--TOKEN: v",
		"  - AWS_SECRET : ab12cd34ef56gh78", "- -KEY: qwertyuiopasdfgh", "url: https://x", "type: stdio", "+-X_1: Zq9Wm2Lk8Pn4Rt6Y", "-MY_VALUE: q7Xk2Lm9Qr4Tz8Wv3Ny6Bp1Hs5Jd0")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 || !mayBeYAMLPair(s) || yamlKeyMayHide(s) {
			return
		}
		if g := yamlPair.Get().FindStringSubmatch(s); g != nil {
			if got := maskPair(g[1], g[2], g[3], g[4], g[5], s); got != s {
				t.Fatalf("yamlKeyMayHide(%q) is false, and yamlPair's key %q masks it: %q", s, g[2], got)
			}
		}
	})
}

// FuzzPairGates holds the gates before assignPair, flagPair and
// lineCredential to never turn away a line the regexp matches.
func FuzzPairGates(f *testing.F) {
	addSeeds(f, "API_KEY=abc", "--token=x", `k = "v"`, "a=b&c", "x= y", "=v", "-=v", `"--api-key", "sk"`,
		`'-t' , 'v'`, "Bearer abcdefgh", "bearer\tabcdefg", "TOKEN \f12345678", "Basic ${X}", "token:abcdefghij")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		if !mayBeAssignPair(s) && assignPair.Get().MatchString(s) {
			t.Fatalf("mayBeAssignPair(%q) is false, and assignPair matches it", s)
		}
		if !mayBeFlagPair(s) && flagPair.Get().MatchString(s) {
			t.Fatalf("mayBeFlagPair(%q) is false, and flagPair matches it", s)
		}
		if !mayBeLineCredential(s) && lineCredential.Get().MatchString(s) {
			t.Fatalf("mayBeLineCredential(%q) is false, and lineCredential matches it", s)
		}
	})
}

// findTokensByIndex is findTokens as it was: each prefix searched for
// with strings.Index, the next search after the occurrence found; the
// matches then ordered and kept as findTokens does.
func findTokensByIndex(text string) []tokenMatch {
	var out []tokenMatch
	for _, p := range providers {
		for _, prefix := range p.prefixes {
			for at := 0; ; {
				i := strings.Index(text[at:], prefix)
				if i < 0 {
					break
				}
				i += at
				if m := p.re.Get().FindStringIndex(text[i:]); m != nil {
					out = append(out, tokenMatch{i, i + m[1], p})
				}
				at = i + len(prefix)
			}
		}
	}
	return earliestApart(out)
}

// FuzzFindTokens holds findTokens, its prefixes found in one pass, equal
// to the search prefix by prefix it replaced.
func FuzzFindTokens(f *testing.F) {
	addSeeds(f, "AKIAKIA0123456789ABCDEFGH", "ATATATT"+strings.Repeat("a", 40), "sk-sk-proj-"+strings.Repeat("Ab1", 20),
		"xoxb-xoxp-1234567890abc", "eyJeyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abcdefghijk", "ghp_"+strings.Repeat("a", 36)+"ghp_")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		got, want := findTokens(s), findTokensByIndex(s)
		if len(got) != len(want) {
			t.Fatalf("findTokens(%q) = %v, the search prefix by prefix finds %v", s, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("findTokens(%q) = %v, the search prefix by prefix finds %v", s, got, want)
			}
		}
	})
}

// replaceFoundCopying is replaceFound as it was: the text copied whole for
// every line with a match. FuzzReplaceFound holds the two equal.
func replaceFoundCopying(s string, ms [][]int, fn func(g []string) string) string {
	if ms == nil {
		return s
	}
	var b strings.Builder
	at := 0
	g := make([]string, len(ms[0])/2)
	for _, m := range ms {
		for i := range g {
			g[i] = ""
			if m[2*i] >= 0 {
				g[i] = s[m[2*i]:m[2*i+1]]
			}
		}
		b.WriteString(s[at:m[0]])
		b.WriteString(fn(g))
		at = m[1]
	}
	b.WriteString(s[at:])
	return b.String()
}

// FuzzReplaceFound holds replaceFound, which copies a line only from its
// first changed match, equal to replaceFoundCopying: for the matches of
// every pattern MaskLine rewrites with, with maskPair as MaskLine calls
// it, and with a rewrite that changes only every other match (the
// matches before the first change stay, and those after it are copied).
func FuzzReplaceFound(f *testing.F) {
	addSeeds(f, `"a": "b", "token": "abcdefgh12345678", "c": "d"`, `x = "1" y = "2"`, `--token=abc --api-key=ZZZZ`)
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		pair := func(g []string) string { return maskPair(g[1], g[2], g[3], g[4], g[5], g[0]) }
		assign := func(g []string) string { return maskPair(g[1], g[2], g[3], g[4], "", g[0]) }
		var n int
		everyOther := func(g []string) string {
			n++
			if n%2 == 0 {
				return "<" + g[0] + ">"
			}
			return g[0]
		}
		for _, c := range []struct {
			ms [][]int
			fn func([]string) string
		}{
			{quotedPairs(s), pair},
			{singleQuotedPair.Get().FindAllStringSubmatchIndex(s, -1), pair},
			{assignPair.Get().FindAllStringSubmatchIndex(s, -1), assign},
			{flagPair.Get().FindAllStringSubmatchIndex(s, -1), pair},
			{quotedPairs(s), everyOther},
		} {
			n = 0
			want := replaceFoundCopying(s, c.ms, c.fn)
			n = 0
			if got := replaceFound(s, c.ms, c.fn); got != want {
				t.Fatalf("replaceFound(%q) = %q, copying the line gives %q", s, got, want)
			}
		}
	})
}

// FuzzLiteralText holds literalText, which returns a value with no
// reference as it is, equal to joining its literalPieces.
func FuzzLiteralText(f *testing.F) {
	addSeeds(f, "Bearer ${TOKEN}", "a%b", "{file:x}y", "plain", "")
	f.Fuzz(func(t *testing.T, s string) {
		var b strings.Builder
		for _, p := range literalPieces(s) {
			b.WriteString(s[p[0]:p[1]])
		}
		if got := literalText(s); got != b.String() {
			t.Fatalf("literalText(%q) = %q, its pieces are %q", s, got, b.String())
		}
	})
}
