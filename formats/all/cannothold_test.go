package all

import (
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/formatstest"
)

// heldBack is View without its shortcut: srv encoded alone into a new file
// at loc and read back.
func heldBack(a formats.Adapter, loc formats.Location, srv canonical.Server, opts formats.EncodeOptions) bool {
	srv = srv.Clone()
	srv.Origin = canonical.Pos{}
	data, ds := a.Encode(loc, nil, canonical.Set{Servers: []canonical.Server{srv}}, opts.For(loc))
	if ds.HasErrors() {
		return false
	}
	back, ds := a.Decode(loc, data)
	if ds.HasErrors() {
		return false
	}
	_, ok := back.Get(srv.Name)
	return ok
}

// cannotHoldChecks asks every client that says so (formats.HoldChecker),
// in each of its writable files and with and without the options that
// change what it can write, whether it cannot hold srv; where it says so,
// encoding srv alone and reading it back must lose it. It returns how
// many times a client said so.
func cannotHoldChecks(t *testing.T, srv canonical.Server) (said int) {
	t.Helper()
	for _, a := range NewRegistry(Options{}).All() {
		hc, ok := a.(formats.HoldChecker)
		if !ok {
			continue
		}
		for _, loc := range formats.Locate(a, formatstest.Env) {
			if loc.ReadOnly {
				continue
			}
			for _, opts := range []formats.EncodeOptions{{OS: "linux"}, {OS: "windows", BridgeRemote: true, PromptInputs: true}} {
				if !hc.CannotHold(loc, srv.Clone(), opts.For(loc)) {
					continue
				}
				said++
				if heldBack(a, loc, srv, opts) {
					t.Errorf("%s %s (%+v): CannotHold says it cannot hold %+v, but written alone it reads back", a.ID(), loc.Path, opts, srv)
				}
			}
		}
	}
	return said
}

// TestCannotHoldOnlyWhatIsLost: a client that says it cannot hold a
// server (View's shortcut) loses it when it is written, for servers of
// every transport, with references in every field, names no client or
// some clients refuse, and options on and off. The test fails as well
// if no client ever says so (the shortcut would be dead).
func TestCannotHoldOnlyWhatIsLost(t *testing.T) {
	servers := append(richSet().Servers,
		canonical.Server{Name: "sse-plain", Transport: canonical.SSE, URL: "https://example.com/sse"},
		canonical.Server{Name: "env-ref", Transport: canonical.Stdio, Command: "npx", Args: []string{"-y", "pkg"}, Env: map[string]string{"API_KEY": "${API_KEY}"}},
		canonical.Server{Name: "arg-ref", Transport: canonical.Stdio, Command: "${HOME}/bin/server", Args: []string{"--token", "${TOKEN:-x}"}},
		canonical.Server{Name: "header-ref", Transport: canonical.HTTP, URL: "https://${HOST}/mcp", Headers: map[string]string{"Authorization": "Bearer ${TOKEN}"}},
		canonical.Server{Name: "has space", Transport: canonical.Stdio, Command: "node"},
		canonical.Server{Name: "dotted.name", Transport: canonical.HTTP, URL: "https://example.com/mcp"},
		canonical.Server{Name: "dollar", Transport: canonical.Stdio, Command: "sh", Args: []string{"-c", "echo $HOME"}},
	)
	said := 0
	for _, srv := range servers {
		said += cannotHoldChecks(t, srv)
	}
	if said == 0 {
		t.Fatal("no client ever said it cannot hold a server")
	}
}

// FuzzCannotHold is TestCannotHoldOnlyWhatIsLost for any server.
func FuzzCannotHold(f *testing.F) {
	f.Add("srv", uint8(0), "npx", "-y", "KEY", "${KEY}", "https://example.com/mcp")
	f.Add("s.e", uint8(2), "", "", "X-Key", "Bearer ${T:-d}", "https://${H}/sse")
	f.Add("a b", uint8(1), "${BIN}", "--x=${Y}", "Authorization", "$TOKEN", "http://localhost:8080/mcp")
	f.Fuzz(func(t *testing.T, name string, transport uint8, command, arg, key, value, url string) {
		if name == "" || len(name)+len(command)+len(arg)+len(key)+len(value)+len(url) > 512 {
			return
		}
		srv := canonical.Server{Name: name}
		switch transport % 3 {
		case 0:
			srv.Transport, srv.Command, srv.Args = canonical.Stdio, command, []string{arg}
			if key != "" {
				srv.Env = map[string]string{key: value}
			}
		case 1:
			srv.Transport, srv.URL = canonical.HTTP, url
			if key != "" {
				srv.Headers = map[string]string{key: value}
			}
		default:
			srv.Transport, srv.URL = canonical.SSE, url
		}
		if len(srv.Validate()) > 0 {
			return // not a server a store or a client file can hold
		}
		cannotHoldChecks(t, srv)
	})
}
