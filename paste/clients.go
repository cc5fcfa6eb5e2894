package paste

import (
	"slices"
	"strings"
	"sync"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/all"
)

// What the paste reader knows of each client comes from the clients'
// adapters (formats.Shape, from the specs): where a client keeps its
// servers, how it spells a transport and a reference, what a bare url
// means, the unit of its plain timeout key. The reader itself only adds
// leniency: every client's spellings are read wherever they appear.

// clientKnowledge is the shapes of the built-in clients, indexed.
type clientKnowledge struct {
	shapes map[string]formats.Shape
	// wrappers are the top-level keys under which clients keep their
	// servers, with the client each one identifies ("" for a key several
	// clients share, as mcpServers). "mcp" (OpenCode, or VS Code
	// settings.json when it holds "servers") and "projects"
	// (~/.claude.json) are read apart.
	wrappers map[string]string
	// spellings maps every type spelling some client writes or reads, in
	// lower case, to its transport.
	spellings map[string]canonical.Transport
}

// mirrorsShape are the clients whose files copy another client's format
// exactly: Visual Studio reads VS Code's mcp.json ("servers"), so a pasted
// {"servers": …} is still read as VS Code's, with its inputs.
var mirrorsShape = map[string]string{"visual-studio": "vscode"}

var known = sync.OnceValue(func() *clientKnowledge {
	return newKnowledge(all.Shapes())
})

func newKnowledge(shapes []formats.Shape) *clientKnowledge {
	k := &clientKnowledge{shapes: map[string]formats.Shape{}, wrappers: map[string]string{},
		spellings: map[string]canonical.Transport{}}
	for _, t := range []canonical.Transport{canonical.Stdio, canonical.HTTP, canonical.SSE} {
		k.spellings[string(t)] = t
	}
	owners := map[string][]string{}
	for _, sh := range shapes {
		k.shapes[sh.Client] = sh
		if mirrorsShape[sh.Client] != "" {
			continue // its shape is another client's: a paste names that one
		}
		for _, p := range sh.Servers {
			if len(p) == 1 && p[0] != "mcp" && !slices.Contains(owners[p[0]], sh.Client) {
				owners[p[0]] = append(owners[p[0]], sh.Client)
			}
		}
		for spelling, t := range sh.Types {
			if _, taken := k.spellings[spelling]; !taken {
				k.spellings[spelling] = t
			}
		}
	}
	for key, clients := range owners {
		k.wrappers[key] = ""
		if len(clients) == 1 {
			k.wrappers[key] = clients[0]
		}
	}
	return k
}

// dialect is the placeholder syntax the client expands; for a shape that
// names no client, Claude Code's, which the shared mcpServers shape copies.
func (k *clientKnowledge) dialect(client string) canonical.Dialect {
	if sh, ok := k.shapes[client]; ok {
		return sh.Dialect
	}
	return canonical.DialectDollar
}

// strict says the shape names its client for certain (its wrapper is that
// client's alone), so that a reference spelled for another client is worth
// a warning: this one would have passed it on as text.
func (k *clientKnowledge) strict(client string) bool {
	if client == "" {
		return false
	}
	if client == "opencode" {
		return true // "mcp", read apart
	}
	for _, owner := range k.wrappers {
		if owner == client {
			return true
		}
	}
	return false
}

// native reports whether a type spelling is the client's own, so that
// reading it is not a repair worth a warning.
func (k *clientKnowledge) native(client, spelling string) bool {
	_, ok := k.shapes[client].Types[strings.ToLower(spelling)]
	return ok && client != ""
}

// urlMeansHTTP reports whether a url without a type is streamable HTTP by
// the client's definition (or its own detection). Elsewhere a bare url is
// invalid (Claude Code), SSE (Qwen, Cline) or guessed, so reading it as
// HTTP is a repair.
func (k *clientKnowledge) urlMeansHTTP(client string) bool {
	switch k.shapes[client].URLWithoutType {
	case "http", "auto":
		return true
	}
	return false
}

// timeout is the unit of the client's plain "timeout" key. A client
// without one (Claude Code: the unit is not documented) keeps the key
// verbatim in Extra.
func (k *clientKnowledge) timeout(client string) (formats.Timeout, bool) {
	t, ok := k.shapes[client].Timeouts["timeout"]
	return t, ok
}

// asTheClientReads reads data with the adapter of opts.Client, when that
// client reads it without an error and finds servers in it: a client's own
// file means what that client makes of it, and no leniency of the paste
// reader may read it otherwise.
func asTheClientReads(data []byte, file, client string, opts Options) (canonical.Set, canonical.Diagnostics, bool) {
	if client == "" {
		return canonical.Set{}, nil, false
	}
	ad, err := registry().Lookup(client)
	if err != nil {
		return canonical.Set{}, nil, false
	}
	loc := opts.Location
	if loc.Client != ad.ID() {
		loc = formats.ShapeLocation(ad, formats.Env{Home: "/home", ProjectDir: "/project", OS: "linux"}, canonical.ScopeUser)
	}
	loc.Path = file
	set, ds := ad.Decode(loc, data)
	if !ds.HasErrors() && set.Len() == 0 && opts.Location.Client != ad.ID() {
		// Not the client's usual file: one of its others (VS Code's
		// settings.json keeps servers under "mcp"), read as that one and
		// shown as the paste.
		set, ds = otherFileOf(ad, data, file)
	}
	if ds.HasErrors() || set.Len() == 0 {
		return canonical.Set{}, nil, false
	}
	ds = append(ds, rename(&set, opts.Name, canonical.Pos{File: file, Line: 1, Column: 1})...)
	if opts.ExampleValues {
		for i := range set.Servers {
			ds = append(ds, exampleServerValues(&set.Servers[i])...)
		}
	}
	ds = append(ds, set.Validate()...)
	return set, ds, true
}

// otherFileOf reads data as each other file of ad in turn and returns the
// first reading that finds servers, its positions naming file.
func otherFileOf(ad formats.Adapter, data []byte, file string) (canonical.Set, canonical.Diagnostics) {
	env := formats.Env{Home: "/home", ProjectDir: "/project", OS: "linux"}
	for _, l := range ad.Locations(env) {
		set, ds := ad.Decode(l, data)
		if ds.HasErrors() || set.Len() == 0 {
			continue
		}
		for i := range set.Servers {
			if set.Servers[i].Origin.File == l.Path {
				set.Servers[i].Origin.File = file
			}
		}
		for _, d := range ds {
			if d.File == l.Path {
				d.File = file
			}
		}
		return set, ds
	}
	return canonical.Set{}, nil
}

// soleClient is the client a document's shape names for certain: a
// top-level key only that client uses ("servers", "context_servers",
// "amp.mcpServers", "mcp" without "servers" in it), Codex for TOML, Goose
// for YAML "extensions" and Continue for YAML "mcpServers"; "" when the
// shape is shared (mcpServers) or several clients' keys are there.
func soleClient(root *node, syn syntax) string {
	if root.kind != kObject {
		return ""
	}
	found := ""
	set := func(c string) bool {
		if found != "" && found != c {
			found = "\x00"
			return false
		}
		found = c
		return true
	}
	for _, m := range root.members {
		switch {
		case syn == synTOML && m.key == "mcp_servers":
			set("codex")
		case syn == synYAML && m.key == "extensions":
			set("goose")
		case syn == synYAML && m.key == "mcpServers":
			set("continue")
		case m.key == "mcp" && m.val.kind == kObject && !m.val.has("servers"):
			set("opencode")
		case m.key == "mcp" && m.val.kind == kObject:
			set("vscode") // VS Code's settings.json: "mcp": {"servers", "inputs"}
		case syn == synJSON:
			if c, isWrapper := known().wrappers[m.key]; isWrapper {
				if c == "" || c == "codex" || c == "goose" {
					set("\x00") // a shape several clients share is there too
				} else {
					set(c)
				}
			}
		case m.key == "projects":
			set("\x00")
		}
	}
	if found == "\x00" {
		return ""
	}
	return found
}

var registry = sync.OnceValue(func() *formats.Registry { return all.NewRegistry(all.Options{}) })
