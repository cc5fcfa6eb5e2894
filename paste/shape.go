package paste

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
)

// An entry is one server found in the paste, before it is read.
type entry struct {
	name    string
	namePos canonical.Pos
	val     *node
	// client is the client the surrounding shape identifies for certain
	// ("opencode" for "mcp", "codex" for TOML, ...); "" when the shape is
	// shared by many clients (mcpServers) or absent (a bare map).
	client string
}

// shapesHelp is what the user can paste, for the "no servers found" error.
const shapesHelp = `paste one of: {"mcpServers": {…}}, {"servers": {…}} (VS Code), {"mcp": {…}} (OpenCode), ` +
	`{"context_servers": {…}} (Zed), [mcp_servers.NAME] tables (Codex TOML), a map of servers ` +
	`{"name": {"command": …}}, or a single server object with a name (--name)`

// findEntries locates the servers in a parsed document, whatever shape the
// user pasted.
func findEntries(root *node, syn syntax, opts Options) ([]entry, canonical.Diagnostics) {
	name := opts.Name
	// The client a shape several clients share stands for: the one named,
	// else the one whose files are in that syntax (Codex writes TOML;
	// Continue's and Goose's YAML files are told apart by their keys).
	defaultClient := opts.Client
	switch {
	case defaultClient != "":
	case syn == synTOML:
		defaultClient = "codex"
	case syn == synYAML:
		defaultClient = "continue"
	}
	toml := syn == synTOML || syn == synYAML
	switch root.kind {
	case kArray:
		return listEntries(root, defaultClient, "the list")
	case kObject:
	default:
		d := canonical.Errorf("expected an object of MCP servers, found %s", root.describe())
		d.Detail = shapesHelp
		return nil, canonical.Diagnostics{d.At(root.pos)}
	}

	var out []entry
	var ds canonical.Diagnostics
	found := false
	for _, m := range root.members {
		client, isWrapper := known().wrappers[m.key]
		switch {
		case m.key == "mcp" && m.val.kind == kObject:
			found = true
			if inner := m.val.get("servers"); inner != nil && inner.kind == kObject {
				es, d := mapEntries(inner, "vscode", `"mcp.servers"`, m.keyPos) // VS Code settings.json
				out, ds = append(out, es...), append(ds, d...)
				continue
			}
			es, d := mapEntries(m.val, "opencode", `"mcp"`, m.keyPos)
			out, ds = append(out, es...), append(ds, d...)
		case m.key == "projects" && m.val.kind == kObject && hasProjectServers(m.val):
			// ~/.claude.json: servers per project directory
			found = true
			for _, p := range m.val.members {
				if servers := p.val.get("mcpServers"); servers != nil {
					es, d := mapEntries(servers, "claude-code", fmt.Sprintf("projects[%q].mcpServers", p.key), p.keyPos)
					out, ds = append(out, es...), append(ds, d...)
				}
			}
		case isWrapper:
			found = true
			if client == "" && root.has("projects") && opts.Client == "" {
				client = "claude-code" // the top level of ~/.claude.json
			}
			if client == "" && (toml || opts.Client != "") {
				client = defaultClient
			}
			es, d := mapEntries(m.val, client, `"`+m.key+`"`, m.keyPos)
			out, ds = append(out, es...), append(ds, d...)
		}
	}
	if found {
		return dedupeProjects(out), ds
	}

	if looksLikeServer(root) {
		n := name
		if n == "" {
			if v := root.get("name"); v != nil && v.kind == kString {
				n = v.text
			}
		}
		if n == "" {
			d := canonical.Errorf("this is a single server without a name")
			d.Detail = "give it one with --name NAME, or paste it as {\"NAME\": {…}}"
			return nil, canonical.Diagnostics{d.At(root.pos)}
		}
		return []entry{{name: n, namePos: root.pos, val: root, client: defaultClient}}, nil
	}

	servers := 0
	for _, m := range root.members {
		if m.val.kind != kObject {
			servers = -1
			break
		}
		if looksLikeServer(m.val) {
			servers++
		}
	}
	if servers <= 0 {
		d := canonical.Errorf("no MCP servers found")
		d.Detail = shapesHelp
		return nil, canonical.Diagnostics{d.At(root.pos)}
	}
	return mapEntries(root, defaultClient, "the map", root.pos)
}

// mapEntries reads {"name": {…}, …}. A list is accepted too, each element
// carrying its "name" (Continue's shape).
func mapEntries(obj *node, client, where string, at canonical.Pos) ([]entry, canonical.Diagnostics) {
	switch obj.kind {
	case kArray:
		return listEntries(obj, client, where)
	case kObject:
	default:
		d := canonical.Errorf("%s must be an object that maps server names to servers, not %s", where, obj.describe())
		return nil, canonical.Diagnostics{d.At(obj.pos)}
	}
	if len(obj.members) == 0 {
		d := canonical.Errorf("%s holds no servers", where)
		d.Detail = "add at least one server, for example \"github\": {\"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-github\"]}"
		return nil, canonical.Diagnostics{d.At(at)}
	}
	out := make([]entry, 0, len(obj.members))
	for _, m := range obj.members {
		out = append(out, entry{name: m.key, namePos: m.keyPos, val: m.val, client: client})
	}
	return out, nil
}

func listEntries(arr *node, client, where string) ([]entry, canonical.Diagnostics) {
	var out []entry
	var ds canonical.Diagnostics
	if len(arr.elems) == 0 {
		d := canonical.Errorf("%s holds no servers", where)
		return nil, canonical.Diagnostics{d.At(arr.pos)}
	}
	for i, el := range arr.elems {
		nm := el.get("name")
		if el.kind != kObject || nm == nil || nm.kind != kString {
			d := canonical.Errorf("element %d of %s is not a server with a \"name\"", i, where)
			d.Detail = `in a list, each server is an object with a "name" key`
			ds = append(ds, d.At(el.pos))
			continue
		}
		out = append(out, entry{name: nm.text, namePos: nm.pos, val: el, client: client})
	}
	return out, ds
}

func hasProjectServers(projects *node) bool {
	for _, p := range projects.members {
		if p.val.has("mcpServers") {
			return true
		}
	}
	return false
}

// dedupeProjects drops a server that ~/.claude.json lists again, unchanged,
// in another project: it is one server, not a conflict. Different servers of
// the same name stay, and validation reports them.
func dedupeProjects(es []entry) []entry {
	count := make(map[string]int, len(es))
	for _, e := range es {
		count[e.name]++
	}
	seen := map[string]string{}
	out := es[:0]
	for _, e := range es {
		if count[e.name] == 1 {
			out = append(out, e)
			continue
		}
		sig := string(e.val.json())
		if prev, ok := seen[e.name]; ok && prev == sig {
			continue
		}
		if _, ok := seen[e.name]; !ok {
			seen[e.name] = sig
		}
		out = append(out, e)
	}
	return out
}

// serverKeys are the keys that make an object a server rather than a map of
// them, with the kinds of value a server gives them (OpenCode's top-level
// "command" is an object of custom commands, not a server).
var serverKeys = []struct {
	key   string
	kinds []kind
}{
	{"command", []kind{kString, kArray}},
	{"url", []kind{kString}},
	{"serverUrl", []kind{kString}},
	{"httpUrl", []kind{kString}},
	{"cmd", []kind{kString}},
	{"uri", []kind{kString}},
}

func looksLikeServer(obj *node) bool {
	for _, k := range serverKeys {
		if v := obj.get(k.key); v != nil && slices.Contains(k.kinds, v.kind) {
			return true
		}
	}
	if c := obj.get("command"); c != nil && c.kind == kObject && c.has("path") { // Zed's legacy shape
		return true
	}
	if t := obj.get("transport"); t != nil && t.kind == kObject {
		return true
	}
	if t := obj.get("type"); t != nil && t.kind == kString {
		_, ok := known().spellings[strings.ToLower(t.text)]
		return ok
	}
	return false
}
