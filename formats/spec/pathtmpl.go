package spec

import (
	"path"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/text/unicode/norm"

	"github.com/mcpsync/mcpsync/formats"
)

// A tmpl is a location's path, or a server path's name, compiled to plain
// parts where its expression is only text, the path variables and
// env("NAME", default) (every built-in spec's is): evaluated with string
// operations instead of HCL's, which made a context of cty values and
// functions for each evaluation. Asking five clients where they write
// took 87 µs and 1,209 allocations (30 µs and 229 so); in a fresh export
// of 50 servers, with its code faulted in on first use, 0.6 to 0.9 ms.
// Other expressions (a plugin may write any) are evaluated by HCL, as
// before; TestCompiledPathsAsHCL holds the two to the same answers.
type tmpl []tmplPart

// tmplPart is text (lit), a path variable (name), or env(env, def).
type tmplPart struct {
	lit, name, env string
	def            tmpl
}

// compiled keeps, by expression, its tmpl (nil where it has none): the
// built-in specs are parsed once a process, and their expressions with
// them. A plugin's spec is parsed again by each engine, so what is kept is
// bounded (maxCompiled): a process that made engines without end keeps
// that many, and compiles the rest at each call (a walk of a few nodes,
// about twice the time of a lookup).
var (
	compiled  sync.Map // hcl.Expression → tmpl
	nCompiled atomic.Int32
)

const maxCompiled = 4096

// tmplOf returns e's tmpl, and whether it has one.
func tmplOf(e hcl.Expression) (tmpl, bool) {
	if _, native := e.(hclsyntax.Expression); !native {
		return nil, false // another syntax's (HCL's JSON), which may not be a map key
	}
	if t, ok := compiled.Load(e); ok {
		return t.(tmpl), t.(tmpl) != nil
	}
	t, ok := compileTmpl(e)
	if !ok {
		t = nil
	}
	if nCompiled.Load() < maxCompiled {
		if _, loaded := compiled.LoadOrStore(e, t); !loaded {
			nCompiled.Add(1)
		}
	}
	return t, ok
}

func compileTmpl(e hcl.Expression) (tmpl, bool) {
	switch x := e.(type) {
	case *hclsyntax.TemplateExpr:
		t := tmpl{}
		for _, p := range x.Parts {
			pt, ok := compileTmpl(p)
			if !ok {
				return nil, false
			}
			t = append(t, pt...)
		}
		return t, true
	case *hclsyntax.TemplateWrapExpr:
		return compileTmpl(x.Wrapped)
	case *hclsyntax.LiteralValueExpr:
		if x.Val.Type() != cty.String || x.Val.IsNull() || !x.Val.IsKnown() {
			return nil, false
		}
		return tmpl{{lit: x.Val.AsString()}}, true
	case *hclsyntax.ScopeTraversalExpr:
		if len(x.Traversal) != 1 || !isPathVariable(x.Traversal.RootName()) {
			return nil, false
		}
		return tmpl{{name: x.Traversal.RootName()}}, true
	case *hclsyntax.FunctionCallExpr:
		if x.Name != "env" || len(x.Args) != 2 || x.ExpandFinal {
			return nil, false
		}
		name, ok := compileTmpl(x.Args[0])
		if !ok || len(name) != 1 || name[0].lit == "" {
			return nil, false
		}
		def, ok := compileTmpl(x.Args[1])
		if !ok {
			return nil, false
		}
		return tmpl{{env: name[0].lit, def: def}}, true
	}
	return nil, false
}

// tmplUses reports whether e, a path or a server path, reads the
// variable name, and whether that is known from its tmpl (ok false: e
// has none).
func tmplUses(e hcl.Expression, name string) (uses, ok bool) {
	if tc, isList := e.(*hclsyntax.TupleConsExpr); isList {
		for _, x := range tc.Exprs {
			t, ok := tmplOf(x)
			if !ok {
				return false, false
			}
			uses = uses || t.uses(name)
		}
		return uses, true
	}
	t, ok := tmplOf(e)
	return ok && t.uses(name), ok
}

func (t tmpl) uses(name string) bool {
	for _, p := range t {
		if p.name == name || p.def.uses(name) {
			return true
		}
	}
	return false
}

func isPathVariable(name string) bool {
	for _, v := range pathVariables {
		if v == name {
			return true
		}
	}
	return false
}

// pathVars is what a path reads: the path variables (pathVariables), and
// the environment (env()). evalContext gives HCL the same.
type pathVars struct {
	home, project, configHome, appdata, os string
	getenv                                 func(string) string
}

func pathVarsOf(env formats.Env, project string) *pathVars {
	v := &pathVars{home: env.Home, project: project, os: env.OS, getenv: env.Get}
	v.configHome = env.Get("XDG_CONFIG_HOME")
	if !path.IsAbs(v.configHome) {
		v.configHome = v.home + "/.config"
	}
	v.appdata = env.Get("APPDATA")
	if v.appdata == "" {
		v.appdata = v.home + "/AppData/Roaming"
	}
	return v
}

// text is t's value, as HCL's would be: every string cty holds is
// normalised to NFC, the variables' and the whole text's alike.
func (t tmpl) text(v *pathVars) string {
	var b strings.Builder
	t.write(&b, v)
	return norm.NFC.String(b.String())
}

func (t tmpl) write(b *strings.Builder, v *pathVars) {
	for _, p := range t {
		switch {
		case p.name != "":
			b.WriteString(norm.NFC.String(v.value(p.name)))
		case p.env != "":
			if s := v.getenv(p.env); s != "" {
				b.WriteString(norm.NFC.String(s))
			} else {
				b.WriteString(p.def.text(v))
			}
		default:
			b.WriteString(p.lit)
		}
	}
}

func (v *pathVars) value(name string) string {
	switch name {
	case "home":
		return v.home
	case "project":
		return v.project
	case "config_home":
		return v.configHome
	case "appdata":
		return v.appdata
	}
	return v.os
}

// pathEval evaluates the path expressions of one machine (env) and
// project: by their tmpl where they have one, else by HCL in a context
// made once, when first needed.
type pathEval struct {
	env     formats.Env
	project string
	vars    *pathVars
	ctx     *hcl.EvalContext
}

// path is evalPath's answer for e.
func (p *pathEval) path(e hcl.Expression) (string, error) {
	t, ok := tmplOf(e)
	if !ok {
		if p.ctx == nil {
			p.ctx = evalContext(p.env, p.project)
		}
		return evalPathIn(p.ctx, e, p.env)
	}
	if p.vars == nil {
		p.vars = pathVarsOf(p.env, p.project)
	}
	return cleanPath(t.text(p.vars), p.env), nil
}

// cleanPath is a computed path in the machine's own separators.
func cleanPath(p string, env formats.Env) string {
	if env.PathOS() == "windows" {
		return strings.ReplaceAll(p, "/", `\`)
	}
	return path.Clean(p)
}

// servers is evalServers' answer for e: a list of names compiled, or HCL's.
func (p *pathEval) servers(e hcl.Expression) ([]string, error) {
	if tc, ok := e.(*hclsyntax.TupleConsExpr); ok {
		names := make([]string, 0, len(tc.Exprs))
		for _, x := range tc.Exprs {
			t, ok := tmplOf(x)
			if !ok {
				return evalServers(e, p.env, p.project)
			}
			if p.vars == nil {
				p.vars = pathVarsOf(p.env, p.project)
			}
			names = append(names, t.text(p.vars))
		}
		return names, nil
	}
	return evalServers(e, p.env, p.project)
}
