package all

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/formatstest"
)

// TestEncodeLeavesTheSetAlone: Encode never changes the servers it is
// given, for any client, with any option. An export encodes the same set
// for every client's file: a change one client's encoding made (VS Code
// turning ${VAR} into a prompt input, a bearer token variable folded into
// the headers, an empty extra dropped) would reach the next client's file.
func TestEncodeLeavesTheSetAlone(t *testing.T) {
	set := func() canonical.Set {
		return canonical.Set{Servers: []canonical.Server{
			{Name: "fs", Transport: canonical.Stdio, Command: "npx", Args: []string{"-y", "pkg"},
				Env: map[string]string{"API_KEY": "${API_KEY}", "MODE": "fast"}},
			{Name: "remote", Transport: canonical.HTTP, URL: "https://mcp.example.com/mcp",
				Headers: map[string]string{"X-Team": "${TEAM}"},
				Auth:    canonical.Auth{BearerTokenEnv: "TOKEN", OAuth: &canonical.OAuth{ClientID: "c", Scopes: []string{}}}},
			{Name: "sse", Transport: canonical.SSE, URL: "https://sse.example.com/sse",
				Extra: map[string]map[string]json.RawMessage{
					"vscode": {"inputs": json.RawMessage(`[{"id":"tok","type":"promptString","password":true}]`)},
					"cursor": {},
					"zed":    {"settings": json.RawMessage(`{"a":1}`)},
				}},
		}}
	}
	for _, a := range NewRegistry(Options{}).All() {
		for _, loc := range formats.Locate(a, formatstest.Env) {
			if loc.ReadOnly {
				continue
			}
			for _, opts := range []formats.EncodeOptions{{}, {PromptInputs: true, BridgeRemote: true, OS: "windows"}} {
				given, want := set(), set()
				a.Encode(loc, nil, given, opts)
				if !reflect.DeepEqual(given, want) {
					t.Errorf("%s %s (%+v): Encode changed the set it was given:\n%+v\nwas\n%+v", a.ID(), loc.Path, opts, given, want)
				}
			}
		}
	}
}
