package all

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/formatstest"
)

// cursorFile is a Cursor mcp.json with n servers, half stdio with env
// references, half remote with a header.
func cursorFile(n int) []byte {
	var b strings.Builder
	b.WriteString("{\n  \"mcpServers\": {\n")
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		if i%2 == 0 {
			fmt.Fprintf(&b, `    "server-%d": {
      "command": "npx",
      "args": ["-y", "@example/server-%d", "--port", "%d"],
      "env": {"TOKEN_%d": "${env:TOKEN_%d}", "MODE": "fast"}
    }`, i, i, 3000+i, i, i)
		} else {
			fmt.Fprintf(&b, `    "server-%d": {
      "url": "https://example.com/%d/mcp",
      "headers": {"Authorization": "Bearer ${env:KEY_%d}"}
    }`, i, i, i)
		}
	}
	b.WriteString("\n  }\n}\n")
	return []byte(b.String())
}

// BenchmarkConvert1000 decodes a 1,000-server Cursor file and writes it as
// a new file of every other client.
func BenchmarkConvert1000(b *testing.B) {
	reg := NewRegistry(Options{})
	cursor, _ := reg.Lookup("cursor")
	data := cursorFile(1000)
	loc := formatstest.DefaultLocation(cursor)
	var targets []formats.Adapter
	for _, a := range reg.All() {
		if a.ID() != "cursor" {
			targets = append(targets, a)
		}
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		set, diags := cursor.Decode(loc, data)
		if diags.HasErrors() || set.Len() != 1000 {
			b.Fatalf("decode: %d servers, %v", set.Len(), diags.Err())
		}
		for _, a := range targets {
			out, diags := a.Encode(formatstest.DefaultLocation(a), nil, set, formats.EncodeOptions{OS: "linux"})
			if diags.HasErrors() || len(out) == 0 {
				b.Fatalf("%s: %v", a.ID(), diags.Err())
			}
		}
	}
}

// BenchmarkAppend1000 writes 1,000 servers into a Cursor file that
// already holds one of the user's own, beside a comment: each is appended
// to the servers the file has (jsonedit's memberRenderer), not written as
// a new file.
func BenchmarkAppend1000(b *testing.B) {
	reg := NewRegistry(Options{})
	cursor, _ := reg.Lookup("cursor")
	loc := formatstest.DefaultLocation(cursor)
	existing := []byte("{\n  // mine\n  \"mcpServers\": {\n    \"own\": {\"command\": \"x\"}\n  }\n}\n")
	set, _ := cursor.Decode(loc, existing) // the user's own server stays
	added, _ := cursor.Decode(loc, cursorFile(1000))
	set.Servers = append(set.Servers, added.Servers...)
	b.ReportAllocs()
	for b.Loop() {
		out, diags := cursor.Encode(loc, existing, set, formats.EncodeOptions{OS: "linux"})
		if diags.HasErrors() || !strings.Contains(string(out), `"own"`) {
			b.Fatalf("encode: %v", diags.Err())
		}
	}
}

// BenchmarkConvert1000PerClient splits BenchmarkConvert1000: decoding the
// Cursor file, then writing the set as each client.
func BenchmarkConvert1000PerClient(b *testing.B) {
	reg := NewRegistry(Options{})
	cursor, _ := reg.Lookup("cursor")
	data := cursorFile(1000)
	loc := formatstest.DefaultLocation(cursor)
	b.Run("decode-cursor", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			cursor.Decode(loc, data)
		}
	})
	set, _ := cursor.Decode(loc, data)
	for _, a := range reg.All() {
		b.Run("encode-"+a.ID(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				a.Encode(formatstest.DefaultLocation(a), nil, set, formats.EncodeOptions{OS: "linux"})
			}
		})
	}
}

// bigClaudeJSON is a ~/.claude.json of a heavy user: many projects with
// their history and local servers, and user servers at the top.
func bigClaudeJSON(projects, servers int) []byte {
	root := map[string]any{
		"numStartups": 812, "installMethod": "npm", "autoUpdates": true, "userID": strings.Repeat("ab", 32),
	}
	ps := map[string]any{}
	for p := 0; p < projects; p++ {
		var history []any
		for h := 0; h < 20; h++ {
			history = append(history, map[string]any{"display": fmt.Sprintf("fix the failing test number %d in package %d", h, p), "pastedContents": map[string]any{}})
		}
		local := map[string]any{}
		for s := 0; s < 3; s++ {
			local[fmt.Sprintf("local-%d", s)] = map[string]any{"type": "stdio", "command": "node", "args": []string{fmt.Sprintf("/srv/%d/%d.js", p, s)}, "env": map[string]any{}}
		}
		ps[fmt.Sprintf("/home/user/src/project-%03d", p)] = map[string]any{
			"allowedTools": []string{}, "history": history, "mcpServers": local,
			"enabledMcpjsonServers": []string{}, "hasTrustDialogAccepted": true, "lastCost": 1.25,
		}
	}
	root["projects"] = ps
	user := map[string]any{}
	for s := 0; s < servers; s++ {
		user[fmt.Sprintf("user-%03d", s)] = map[string]any{"type": "http", "url": fmt.Sprintf("https://example.com/%d/mcp", s),
			"headers": map[string]string{"Authorization": fmt.Sprintf("Bearer ${KEY_%d}", s)}}
	}
	root["mcpServers"] = user
	out, _ := json.MarshalIndent(root, "", "  ")
	return out
}

// BenchmarkEncodeOneChange edits one user server in a large ~/.claude.json
// (200 projects, 100 user servers): decode, change one url, encode.
func BenchmarkEncodeOneChange(b *testing.B) {
	reg := NewRegistry(Options{})
	a, _ := reg.Lookup("claude-code")
	data := bigClaudeJSON(200, 100)
	loc := formatstest.DefaultLocation(a)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		set, diags := a.Decode(loc, data)
		if diags.HasErrors() || set.Len() != 100 {
			b.Fatalf("decode: %d servers, %v", set.Len(), diags.Err())
		}
		set.Servers[42].URL = "https://example.com/changed/mcp"
		out, diags := a.Encode(loc, data, set, formats.EncodeOptions{OS: "linux"})
		if diags.HasErrors() || len(out) == len(data) {
			b.Fatalf("encode: %v", diags.Err())
		}
	}
}

// BenchmarkNewRegistry is the start-up cost of knowing every client.
func BenchmarkNewRegistry(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if len(NewRegistry(Options{}).All()) == 0 {
			b.Fatal("no clients")
		}
	}
}

// TestBigClaudeJSONOneChange checks what the benchmark measures: only the
// one url moved.
func TestBigClaudeJSONOneChange(t *testing.T) {
	a, _ := NewRegistry(Options{}).Lookup("claude-code")
	data := bigClaudeJSON(20, 10)
	loc := formatstest.DefaultLocation(a)
	set, _ := a.Decode(loc, data)
	set.Servers[4].URL = "https://example.com/changed/mcp"
	out, diags := a.Encode(loc, data, set, formats.EncodeOptions{})
	if len(diags) > 0 {
		t.Fatal(formatstest.FormatDiags(diags))
	}
	old := `"url": "https://example.com/4/mcp"`
	if got := strings.Replace(string(data), old, `"url": "https://example.com/changed/mcp"`, 1); got != string(out) {
		t.Errorf("more than the url changed")
	}
}

// BenchmarkLocate5 asks the five clients of an export to a project where
// they write (formats.Locate), as every command that plans their files
// does: 87 µs and 1,209 allocations when each path was evaluated by HCL,
// 30 µs and 229 with the paths compiled (spec's tmpl).
func BenchmarkLocate5(b *testing.B) {
	reg := NewRegistry(Options{})
	var ads []formats.Adapter
	for _, id := range []string{"claude-code", "cursor", "vscode", "codex", "opencode"} {
		a, _ := reg.Lookup(id)
		ads = append(ads, a)
	}
	env := formats.Env{Home: "/home/u", OS: "linux", ProjectDir: "/home/u/proj", Getenv: func(string) string { return "" }}
	formats.Prepare(ads)
	b.ReportAllocs()
	for b.Loop() {
		for _, a := range ads {
			if len(formats.Locate(a, env)) == 0 {
				b.Fatalf("%s: no location", a.ID())
			}
		}
	}
}
