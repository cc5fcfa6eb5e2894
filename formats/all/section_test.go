package all

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
)

// sectionSamples are files that hold settings of their own and no server
// map, in each syntax: what a client's settings file looks like before
// mcpsync first writes a server into it.
var sectionSamples = map[formats.Format][]string{
	formats.JSON: {
		"{\n  \"theme\": \"GitHub\"\n}\n",
		"{\"theme\": \"GitHub\", \"vim_mode\": true}",
		"{\n\t\"theme\": \"GitHub\",\n\t\"nested\": {\"a\": 1}\n}\n",
		"{\r\n    \"theme\": \"GitHub\"\r\n}\r\n",
		"{}\n",
		"{}",
		"",
		// Not "{\n}\n": an object emptied again is written {}, whatever
		// blanks it held before its first member.
	},
	formats.JSONComments: {
		"// my settings\n{\n  \"theme\": \"GitHub\" // dark one\n}\n",
		"{\n  /* ui */\n  \"theme\": \"GitHub\"\n}\n",
	},
	formats.JSONC: {
		"// Zed settings\n{\n  \"theme\": \"One Dark\",\n  \"vim_mode\": true,\n}\n",
		"{\n  \"theme\": \"One Dark\", // mine\n  \"ui_font_size\": 16\n}",
	},
	formats.YAML: {
		"",
		"GOOSE_PROVIDER: openai\nGOOSE_MODEL: gpt-4o\n",
		"name: my config\nversion: 0.0.1\nschema: v1\n# the end\n",
		"name: my config\r\nversion: 0.0.1\r\n",
		"theme: dark",
		"models:\n  - name: gpt\n    provider: openai\n",
	},
}

// TestSectionRoundTrip: for every client whose servers sit under keys of a
// larger file, writing a server into a file without those keys and then
// removing it, and the keys that Encode added, gives the file back byte
// for byte; a key the file had is never reported as missing.
func TestSectionRoundTrip(t *testing.T) {
	env := formats.Env{Home: "/home/u", ProjectDir: "/home/u/proj", OS: "linux"}
	srv := canonical.Server{Name: "fetch", Transport: canonical.Stdio, Command: "uvx", Args: []string{"mcp-server-fetch"}}
	tested := map[string]bool{}
	for _, ad := range NewRegistry(Options{}).All() {
		sr, ok := ad.(formats.SectionRemover)
		if !ok {
			continue
		}
		tested[ad.ID()] = true
		for _, loc := range ad.Locations(env) {
			if loc.ReadOnly {
				continue
			}
			samples := append([]string(nil), sectionSamples[loc.Format]...)
			switch loc.Format {
			case formats.JSONC:
				samples = append(samples, sectionSamples[formats.JSONComments]...)
				fallthrough
			case formats.JSONComments:
				samples = append(samples, sectionSamples[formats.JSON]...)
			}
			if loc.Project != "" {
				samples = append(samples,
					"{\n  \"numStartups\": 3,\n  \"projects\": {\n    \"/other\": {\n      \"allowedTools\": []\n    }\n  }\n}\n",
					"{\n  \"projects\": {\n    \"/home/u/proj\": {\n      \"allowedTools\": [],\n      \"hasTrustDialogAccepted\": true\n    }\n  }\n}\n")
			}
			for i, sample := range samples {
				t.Run(fmt.Sprintf("%s/%s/%d", ad.ID(), loc.Scope, i), func(t *testing.T) {
					roundTripSection(t, ad, sr, loc, []byte(sample), srv)
				})
			}
		}
	}
	// Every client whose servers share a file with other settings.
	for _, id := range []string{"amp", "claude-code", "claude-desktop", "continue", "cursor", "gemini", "goose", "opencode", "qwen", "vscode", "zed"} {
		if !tested[id] {
			t.Errorf("%s does not implement formats.SectionRemover", id)
		}
	}
}

func roundTripSection(t *testing.T, ad formats.Adapter, sr formats.SectionRemover, loc formats.Location, orig []byte, srv canonical.Server) {
	if _, ds := ad.Decode(loc, orig); ds.HasErrors() {
		t.Skipf("%s does not read this sample: %v", ad.ID(), ds.Err())
	}
	missing := sr.MissingKeys(loc, orig)
	if missing == 0 {
		t.Fatalf("MissingKeys = 0 for a file without the server map:\n%s", orig)
	}
	with, ds := ad.Encode(loc, orig, canonical.Set{Servers: []canonical.Server{srv}}, formats.EncodeOptions{})
	if ds.HasErrors() {
		t.Fatalf("Encode: %v", ds.Err())
	}
	if got := sr.MissingKeys(loc, with); got != 0 {
		t.Fatalf("MissingKeys after Encode = %d, want 0:\n%s", got, with)
	}
	emptied, ds := ad.Encode(loc, with, canonical.Set{}, formats.EncodeOptions{})
	if ds.HasErrors() {
		t.Fatalf("Encode of no server: %v", ds.Err())
	}
	if got := sr.MissingKeys(loc, emptied); got != 0 {
		t.Fatalf("the emptied map was removed by Encode already (MissingKeys = %d):\n%s", got, emptied)
	}
	// A key the file had is not removed by asking for fewer keys than
	// Encode added, unless it is the innermost: fewer never cuts more.
	back, ds := sr.RemoveEmptyKeys(loc, emptied, missing)
	if ds.HasErrors() {
		t.Fatalf("RemoveEmptyKeys: %v", ds.Err())
	}
	if !bytes.Equal(back, orig) {
		t.Fatalf("connect then disconnect changed the file:\n--- before\n%q\n--- after\n%q", orig, back)
	}
	if got := sr.MissingKeys(loc, back); got != missing {
		t.Fatalf("MissingKeys after removal = %d, want %d", got, missing)
	}
	// The map holding a server is never removed.
	if again, _ := sr.RemoveEmptyKeys(loc, with, missing); !bytes.Equal(again, with) {
		t.Fatalf("RemoveEmptyKeys removed a map that holds a server:\n%s", again)
	}
	// Keys the file had stay, even empty: asked to remove none, nothing goes.
	if again, _ := sr.RemoveEmptyKeys(loc, emptied, 0); !bytes.Equal(again, emptied) {
		t.Fatalf("RemoveEmptyKeys with n=0 changed the file:\n%s", again)
	}
}

// TestSectionKeepsUserContent: an empty server map with a comment in it,
// or keys the path does not need, stays.
func TestSectionKeepsUserContent(t *testing.T) {
	env := formats.Env{Home: "/home/u", ProjectDir: "/home/u/proj", OS: "linux"}
	reg := NewRegistry(Options{})
	for _, c := range []struct {
		client string
		scope  canonical.Scope
		data   string
		n      int
	}{
		{"gemini", canonical.ScopeUser, "{\n  \"theme\": \"x\",\n  \"mcpServers\": {\n    // none yet\n  }\n}\n", 1},
		{"zed", canonical.ScopeUser, "{\n  \"context_servers\": {} // mine\n}\n", 0},
		{"claude-code", canonical.ScopeLocal, "{\n  \"projects\": {\n    \"/home/u/proj\": {\n      \"mcpServers\": {},\n      \"allowedTools\": []\n    }\n  }\n}\n", 0},
		{"goose", canonical.ScopeUser, "GOOSE_MODEL: x\nextensions: {} # mine\n", 1},
		{"goose", canonical.ScopeUser, "GOOSE_MODEL: x\nextensions: {}\n  # keep me\n", 1},
		{"continue", canonical.ScopeUser, "name: x\nmcpServers:\n  - uses: acme/block\n", 1},
	} {
		ad, err := reg.Lookup(c.client)
		if err != nil {
			t.Fatal(err)
		}
		var loc formats.Location
		for _, l := range ad.Locations(env) {
			if l.Scope == c.scope && !l.ReadOnly {
				loc = l
				break
			}
		}
		sr := ad.(formats.SectionRemover)
		if got := sr.MissingKeys(loc, []byte(c.data)); got != 0 {
			t.Errorf("%s: MissingKeys = %d, want 0 for a file that has the map", c.client, got)
		}
		out, ds := sr.RemoveEmptyKeys(loc, []byte(c.data), max(c.n, 1))
		if ds.HasErrors() {
			t.Errorf("%s: %v", c.client, ds.Err())
		}
		if c.client == "claude-code" {
			// mcpServers itself is empty and was asked for: it goes, its
			// project with allowedTools stays.
			if bytes.Contains(out, []byte("mcpServers")) || !bytes.Contains(out, []byte("allowedTools")) {
				t.Errorf("claude-code: got\n%s", out)
			}
			continue
		}
		if !bytes.Equal(out, []byte(c.data)) {
			t.Errorf("%s: a map with the user's content was changed:\n%s", c.client, out)
		}
	}
}

// blanks strips every blank of a text.
func blanks(b []byte) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\r' || r == '\n' {
			return -1
		}
		return r
	}, string(b))
}

// FuzzSectionRoundTrip: for any file a client reads without error and that
// lacks the server map, writing a server, removing it, and removing the
// keys Encode added gives the file back, but for blanks where jsonedit
// cannot tell what there was (inside an object emptied again, before the
// closing brace of a one-line object with a trailing comma); the samples of
// TestSectionRoundTrip hold byte for byte.
func FuzzSectionRoundTrip(f *testing.F) {
	var removers []formats.Adapter
	for _, ad := range NewRegistry(Options{}).All() {
		if _, ok := ad.(formats.SectionRemover); ok {
			removers = append(removers, ad)
		}
	}
	for i, ad := range removers {
		for _, loc := range ad.Locations(formats.Env{Home: "/h", ProjectDir: "/p", OS: "linux"}) {
			for _, s := range sectionSamples[loc.Format] {
				f.Add(uint8(i), false, []byte(s))
			}
			if loc.Project != "" {
				f.Add(uint8(i), true, []byte("{\"projects\": {\"/other\": {}}}"))
			}
		}
	}
	// Inputs the fuzzer found, kept as seeds: a blank file, blanks in
	// CRLF, comments only (one not UTF-8, one with a quote), a one-line
	// object with a trailing comma and a comment after it, a YAML comment
	// yaml.v3 hangs on the next key.
	for _, c := range []struct{ client, data string }{
		{"amazonq", ""}, {"qwen", "\r\n"}, {"gemini", "//\xff"}, {"qwen", "//\xea"}, {"vscode", "//0000000\""},
		{"vscode", "{\"\":\"\", }"}, {"opencode", "{\"\":\"\",//\n}"}, {"continue", "0:  #00\n&0: #00"},
	} {
		for i, ad := range removers {
			if ad.ID() == c.client {
				f.Add(uint8(i), false, []byte(c.data))
			}
		}
	}
	env := formats.Env{Home: "/h", ProjectDir: "/p", OS: "linux"}
	srv := canonical.Server{Name: "fetch", Transport: canonical.Stdio, Command: "uvx", Args: []string{"mcp-server-fetch"}}
	f.Fuzz(func(t *testing.T, which uint8, local bool, data []byte) {
		if len(data) > 16<<10 {
			return
		}
		ad := removers[int(which)%len(removers)]
		sr := ad.(formats.SectionRemover)
		var loc formats.Location
		for _, l := range ad.Locations(env) {
			if !l.ReadOnly && (l.Scope == canonical.ScopeLocal) == local {
				loc = l
				break
			}
		}
		if loc.Path == "" {
			return
		}
		if _, ds := ad.Decode(loc, data); ds.HasErrors() {
			return
		}
		missing := sr.MissingKeys(loc, data)
		if missing == 0 {
			return
		}
		with, ds := ad.Encode(loc, data, canonical.Set{Servers: []canonical.Server{srv}}, formats.EncodeOptions{OS: "linux"})
		if ds.HasErrors() {
			return // refused: nothing written
		}
		if got := sr.MissingKeys(loc, with); got != 0 {
			t.Fatalf("MissingKeys after Encode = %d\n%q", got, with)
		}
		emptied, ds := ad.Encode(loc, with, canonical.Set{}, formats.EncodeOptions{OS: "linux"})
		if ds.HasErrors() {
			t.Fatalf("removing the server: %v", ds.Err())
		}
		back, ds := sr.RemoveEmptyKeys(loc, emptied, missing)
		if ds.HasErrors() {
			t.Fatalf("RemoveEmptyKeys: %v", ds.Err())
		}
		if len(bytes.TrimSpace(data)) == 0 && len(back) == 0 {
			return // a blank file is blank again
		}
		if !bytes.Equal(back, data) && blanks(back) != blanks(data) {
			t.Fatalf("%s: connect then disconnect changed the file\n--- before\n%q\n--- with\n%q\n--- after\n%q", ad.ID(), data, with, back)
		}
	})
}
