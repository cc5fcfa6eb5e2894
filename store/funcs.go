package store

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/mcpsync/mcpsync/canonical"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// The functions a store may call. Each returns the canonical reference
// string, so a value stays a reference and is never expanded:
//
//	env("X")              ${X}
//	env("X", "d")         ${X:-d}
//	input("id")           ${input:id}   (VS Code asks the user)
//	workspace_folder()    ${workspaceFolder}
//	workspace_basename()  ${workspaceFolderBasename}
//	user_home()           ${userHome}
//	path_separator()      ${pathSeparator}
//
// They work inside templates too: "Bearer ${env("TOKEN")}".
var builtinFuncs = map[string]string{
	"workspace_folder":   canonical.BuiltinWorkspaceFolder,
	"workspace_basename": canonical.BuiltinWorkspaceFolderBasename,
	"user_home":          canonical.BuiltinUserHome,
	"path_separator":     canonical.BuiltinPathSeparator,
}

// funcForBuiltin is the reverse of builtinFuncs, for writing.
var funcForBuiltin = map[string]string{}

func init() {
	for f, b := range builtinFuncs {
		funcForBuiltin[b] = f
	}
}

var evalContext = &hcl.EvalContext{Functions: functions()}

func functions() map[string]function.Function {
	fns := map[string]function.Function{
		"env": function.New(&function.Spec{
			Description: "A reference to an environment variable, with an optional default.",
			Params:      []function.Parameter{{Name: "name", Type: cty.String}},
			VarParam:    &function.Parameter{Name: "default", Type: cty.String},
			Type:        function.StaticReturnType(cty.String),
			Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
				name := args[0].AsString()
				if !canonical.IsVarName(name) {
					return cty.NilVal, function.NewArgErrorf(0, "%q is not an environment variable name: use letters, digits and _, not starting with a digit", name)
				}
				switch len(args) {
				case 1:
					return cty.StringVal("${" + name + "}"), nil
				case 2:
					def := args[1].AsString()
					if strings.Contains(def, "}") {
						return cty.NilVal, function.NewArgErrorf(1, "a default cannot contain \"}\"")
					}
					return cty.StringVal("${" + name + ":-" + def + "}"), nil
				}
				return cty.NilVal, function.NewArgErrorf(2, "env takes a name and at most one default")
			},
		}),
		"input": function.New(&function.Spec{
			Description: "A VS Code prompt input; other clients read it as an environment variable.",
			Params:      []function.Parameter{{Name: "id", Type: cty.String}},
			Type:        function.StaticReturnType(cty.String),
			Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
				id := args[0].AsString()
				if id == "" || strings.ContainsAny(id, " \t}") {
					return cty.NilVal, function.NewArgErrorf(0, "%q is not an input id: use a word without spaces or \"}\"", id)
				}
				return cty.StringVal("${input:" + id + "}"), nil
			},
		}),
	}
	for name, builtin := range builtinFuncs {
		ref := "${" + builtin + "}"
		fns[name] = function.New(&function.Spec{
			Description: "The editor variable " + ref + ".",
			Type:        function.StaticReturnType(cty.String),
			Impl:        func([]cty.Value, cty.Type) (cty.Value, error) { return cty.StringVal(ref), nil },
		})
	}
	return fns
}
