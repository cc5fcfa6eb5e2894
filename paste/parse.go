package paste

import (
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
)

// Options tune Parse.
type Options struct {
	// File names the input in diagnostics; "" means "<stdin>".
	File string
	// Name names a server pasted on its own, without a key. When the input
	// holds exactly one server under a key, it renames that server.
	Name string
	// ExampleValues replaces the example values of env and headers
	// ("YOUR_API_KEY", "<token>", "Bearer your-token") by references
	// (${API_KEY}), each with a warning: for what a person pastes from a
	// README. A client's own file keeps what is there.
	ExampleValues bool
}

// Parse reads whatever a user pasted into canonical servers. It never
// panics. Repairs are warnings; anything it cannot read is an error with
// file:line:col, and the returned set then must not be stored. A set with no
// error diagnostics has passed canonical validation.
func Parse(data []byte, opts Options) (canonical.Set, canonical.Diagnostics) {
	file := opts.File
	if file == "" {
		file = "<stdin>"
	}
	syn, off := detect(data)
	start := newLineIndex(file, data, 0).pos(off)
	var root *node
	var ds canonical.Diagnostics
	if off := tooDeep(data); off >= 0 && syn != synEmpty {
		d := canonical.Errorf("objects and arrays nest more than %d deep here", maxDepth)
		d.Detail = "this is not an MCP configuration; paste the servers only"
		return canonical.Set{}, canonical.Diagnostics{d.At(newLineIndex(file, data, 0).pos(off))}
	}
	switch syn {
	case synEmpty:
		d := canonical.Errorf("empty input: there is no server to read")
		d.Detail = "paste a JSON, JSONC or TOML snippet, for example {\"mcpServers\": {\"github\": {\"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-github\"]}}}"
		return canonical.Set{}, canonical.Diagnostics{d.At(canonical.Pos{File: file, Line: 1, Column: 1})}
	case synYAML:
		d := canonical.Errorf("this looks like YAML, which cannot be pasted yet")
		d.Detail = "paste the JSON, JSONC or TOML form of the servers"
		return canonical.Set{}, canonical.Diagnostics{d.At(start)}
	case synTOML:
		root, ds = parseTOML(data, file)
	default:
		root, ds = parseJSON(data, file, syn == synFragment)
	}
	if root == nil {
		return canonical.Set{}, ds
	}
	entries, found := findEntries(root, syn == synTOML, opts.Name)
	ds = append(ds, found...)
	if found.HasErrors() {
		return canonical.Set{}, ds
	}

	var set canonical.Set
	unreadable := map[string]bool{} // servers already reported; validating them again adds noise
	for _, e := range entries {
		srv, skip, d := readServer(e, opts.ExampleValues)
		ds = append(ds, d...)
		if d.HasErrors() {
			unreadable[e.name] = true
		}
		if !skip {
			set.Servers = append(set.Servers, srv)
		}
	}
	switch {
	case len(set.Servers) == 0 && !ds.HasErrors():
		d := canonical.Errorf("no server to add")
		d.Detail = "every entry was left out; see the warnings above"
		ds = append(ds, d.At(root.pos))
	case opts.Name != "" && len(set.Servers) == 1:
		set.Servers[0].Name = opts.Name
	case opts.Name != "" && len(set.Servers) > 1:
		d := canonical.Errorf("a name was given for one server, but the input holds %d: %s", len(set.Servers), strings.Join(set.Names(), ", "))
		d.Detail = "leave out --name: each server is named by its key"
		ds = append(ds, d.At(root.pos))
	}
	for _, d := range set.Validate() {
		if !unreadable[d.Server] || strings.HasPrefix(d.Summary, "duplicate") {
			ds = append(ds, d)
		}
	}
	return set, ds
}
