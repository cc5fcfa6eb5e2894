package spec

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
)

//go:embed builtin/*.hcl
var builtinFS embed.FS

// BuiltinIDs lists the clients whose spec is built in, sorted.
func BuiltinIDs() []string {
	entries, _ := builtinFS.ReadDir("builtin")
	var ids []string
	for _, e := range entries {
		if id, ok := strings.CutSuffix(e.Name(), ".hcl"); ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// BuiltinSource returns the text of a built-in client's spec, the starting
// point for a plugin (mcpsync clients --spec ID).
func BuiltinSource(id string) ([]byte, bool) {
	p, ok := builtinPath(id)
	if !ok {
		return nil, false
	}
	b, err := builtinFS.ReadFile(p)
	return b, err == nil
}

// builtinPath is where the spec of built-in client id would be embedded;
// false for an id no embedded file can have.
func builtinPath(id string) (string, bool) {
	if strings.ContainsAny(id, `/\.`) {
		return "", false
	}
	return path.Join("builtin", id+".hcl"), true
}

// isBuiltin reports whether id is a built-in client, without a copy of
// its spec's text (BuiltinSource makes one): the registry asks of every
// client as a run starts.
func isBuiltin(id string) bool {
	p, ok := builtinPath(id)
	if !ok {
		return false
	}
	_, err := fs.Stat(builtinFS, p)
	return err == nil
}

var builtinCache sync.Map // id -> *Spec

// Builtin returns the parsed spec of a built-in client. Each spec is built
// once, on first use, so that start-up pays only for the clients a command
// touches: from its schema decoded ahead (builtin_gen.go), or parsed from
// its source when that is not the source the schema was decoded from.
func Builtin(id string) (*Spec, error) {
	if s, ok := builtinCache.Load(id); ok {
		return s.(*Spec), nil
	}
	src, ok := BuiltinSource(id)
	if !ok {
		return nil, fmt.Errorf("no built-in client %q", id)
	}
	file := "builtin/" + id + ".hcl"
	var specs []*Spec
	var diags canonical.Diagnostics
	if c := generatedSchema(id, src); c != nil { // decoded ahead: see generated.go
		s, ds := build(c, file, src, false) // checked ahead too
		specs, diags = []*Spec{s}, ds
	} else {
		specs, diags = Parse(file, src)
	}
	if diags.HasErrors() {
		return nil, diags.Err()
	}
	if len(specs) != 1 || specs[0].ID != id {
		return nil, fmt.Errorf("builtin/%s.hcl must describe exactly the client %q", id, id)
	}
	s, _ := builtinCache.LoadOrStore(id, specs[0])
	return s.(*Spec), nil
}

// MustBuiltin is Builtin for the built-in list, where a broken spec is a bug
// that the tests catch.
func MustBuiltin(id string) *Spec {
	s, err := Builtin(id)
	if err != nil {
		panic(err)
	}
	return s
}

// BuiltinAdapter returns the adapter of a built-in client without parsing
// its spec yet: the spec is parsed on the first call that needs it, so that
// a command pays only for the clients it touches. h are the client's Go
// quirks (nil for none).
func BuiltinAdapter(id string, h Hooks) formats.Adapter {
	if !isBuiltin(id) {
		panic("spec: no built-in client " + id)
	}
	return &lazyAdapter{id: id, hooks: h}
}

// MayRead implements formats.ReadHinter without parsing the spec: false
// when no path of the spec, on env's OS and with env's variables, ends the
// way p does. Parsing every spec that names some mcp.json, to learn where
// it reads, was a sixth of a small export.
func (l *lazyAdapter) MayRead(p string, env formats.Env) bool {
	p = strings.ReplaceAll(p, `\`, "/")
	goos := targetOS(env)
	for _, h := range builtinPathHints(l.id) {
		if len(h.os) > 0 && !slices.Contains(h.os, goos) {
			continue
		}
		tail := h.tail
		if h.unsetVar != "" && env.Get(h.unsetVar) == "" {
			tail = h.unsetTail
		}
		if tail == "" || strings.HasSuffix(p, tail) {
			return true
		}
	}
	return false
}

// hintsOf is the path hints of the built-in spec id: generated ahead
// (builtin_gen.go) while its source has the size it was generated from,
// else read from the source. Reading the thirty sources, which MayRead
// asks of nearly every client on every write, was about 1 ms of a
// 50-server export (a copy of each, and the first touch of its pages).
// A source changed at the same size is caught by TestBuiltinGenIsCurrent.
func hintsOf(id string) []pathHint {
	if g, ok := generatedPathHints[id]; ok {
		if p, ok := builtinPath(id); ok {
			if fi, err := fs.Stat(builtinFS, p); err == nil && fi.Size() == int64(g.size) {
				return g.hints
			}
		}
	}
	src, _ := BuiltinSource(id)
	return pathHints(string(src))
}

// pathHint is what the text of one path of a spec says of the files it
// names: on os (empty: every OS), every such file ends in tail ("": it
// may be any file); while unsetVar is unset, in unsetTail instead.
type pathHint struct {
	os                  []string
	tail                string
	unsetVar, unsetTail string
}

// builtinPathHints reads the literal ends of a built-in spec's paths from
// its text, without parsing it: path = "${project}/.cursor/mcp.json" gives
// "/.cursor/mcp.json", the part after the last variable, which the file of
// that location ends in on every machine. A path moved by one env()
// variable gives the end of its default too, for when the variable is
// unset; a path env() may replace whole is any file while it is set.
var builtinPathHints = func() func(id string) []pathHint {
	var mu sync.Mutex
	memo := map[string][]pathHint{}
	return func(id string) []pathHint {
		mu.Lock()
		defer mu.Unlock()
		if h, ok := memo[id]; ok {
			return h
		}
		h := hintsOf(id)
		memo[id] = h
		return h
	}
}()

func pathHints(src string) []pathHint {
	var out []pathHint
	var inLocation bool
	var oses []string
	var pending []pathHint
	for line := range strings.Lines(src) {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "location "):
			inLocation, oses, pending = true, nil, nil
			continue
		case inLocation && trimmed == "}" && strings.HasPrefix(line, "  }"):
			for _, h := range pending {
				h.os = oses
				out = append(out, h)
			}
			inLocation, pending = false, nil
			continue
		}
		key, value, ok := strings.Cut(trimmed, "=")
		if !ok {
			continue
		}
		value = strings.TrimSpace(value)
		switch strings.TrimSpace(key) {
		case "os":
			for _, f := range strings.Split(strings.Trim(value, "[]"), ",") {
				if f = strings.Trim(strings.TrimSpace(f), `"`); f != "" {
					oses = append(oses, f)
				}
			}
		case "path":
			if inLocation {
				pending = append(pending, hintOf(value))
			} else {
				out = append(out, hintOf(value))
			}
		}
	}
	return out
}

// hintOf reads one path expression: a quoted template, or a bare env().
func hintOf(value string) pathHint {
	if strings.Count(value, `env("`) > 1 {
		return pathHint{tail: literalTail(value)} // nested env(): the end after them only
	}
	i := strings.Index(value, `env("`)
	if i < 0 {
		return pathHint{tail: literalTail(value)}
	}
	name, rest, ok := strings.Cut(value[i+len(`env("`):], `"`)
	if !ok {
		return pathHint{}
	}
	// rest is `, DEFAULT)…`: the default, then what follows the call.
	end := strings.LastIndexByte(rest, ')')
	if end < 0 {
		return pathHint{}
	}
	def := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest[:end]), ","))
	after := strings.TrimPrefix(rest[end+1:], "}")
	h := pathHint{unsetVar: name}
	if i > 0 { // "${env(…)}REST": REST ends every file
		h.tail = literalTail(`"` + after)
	}
	if strings.HasPrefix(def, `"`) {
		h.unsetTail = literalTail(strings.TrimSuffix(def, `"`) + strings.TrimSuffix(after, `"`) + `"`)
	} else {
		h.unsetTail = h.tail // a variable such as home: no more known
	}
	return h
}

// literalTail is the part of a quoted path template after its last
// variable, "" when that part names no file.
func literalTail(value string) string {
	rest, ok := strings.CutSuffix(value, `"`)
	if !ok {
		return ""
	}
	tail := rest[strings.LastIndexAny(rest, `}"`)+1:]
	name := tail[strings.LastIndexByte(tail, '/')+1:]
	if !strings.Contains(tail, "/") || name == "" || strings.ContainsAny(tail, `$()`) {
		return ""
	}
	return tail
}

// lazyAdapter parses its built-in spec on first use.
type lazyAdapter struct {
	id    string
	hooks Hooks
	once  sync.Once
	a     *Adapter
}

var (
	_ formats.Adapter     = (*lazyAdapter)(nil)
	_ formats.FileChooser = (*lazyAdapter)(nil)
	_ formats.ReadHinter  = (*lazyAdapter)(nil)
)

func (l *lazyAdapter) get() *Adapter {
	l.once.Do(func() { l.a = MustAdapter(MustBuiltin(l.id), l.hooks) })
	return l.a
}

// Prepare implements formats.Preparer: it parses the spec now.
func (l *lazyAdapter) Prepare() { l.get() }

// ID implements formats.Adapter without parsing the spec.
func (l *lazyAdapter) ID() string { return l.id }

// DisplayName implements formats.Adapter.
func (l *lazyAdapter) DisplayName() string { return l.get().DisplayName() }

// Capabilities implements formats.Adapter.
func (l *lazyAdapter) Capabilities() formats.Capabilities { return l.get().Capabilities() }

// Locations implements formats.Adapter.
func (l *lazyAdapter) Locations(env formats.Env) []formats.Location { return l.get().Locations(env) }

// Decode implements formats.Adapter.
func (l *lazyAdapter) Decode(loc formats.Location, data []byte) (canonical.Set, canonical.Diagnostics) {
	return l.get().Decode(loc, data)
}

// LeftAlone implements formats.LeftAloner.
func (l *lazyAdapter) LeftAlone(loc formats.Location, data []byte) canonical.Diagnostics {
	return l.get().LeftAlone(loc, data)
}

// Encode implements formats.Adapter.
func (l *lazyAdapter) Encode(loc formats.Location, data []byte, want canonical.Set, opts formats.EncodeOptions) ([]byte, canonical.Diagnostics) {
	return l.get().Encode(loc, data, want, opts)
}

// CannotHold implements formats.HoldChecker.
func (l *lazyAdapter) CannotHold(loc formats.Location, srv canonical.Server, opts formats.EncodeOptions) bool {
	return l.get().CannotHold(loc, srv, opts)
}

// ChooseFiles implements formats.FileChooser.
func (l *lazyAdapter) ChooseFiles(locs []formats.Location, exists func(string) bool) []formats.Location {
	return l.get().ChooseFiles(locs, exists)
}

// EntrySpan is Adapter.EntrySpan.
func (l *lazyAdapter) EntrySpan(loc formats.Location, data []byte, name string) (int, int, bool) {
	return l.get().EntrySpan(loc, data, name)
}

// Spec returns the parsed spec.
func (l *lazyAdapter) Spec() *Spec { return l.get().Spec() }

var _ formats.ApprovalsReader = (*lazyAdapter)(nil)

// Approvals implements formats.ApprovalsReader.
func (l *lazyAdapter) Approvals(env formats.Env) (formats.Approvals, bool) {
	return l.get().Approvals(env)
}

var _ formats.NameRuler = (*lazyAdapter)(nil)

// AcceptsName implements formats.NameRuler.
func (l *lazyAdapter) AcceptsName(name string) bool { return l.get().AcceptsName(name) }

var _ formats.RemoteManaged = (*lazyAdapter)(nil)

// ManagedRemotely implements formats.RemoteManaged.
func (l *lazyAdapter) ManagedRemotely(loc formats.Location, data []byte) string {
	return l.get().ManagedRemotely(loc, data)
}

var _ formats.AlsoReader = (*lazyAdapter)(nil)

// AlsoReadBy implements formats.AlsoReader.
func (l *lazyAdapter) AlsoReadBy() []string { return l.get().AlsoReadBy() }
