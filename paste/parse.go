package paste

import (
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
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
	// Client, when set, is the client whose file this is (add --file of a
	// client's own file, add --from): a file that client reads is read as
	// its adapter reads it, quirks included (Qwen's "type": "http" beside a
	// url, Claude Desktop's mcp-remote bridges); anything else, as a paste
	// in that client's spellings, dialect and timeout units.
	Client string
	// Location is where the client keeps the file (its scope and section),
	// for Client; zero means the client's user-scope file.
	Location formats.Location
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
	if set, ds, ok := asTheClientReads(data, file, opts.Client, opts); ok {
		return set, ds
	}
	syn, _ := detect(data)
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
		d.Detail = "paste a JSON, JSONC, TOML or YAML snippet, for example {\"mcpServers\": {\"github\": {\"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-github\"]}}}"
		return canonical.Set{}, canonical.Diagnostics{d.At(canonical.Pos{File: file, Line: 1, Column: 1})}
	case synYAML:
		root, ds = parseYAML(data, file)
	case synTOML:
		root, ds = parseTOML(data, file)
	default:
		root, ds = parseJSON(data, file, syn == synFragment)
	}
	if root == nil {
		return canonical.Set{}, ds
	}
	if opts.Client == "" && syn != synFragment {
		// A whole file whose shape names its client (Codex's TOML, VS
		// Code's "servers", Zed's "context_servers", …) is read as that
		// client reads it, when it does.
		if client := soleClient(root, syn); client != "" {
			if set, ds, ok := asTheClientReads(data, file, client, opts); ok {
				return set, ds
			}
		}
	}
	entries, found := findEntries(root, syn, opts)
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
	default:
		ds = append(ds, rename(&set, opts.Name, root.pos)...)
	}
	for _, d := range set.Validate() {
		if !unreadable[d.Server] || strings.HasPrefix(d.Summary, "duplicate") {
			ds = append(ds, d)
		}
	}
	return set, ds
}

// rename gives the one server of set the name the user chose; for several
// servers that is an error.
func rename(set *canonical.Set, name string, at canonical.Pos) canonical.Diagnostics {
	switch {
	case name == "":
	case len(set.Servers) == 1:
		set.Servers[0].Name = name
	case len(set.Servers) > 1:
		d := canonical.Errorf("a name was given for one server, but the input holds %d: %s", len(set.Servers), strings.Join(set.Names(), ", "))
		d.Detail = "leave out --name: each server is named by its key"
		return canonical.Diagnostics{d.At(at)}
	}
	return nil
}
