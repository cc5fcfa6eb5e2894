package formats

import (
	"time"

	"github.com/mcpsync/mcpsync/canonical"
)

// View is srv as the client at loc reads it back once written: encoded
// alone into a new file and decoded again. What the client cannot express
// (a cwd for Claude Code, a timeout for Cursor, SSE for a client that reads
// every remote server as HTTP, a default in ${VAR:-x} for Qwen) is gone,
// so that comparing a view with the client's entry never counts a field
// the client cannot hold as a difference. ok is false when the client
// cannot hold the server at all (a transport it lacks, a name it cannot
// spell, an encoding error).
//
// Export, import, sync and doctor all compare through View: it is the one
// definition of "what the client would hold".
func View(ad Adapter, loc Location, srv canonical.Server, opts EncodeOptions) (canonical.Server, bool) {
	srv = srv.Clone()
	srv.Origin = canonical.Pos{}
	if hc, ok := ad.(HoldChecker); ok && hc.CannotHold(loc, srv, opts.For(loc)) {
		return canonical.Server{}, false
	}
	data, ds := ad.Encode(loc, nil, canonical.Set{Servers: []canonical.Server{srv}}, opts.For(loc))
	if ds.HasErrors() {
		return canonical.Server{}, false
	}
	back, ds := ad.Decode(loc, data)
	if ds.HasErrors() {
		return canonical.Server{}, false
	}
	return back.Get(srv.Name)
}

// A HoldChecker tells, without writing a file, that its client cannot
// hold a server at all: View is then false without encoding a file that
// leaves the server out and decoding it again. A no-op sync of 10,000
// servers to every client asked View 70,000 times about servers seven
// clients cannot hold (an SSE server, a reference they would not expand),
// each time, as no file records what a client was never given.
type HoldChecker interface {
	// CannotHold reports true only when Encode of srv alone into a new
	// file at loc, with opts, would leave srv out (or fail); false says
	// nothing: View encodes and decodes to find out.
	CannotHold(loc Location, srv canonical.Server, opts EncodeOptions) bool
}

// ViewOr is View, or srv itself when the client cannot hold it: for a
// comparison that then reports the whole server as different.
func ViewOr(ad Adapter, loc Location, srv canonical.Server, opts EncodeOptions) canonical.Server {
	if v, ok := View(ad, loc, srv, opts); ok {
		return v
	}
	return srv
}

// SameAsHeld reports whether the client's entry have says what want says,
// as that client holds it: equal outright, or equal to want's View.
func SameAsHeld(ad Adapter, loc Location, want, have canonical.Server, opts EncodeOptions) bool {
	if canonical.Equal(want, have) {
		return true
	}
	v, ok := View(ad, loc, want, opts)
	return ok && canonical.Equal(v, have)
}

// InScope reports whether loc is one of the files of scope for the project
// projectDir: Claude Code's local scope is one section per project, and
// only this project's is in scope.
func InScope(loc Location, scope canonical.Scope, projectDir string) bool {
	return loc.Scope == scope && (scope != canonical.ScopeLocal || loc.Project == projectDir)
}

// ScopeLocations are the client's files (Locate) of scope for the
// project env.ProjectDir, in the adapter's order.
func ScopeLocations(ad Adapter, env Env, scope canonical.Scope) []Location {
	var out []Location
	for _, loc := range Locate(ad, env) {
		if InScope(loc, scope, env.ProjectDir) {
			out = append(out, loc)
		}
	}
	return out
}

// ServerInScope reports whether a store server belongs in a file of loc's
// scope: a server bound to a project (Server.Project) only in that
// project's local section, one bound to none in every other file.
func ServerInScope(srv canonical.Server, loc Location) bool {
	if loc.Scope == canonical.ScopeLocal {
		return srv.Project != "" && srv.Project == loc.Project
	}
	return srv.Project == ""
}

// ShapeLocation picks the location whose shape a file in the client's
// form takes (convert, import --file): the client's file of scope, else
// its first writable one, else its first one.
func ShapeLocation(ad Adapter, env Env, scope canonical.Scope) Location {
	locs := Locate(ad, env)
	for _, l := range locs {
		if InScope(l, scope, env.ProjectDir) {
			return l
		}
	}
	for _, l := range locs {
		if !l.ReadOnly {
			return l
		}
	}
	if len(locs) > 0 {
		return locs[0]
	}
	return Location{Client: ad.ID(), Scope: scope}
}

// Shape is how a client's files spell their servers, as far as reading a
// paste of them needs: where the servers are, how a transport and a
// reference are written, what a url without a type means, and the unit of
// the client's plain timeout key. The adapters are the one home of these
// facts; the paste reader takes them from here (Shaper) rather than keep
// tables of its own.
type Shape struct {
	Client string
	// Servers are the paths of the server maps from the top of a file
	// ("mcpServers"; "projects", "*", "mcpServers" for a map per project).
	Servers [][]string
	Dialect canonical.Dialect
	// Types maps each "type" spelling the client writes or reads, in lower
	// case, to its transport.
	Types map[string]canonical.Transport
	// URLWithoutType is what a url without a type means: "http", "sse",
	// "auto" (the client detects it; read as http) or "invalid".
	URLWithoutType string
	// Timeouts are the client's timeout keys: the unit of each, and
	// whether it bounds start-up rather than a tool call.
	Timeouts map[string]Timeout
}

// Timeout is one timeout key of a client.
type Timeout struct {
	Unit    time.Duration
	Startup bool
}

// Shaper is an adapter that describes its Shape.
type Shaper interface {
	Shape() Shape
}

// Aliaser is an adapter that other names also find (Registry.Lookup):
// "claude" for claude-code, "code" for vscode.
type Aliaser interface {
	Aliases() []string
}

// Precedencer is an adapter whose client documents which of its scopes
// wins when one server name is in several: order lists the scopes, the
// winning one first; rule says it in a sentence.
type Precedencer interface {
	Precedence() (order []canonical.Scope, rule string)
}
