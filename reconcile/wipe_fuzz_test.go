package reconcile

import (
	"os"
	"slices"
	"testing"

	"github.com/mcpsync/mcpsync/store"
)

// wipeClients are clients of every kind of file: a JSON wrapper, Claude
// Code's ~/.claude.json, Codex's TOML and Goose's YAML.
var wipeClients = []string{"claude-desktop", "claude-code", "codex", "goose", "cursor"}

// wipeRewrites are what a client that rewrites its own file may leave of
// it: the server section gone, the file emptied of servers, replaced by
// another document, or (for the writers' sake) the file removed.
var wipeRewrites = map[string][]string{
	"claude-desktop": {`{"globalShortcut": "Ctrl+Space"}`, `{"mcpServers": {}}`, `{}`, ""},
	"claude-code":    {`{"numStartups": 9}`, `{"mcpServers": {}, "projects": {}}`, `{}`, ""},
	"codex":          {"model = \"gpt-5\"\n", "[mcp_servers]\n", "# emptied\n", ""},
	"goose":          {"GOOSE_MODEL: gpt-4o\n", "extensions: {}\n", "{}\n", ""},
	"cursor":         {`{"mcpServers": {}}`, `{"other": true}`, `{}`, ""},
}

// FuzzWipe checks the wipe property of sync on real files: whatever
// sequence of syncs, write-backs and client rewrites that drop a whole
// server section the input describes, no server ever leaves the store.
// Every input runs whole syncs on real files, so CI gives it fewer inputs:
// ci-fuzztime: 2000x
func FuzzWipe(f *testing.F) {
	for _, seed := range [][]byte{
		{},
		{0, 1, 0},
		{0, 1, 0, 0, 2, 1, 0, 0},
		{2, 0, 0, 1, 3, 1, 1, 0, 0, 1, 2, 2, 0, 0},
		{1, 4, 0, 0, 1, 4, 1, 0, 1, 0, 2, 0, 2, 3, 0},
		{0, 0, 0, 0, 1, 0, 3, 0, 0, 1},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 24 {
			return
		}
		sb := newSandbox(t, `server "memory" {
  command = "npx"
  args    = ["-y", "@modelcontextprotocol/server-memory"]
}

server "fetch" {
  command = "uvx"
  args    = ["mcp-server-fetch"]
}
`, wipeClients...)
		want := storeNames(t, sb.store)
		sb.sync(nil, wipeClients...)
		r := &fuzzReader{data: data}
		for len(r.data) > 0 {
			client := wipeClients[r.next(len(wipeClients))]
			switch r.next(4) {
			case 0: // the client rewrites its file without its servers
				rw := wipeRewrites[client]
				if v := rw[r.next(len(rw))]; v == "" {
					os.Remove(sb.path(client))
				} else {
					sb.write(sb.path(client), v)
				}
			case 1: // a plain sync
				sb.sync(nil)
			case 2: // a sync that names the client (its file is created)
				sb.sync(nil, client)
			case 3: // the user removes a server from the store (not the
				// last: an empty store is one being written, and is filled
				// again from the clients)
				if len(want) > 1 {
					name := want[r.next(len(want))]
					st, _ := store.Load(sb.store)
					st.Remove(name)
					sb.write(sb.store, string(st.Bytes()))
					want = slices.DeleteFunc(want, func(n string) bool { return n == name })
				}
			}
			if got := storeNames(t, sb.store); !slices.Equal(got, want) {
				t.Fatalf("the store lost servers to client rewrites: should hold %v, holds %v", want, got)
			}
		}
		sb.sync(nil)
		if got := storeNames(t, sb.store); !slices.Equal(got, want) {
			t.Fatalf("the store lost servers to client rewrites: should hold %v, holds %v", want, got)
		}
	})
}

func storeNames(t *testing.T, path string) []string {
	t.Helper()
	st, ds := store.Load(path)
	if ds.HasErrors() {
		t.Fatalf("store: %v", ds)
	}
	return st.Servers.Names()
}
