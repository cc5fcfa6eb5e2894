package spec

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
)

// The variables a location path or server path may use.
//
//	home         the user's home directory
//	project      the project directory (locations using it exist only in a project)
//	config_home  $XDG_CONFIG_HOME, else ~/.config
//	appdata      %APPDATA%, else ~/AppData/Roaming
//	os           "linux", "darwin" or "windows"
//
// and one function, env(NAME, default), which is the environment variable
// NAME when it is set and not empty, else default.
var pathVariables = []string{"home", "project", "config_home", "appdata", "os"}

func evalContext(env formats.Env, project string) *hcl.EvalContext {
	v := pathVarsOf(env, project)
	getenv := v.getenv
	return &hcl.EvalContext{
		Variables: map[string]cty.Value{
			"home":        cty.StringVal(v.home),
			"project":     cty.StringVal(v.project),
			"config_home": cty.StringVal(v.configHome),
			"appdata":     cty.StringVal(v.appdata),
			"os":          cty.StringVal(v.os),
		},
		Functions: map[string]function.Function{
			"env": function.New(&function.Spec{
				Params: []function.Parameter{{Name: "name", Type: cty.String}, {Name: "default", Type: cty.String}},
				Type:   function.StaticReturnType(cty.String),
				Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
					if v := getenv(args[0].AsString()); v != "" {
						return cty.StringVal(v), nil
					}
					return args[1], nil
				},
			}),
		},
	}
}

// checkExpr reports unknown variables and values of the wrong type in a
// path expression, by evaluating it on a sample machine.
func checkExpr(e hcl.Expression, want cty.Type) canonical.Diagnostics {
	if isNull(e) {
		return nil
	}
	var ck checker
	for _, tr := range e.Variables() {
		name := tr.RootName()
		found := false
		for _, v := range pathVariables {
			found = found || v == name
		}
		if !found {
			ck.errf(tr.SourceRange(), "a path may use "+strings.Join(pathVariables, ", ")+` and env("NAME", default)`,
				"unknown variable %q", name)
		}
	}
	if len(ck.diags) > 0 {
		return ck.diags
	}
	sample := formats.Env{Home: "/home/u", ProjectDir: "/p", OS: "linux"}
	v, hd := e.Value(evalContext(sample, "/p"))
	if hd.HasErrors() {
		return fromHCL(hd)
	}
	if _, err := convert.Convert(v, want); err != nil || v.IsNull() {
		ck.errf(e.Range(), "write "+want.FriendlyName()+`, for example ["mcpServers"] or "${home}/.x/mcp.json"`,
			"this must be %s", want.FriendlyName())
	}
	return ck.diags
}

// usesProject reports whether an expression needs the project directory.
func usesProject(e hcl.Expression) bool {
	if e == nil {
		return false
	}
	if uses, ok := tmplUses(e, "project"); ok {
		return uses // without walking the expression, which allocated a list of its variables
	}
	for _, tr := range e.Variables() {
		if tr.RootName() == "project" {
			return true
		}
	}
	return false
}

// evalPath computes a location's file path on env's machine (by its tmpl
// where it has one; see pathEval).
func evalPath(e hcl.Expression, env formats.Env, project string) (string, error) {
	return (&pathEval{env: env, project: project}).path(e)
}

// evalPathIn is evalPath in ctx, env's context (evalContext): a caller that
// evaluates several paths makes it once.
func evalPathIn(ctx *hcl.EvalContext, e hcl.Expression, env formats.Env) (string, error) {
	v, hd := e.Value(ctx)
	if hd.HasErrors() {
		return "", hd
	}
	v, err := convert.Convert(v, cty.String)
	if err != nil || v.IsNull() {
		return "", err
	}
	return cleanPath(v.AsString(), env), nil
}

// evalServers computes the path of names to the server map.
func evalServers(e hcl.Expression, env formats.Env, project string) ([]string, error) {
	v, hd := e.Value(evalContext(env, project))
	if hd.HasErrors() {
		return nil, hd
	}
	v, err := convert.Convert(v, cty.List(cty.String))
	if err != nil || v.IsNull() {
		return nil, err
	}
	var out []string
	for _, x := range v.AsValueSlice() {
		out = append(out, x.AsString())
	}
	return out, nil
}
