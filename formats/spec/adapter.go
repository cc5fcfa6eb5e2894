package spec

import (
	"bytes"
	"fmt"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/jsonedit"
)

// Adapter is the JSON-family adapter a Spec describes.
type Adapter struct {
	spec  *Spec
	hooks Hooks
	caps  formats.Capabilities
	// keys classifies every key the client knows; others are Extra.
	keys map[string]fieldKind
	// urlTransport names the transport a url key implies ("" for the plain url keys).
	urlTransport map[string]canonical.Transport
	// resolved keeps resolve's answer for each location (formats.Location
	// to resolved): it evaluates the spec's server path, and View asks it
	// for every server and client (70,000 times in a no-op sync of 10,000
	// servers to every client, a fifth of the sync's planning).
	resolved sync.Map
}

type resolved struct {
	t target
	d *canonical.Diagnostic
}

var (
	_ formats.Adapter     = (*Adapter)(nil)
	_ formats.FileChooser = (*Adapter)(nil)
)

// fieldKind is which part of the canonical model a key holds.
type fieldKind int

const (
	fUnknown fieldKind = iota
	fType
	fCommand
	fArgs
	fEnv
	fCwd
	fURL
	fHeaders
	fEnabled
	fDisabled
	fToolsAllow
	fToolsDeny
	fStartupTimeout
	fToolTimeout
	fOAuth
)

// NewAdapter builds the adapter for s. A spec that names quirks needs the
// client's hooks; h == nil means none.
func NewAdapter(s *Spec, h Hooks) (*Adapter, error) {
	if h == nil {
		if s.Quirks != "" {
			return nil, fmt.Errorf("%s: quirks %q need Go code that only a built-in client has; remove the quirks line", s.File, s.Quirks)
		}
		h = NoHooks{}
	}
	a := &Adapter{spec: s, hooks: h, caps: s.Capabilities(), keys: map[string]fieldKind{}, urlTransport: map[string]canonical.Transport{}}
	f := s.Fields
	for key, kind := range map[string]fieldKind{
		f.Type: fType, f.Command: fCommand, f.Args: fArgs, f.Env: fEnv, f.Cwd: fCwd, f.URL: fURL,
		f.Headers: fHeaders, f.Enabled: fEnabled, f.Disabled: fDisabled, f.ToolsAllow: fToolsAllow,
		f.ToolsDeny: fToolsDeny, f.StartupTimeout: fStartupTimeout, f.ToolTimeout: fToolTimeout,
	} {
		if key != "" {
			a.keys[key] = kind
		}
	}
	if s.OAuth != nil {
		a.keys[s.OAuth.Key] = fOAuth
	}
	for _, k := range append([]string{f.URL}, f.URLAliases...) {
		if k != "" {
			a.keys[k], a.urlTransport[k] = fURL, ""
		}
	}
	for _, t := range s.Transports {
		for _, k := range append([]string{t.URLKey}, t.ReadURLKeys...) {
			if k != "" && k != f.URL {
				a.keys[k], a.urlTransport[k] = fURL, t.Name
			}
		}
	}
	return a, nil
}

// MustAdapter is NewAdapter for the built-in list.
func MustAdapter(s *Spec, h Hooks) *Adapter {
	a, err := NewAdapter(s, h)
	if err != nil {
		panic(err)
	}
	return a
}

// Spec returns the description the adapter follows.
func (a *Adapter) Spec() *Spec { return a.spec }

// ID implements formats.Adapter.
func (a *Adapter) ID() string { return a.spec.ID }

// DisplayName implements formats.Adapter.
func (a *Adapter) DisplayName() string { return a.spec.DisplayName }

// Capabilities implements formats.Adapter.
func (a *Adapter) Capabilities() formats.Capabilities { return a.caps }

func targetOS(env formats.Env) string {
	if env.OS != "" {
		return env.OS
	}
	return runtime.GOOS
}

// Locations implements formats.Adapter.
func (a *Adapter) Locations(env formats.Env) []formats.Location {
	env.OS = targetOS(env)
	var out []formats.Location
	paths := &pathEval{env: env, project: env.ProjectDir} // the same for every path
	for _, ls := range a.spec.Locations {
		if len(ls.OS) > 0 && !slices.Contains(ls.OS, env.OS) {
			continue
		}
		servers := a.serversExpr(ls)
		if (usesProject(ls.path) || usesProject(servers)) && env.ProjectDir == "" {
			continue
		}
		p, err := paths.path(ls.path)
		if err != nil || p == "" {
			continue
		}
		loc := formats.Location{Client: a.spec.ID, Scope: ls.Scope, Path: p, Format: ls.Format, ReadOnly: ls.ReadOnly, Note: ls.Note}
		if ls.shadowedBy != nil {
			if sh, err := paths.path(ls.shadowedBy); err == nil && sh != "" {
				loc.ShadowedBy, loc.ShadowNote = sh, ls.ShadowNote
			}
		}
		if a.spec.Plugin && !a.spec.AllowOutsideHome && !loc.ReadOnly && !underHomeOrProject(p, env, ls.Scope) {
			loc.ReadOnly = true
			loc.Note = "outside your home directory: a plugin writes there only with allow_outside_home = true in " + a.spec.File
		}
		if usesProject(servers) {
			loc.Project = env.ProjectDir
		}
		if ls.Alternative {
			loc.ReadOnly = true
			if usual, ok := a.usual(out, loc); ok {
				loc.Note = alternativeNote(usual)
			}
		}
		out = append(out, loc)
	}
	return out
}

// usual returns the file a scope is normally written to: its first
// writable location that is not an alternative.
func (a *Adapter) usual(locs []formats.Location, alt formats.Location) (formats.Location, bool) {
	for _, l := range locs {
		if l.Scope == alt.Scope && l.Project == alt.Project && l.Path != alt.Path && !l.ReadOnly {
			return l, true
		}
	}
	return formats.Location{}, false
}

func alternativeNote(usual formats.Location) string {
	return "written instead of " + baseName(usual.Path) + " when only this file exists"
}

// specOf finds the spec location a Location stands for: the same scope
// (any, when loc has none) and file name, else the first of that scope.
func (a *Adapter) specOf(loc formats.Location) (LocationSpec, bool) {
	var first *LocationSpec
	base := baseName(loc.Path)
	for i := range a.spec.Locations {
		ls := &a.spec.Locations[i]
		if loc.Scope != "" && ls.Scope != loc.Scope {
			continue
		}
		if first == nil {
			first = ls
		}
		if sample, err := evalPath(ls.path, formats.Env{Home: "/h", ProjectDir: "/p", OS: "linux"}, "/p"); err == nil && path.Base(sample) == base {
			return *ls, true
		}
	}
	if first != nil {
		return *first, false
	}
	return LocationSpec{}, false
}

func (a *Adapter) isAlternative(loc formats.Location) bool {
	ls, exact := a.specOf(loc)
	return exact && ls.Alternative
}

// ChooseFiles implements formats.FileChooser: when only an alternative file
// of a scope exists (OpenCode's opencode.json beside opencode.jsonc), it is
// the one written, and the usual file becomes the read-only one.
func (a *Adapter) ChooseFiles(locs []formats.Location, exists func(path string) bool) []formats.Location {
	out := slices.Clone(locs)
	for i, alt := range out {
		if alt.Client != a.spec.ID || !a.isAlternative(alt) || !exists(alt.Path) {
			continue
		}
		for j, usual := range out {
			if i != j && !usual.ReadOnly && usual.Scope == alt.Scope && usual.Project == alt.Project && !a.isAlternative(usual) && !exists(usual.Path) {
				out[i].ReadOnly, out[i].Note = false, ""
				out[j].ReadOnly, out[j].Note = true, alternativeNote(alt)
			}
		}
	}
	return out
}

func baseName(p string) string { return path.Base(strings.ReplaceAll(p, `\`, "/")) }

func (a *Adapter) serversExpr(ls LocationSpec) hcl.Expression {
	if ls.servers != nil {
		return ls.servers
	}
	return a.spec.servers
}

// target is a Location resolved against the spec: which server map, in
// which syntax.
type target struct {
	loc     formats.Location
	servers []string
	format  formats.Format
}

// resolve finds the spec location that loc stands for: same scope and file
// name, else the first of its scope, else the client's defaults.
func (a *Adapter) resolve(loc formats.Location) (target, *canonical.Diagnostic) {
	if r, ok := a.resolved.Load(loc); ok {
		r := r.(resolved)
		if r.d != nil {
			d := *r.d // the caller's to place (At, WithFile)
			return r.t, &d
		}
		return r.t, nil
	}
	t, d := a.resolveOnce(loc)
	r := resolved{t: t}
	if d != nil {
		c := *d
		r.d = &c
	}
	a.resolved.Store(loc, r)
	return t, d
}

func (a *Adapter) resolveOnce(loc formats.Location) (target, *canonical.Diagnostic) {
	t := target{loc: loc, format: a.spec.Format}
	expr := a.spec.servers
	if ls, _ := a.specOf(loc); ls.path != nil {
		expr = a.serversExpr(ls)
		t.format = ls.Format
	}
	switch loc.Format {
	case formats.JSON, formats.JSONC, formats.JSONComments:
		t.format = loc.Format
	}
	if usesProject(expr) && loc.Project == "" {
		d := canonical.Errorf("no project directory for %s %s scope", a.spec.DisplayName, loc.Scope)
		d.Detail = "its servers are kept per project; run mcpsync inside the project or pass --project DIR"
		return t, d.At(canonical.Pos{File: loc.Path})
	}
	servers, err := (&pathEval{env: formats.Env{OS: "linux"}, project: loc.Project}).servers(expr)
	if err != nil {
		return t, canonical.Errorf("%s: the server path cannot be computed: %v", a.spec.File, err)
	}
	t.servers = servers
	return t, nil
}

// parse reads data as the target's syntax. Strict JSON refuses comments and
// trailing commas, JSON-with-comments refuses trailing commas: the client
// itself would not load the file.
func (a *Adapter) parse(t target, data []byte) (*jsonedit.Doc, canonical.Diagnostics) {
	doc, err := jsonedit.Parse(data)
	if err != nil {
		d := canonical.Errorf("%s is not valid JSON: %s", baseName(t.loc.Path), syntaxMessage(err))
		d.Detail = "fix the file by hand; mcpsync does not write a file it cannot read"
		if se, ok := err.(*jsonedit.SyntaxError); ok {
			d.At(canonical.Pos{File: t.loc.Path, Line: se.Line, Column: se.Column})
		}
		return nil, canonical.Diagnostics{d}
	}
	comment, comma := doc.Extension()
	var diags canonical.Diagnostics
	if comment >= 0 && t.format == formats.JSON {
		d := canonical.Errorf("comments are not allowed in this file")
		d.Detail = a.spec.DisplayName + " reads it as strict JSON and would fail to load it; remove the comment"
		diags = append(diags, a.at(d, doc, t, comment))
	}
	if comma >= 0 && (t.format == formats.JSON || t.format == formats.JSONComments) {
		d := canonical.Errorf("trailing commas are not allowed in this file")
		d.Detail = a.spec.DisplayName + " would fail to load it; remove the comma"
		diags = append(diags, a.at(d, doc, t, comma))
	}
	return doc, diags
}

func syntaxMessage(err error) string {
	if se, ok := err.(*jsonedit.SyntaxError); ok {
		return se.Msg
	}
	return err.Error()
}

// at places d at a byte offset of the document.
func (a *Adapter) at(d *canonical.Diagnostic, doc *jsonedit.Doc, t target, offset int) *canonical.Diagnostic {
	line, col := doc.Pos(offset)
	return d.At(canonical.Pos{File: t.loc.Path, Line: line, Column: col})
}

// atNode places d at a value of the document.
func atNode(d *canonical.Diagnostic, t target, n jsonedit.Node) *canonical.Diagnostic {
	line, col := n.Pos()
	return d.At(canonical.Pos{File: t.loc.Path, Line: line, Column: col})
}

// EntrySpan returns the byte range of a server's entry, from its name to the
// end of its value, so that tests can check that an edit stayed inside it.
func (a *Adapter) EntrySpan(loc formats.Location, data []byte, name string) (start, end int, ok bool) {
	t, d := a.resolve(loc)
	if d != nil {
		return 0, 0, false
	}
	doc, err := jsonedit.Parse(data)
	if err != nil {
		return 0, 0, false
	}
	for _, m := range doc.Find(t.servers...).Members() {
		if m.Name == name {
			start, end, ok = m.Key.Offset(), m.Value.End(), true
		}
	}
	return start, end, ok
}

// underHomeOrProject reports whether path is inside the home directory of
// env, or, for a project-scope file, its project directory.
func underHomeOrProject(path string, env formats.Env, scope canonical.Scope) bool {
	bases := []string{env.Home}
	if scope == canonical.ScopeProject {
		bases = append(bases, env.ProjectDir)
	}
	for _, base := range bases {
		if base == "" {
			continue
		}
		if rel, err := filepath.Rel(base, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
			return true
		}
	}
	return false
}

// Approvals is the client's list of variables it may expand, when it keeps
// one (approved_references).
func (a *Adapter) Approvals(env formats.Env) (formats.Approvals, bool) {
	ap := a.spec.Approved
	if ap == nil {
		return formats.Approvals{}, false
	}
	p, err := evalPath(ap.path, env, env.ProjectDir)
	if err != nil || p == "" {
		return formats.Approvals{}, false
	}
	return formats.Approvals{Path: p, Key: ap.Key, How: ap.How}, true
}

var _ formats.NameRuler = (*Adapter)(nil)

// AcceptsName implements formats.NameRuler: a spec without server_names
// takes any name.
func (a *Adapter) AcceptsName(name string) bool {
	return a.spec.Names == nil || a.spec.Names.Pattern.MatchString(name)
}

var _ formats.RemoteManaged = (*Adapter)(nil)

// ManagedRemotely implements formats.RemoteManaged: the spec's
// replaced_remotely key at the top of the file. A file that does not parse
// says nothing here; its own errors are reported where it is read.
func (a *Adapter) ManagedRemotely(_ formats.Location, data []byte) string {
	rk := a.spec.Remote
	if rk == nil || !bytes.Contains(data, []byte(`"`+rk.Key+`"`)) {
		return ""
	}
	doc, err := jsonedit.Parse(data)
	if err != nil || !doc.Find(rk.Key).Valid() {
		return ""
	}
	return rk.Why
}

var _ formats.AlsoReader = (*Adapter)(nil)

// AlsoReadBy implements formats.AlsoReader.
func (a *Adapter) AlsoReadBy() []string { return a.spec.AlsoReadBy }
