package spec

import (
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/mcpsync/mcpsync/formats"
)

// TestCompiledPathsAsHCL: every built-in spec's paths and server paths
// compile (so that Locations never evaluates them by HCL), and a compiled
// path or server path gives what HCL gives on every machine tried: with
// and without the environment's variables, on Windows, and with a home
// whose name is not in NFC (cty normalises every string it holds).
func TestCompiledPathsAsHCL(t *testing.T) {
	envs := []formats.Env{
		{Home: "/home/u", OS: "linux", Getenv: func(string) string { return "" }},
		{Home: "/home/u", OS: "darwin", Getenv: func(k string) string { return "/set/" + k }},
		{Home: `C:/Users/u`, OS: "windows", Getenv: func(k string) string {
			if k == "APPDATA" {
				return `C:/Users/u/AppData/Roaming`
			}
			return ""
		}},
		{Home: "/home/Zoe\u0301", OS: "linux", Getenv: func(k string) string {
			if k == "XDG_CONFIG_HOME" {
				return "relative" // not absolute: ~/.config instead
			}
			return "/e\u0301/" + k
		}},
	}
	for _, id := range BuiltinIDs() {
		sp := MustBuiltin(id)
		exprs := []hcl.Expression{sp.servers}
		for _, ls := range sp.Locations {
			exprs = append(exprs, ls.path, ls.servers, ls.shadowedBy)
		}
		for _, e := range exprs {
			if e == nil {
				continue
			}
			if tc, ok := e.(*hclsyntax.TupleConsExpr); ok {
				for _, x := range tc.Exprs {
					if _, ok := tmplOf(x); !ok {
						t.Errorf("%s: a name of the server path at %s is not compiled", id, x.Range())
					}
				}
				for _, env := range envs {
					want, werr := evalServers(e, env, "/proj/é")
					got, gerr := (&pathEval{env: env, project: "/proj/é"}).servers(e)
					if !slices.Equal(got, want) || (werr == nil) != (gerr == nil) {
						t.Errorf("%s: servers at %s on %s: compiled %q (%v), HCL %q (%v)", id, e.Range(), env.OS, got, gerr, want, werr)
					}
				}
				continue
			}
			if _, ok := tmplOf(e); !ok {
				t.Errorf("%s: the path at %s is not compiled", id, e.Range())
			}
			for _, env := range envs {
				want, werr := evalPath(e, env, "/proj/e\u0301")
				got, gerr := (&pathEval{env: env, project: "/proj/e\u0301"}).path(e)
				if got != want || (werr == nil) != (gerr == nil) {
					t.Errorf("%s: path at %s on %s: compiled %q (%v), HCL %q (%v)", id, e.Range(), env.OS, got, gerr, want, werr)
				}
			}
		}
	}
}

// TestUncompiledPathsEvaluateByHCL: an expression outside what tmpl
// holds (a plugin's conditional, say) is evaluated by HCL, as before.
func TestUncompiledPathsEvaluateByHCL(t *testing.T) {
	e, diags := hclsyntax.ParseExpression([]byte(`os == "windows" ? "${appdata}/x.json" : "${home}/.x.json"`), "p.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if _, ok := tmplOf(e); ok {
		t.Fatal("a conditional was compiled")
	}
	env := formats.Env{Home: "/home/u", OS: "linux", Getenv: func(string) string { return "" }}
	if got, err := (&pathEval{env: env}).path(e); err != nil || got != "/home/u/.x.json" {
		t.Fatalf("got %q, %v", got, err)
	}
}

// FuzzCompiledPathsAsHCL: whatever a path expression says (a plugin's
// spec may say anything), where it compiles, the compiled path is HCL's
// answer on the machine given, error or not.
func FuzzCompiledPathsAsHCL(f *testing.F) {
	for _, id := range BuiltinIDs() {
		src, _ := BuiltinSource(id)
		for _, ls := range MustBuiltin(id).Locations {
			if ls.path != nil {
				f.Add(string(ls.path.Range().SliceBytes(src)), "/home/u", "", false)
			}
		}
	}
	f.Add(`"${env("A", "${home}/x")}/${~ project ~}/y"`, "/home/Zoe\u0301", "e\u0301", true)
	f.Add(`"${home}${os}/../.${config_home}"`, "C:/Users/u", "/x", false)
	f.Add(`"a\u0065\u0301b/${env("\u00e9", "d")}"`, "/h", "v", false)
	f.Fuzz(func(t *testing.T, src, home, value string, windows bool) {
		e, diags := hclsyntax.ParseExpression([]byte(src), "p.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			return
		}
		if _, ok := tmplOf(e); !ok {
			return
		}
		env := formats.Env{Home: home, OS: "linux", Getenv: func(k string) string {
			if len(k)%2 == 0 { // some variables set, some not
				return value
			}
			return ""
		}}
		if windows {
			env.OS = "windows"
		}
		want, werr := evalPathIn(evalContext(env, "/proj/"+value), e, env)
		got, gerr := (&pathEval{env: env, project: "/proj/" + value}).path(e)
		if got != want || (werr == nil) != (gerr == nil) {
			t.Fatalf("%s: compiled %q (%v), HCL %q (%v)", src, got, gerr, want, werr)
		}
	})
}
