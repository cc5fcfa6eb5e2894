package codex

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/formatstest"
)

// bigConfig is a config.toml with n servers in Codex's own layout (table,
// env sub-table, comments) between other settings, like the corpus files.
func bigConfig(n int) []byte {
	var b strings.Builder
	b.WriteString("# my codex settings\nmodel = \"gpt-5\"\napproval_policy = \"on-request\"\n\n[features]\nhooks = true\n\n")
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			fmt.Fprintf(&b, "# server %d\n[mcp_servers.server-%d]\ncommand = \"npx\" # via npm\nargs = [\"-y\", \"@example/server-%d\"]\nenv_vars = [\"TOKEN_%d\"]\n\n[mcp_servers.server-%d.env]\nMODE = \"fast\"\n\n", i, i, i, i, i)
		} else {
			fmt.Fprintf(&b, "[mcp_servers.server-%d]\nurl = \"https://example.com/%d/mcp\"\nbearer_token_env_var = \"KEY_%d\"\nstartup_timeout_sec = 20\n\n", i, i, i)
		}
	}
	for i := 0; i < n/4; i++ {
		fmt.Fprintf(&b, "[projects.\"/home/u/p%d\"]\ntrust_level = \"trusted\"\n\n", i)
	}
	return []byte(b.String())
}

// BenchmarkDecode200 reads a 200-server config.toml.
func BenchmarkDecode200(b *testing.B) {
	data := bigConfig(200)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		set, ds := Adapter().Decode(userLoc, data)
		if ds.HasErrors() || set.Len() != 200 {
			b.Fatalf("%d servers, %v", set.Len(), ds.Err())
		}
	}
}

// BenchmarkEncodeUnchanged200 is the common sync case: nothing to do.
func BenchmarkEncodeUnchanged200(b *testing.B) {
	data := bigConfig(200)
	set, _ := Adapter().Decode(userLoc, data)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		out, ds := Adapter().Encode(userLoc, data, set, formats.EncodeOptions{})
		if ds.HasErrors() || len(out) != len(data) {
			b.Fatal(ds.Err())
		}
	}
}

// BenchmarkEncodeOneChange200 changes one server's args and adds one: a
// splice, a re-decode and the verification of the whole file.
func BenchmarkEncodeOneChange200(b *testing.B) {
	formatstest.BenchEncodeOneChange(b, Adapter(), userLoc, bigConfig(200))
}

// BenchmarkWriteReadBack1000 is what a plan does with Codex's file: write
// 1,000 servers into it (one changed, one added) and read the result back.
func BenchmarkWriteReadBack1000(b *testing.B) {
	data := bigConfig(1000)
	set, ds := Adapter().Decode(userLoc, data)
	if ds.HasErrors() {
		b.Fatal(ds.Err())
	}
	set.Servers[100].Args = append(set.Servers[100].Args, "--verbose")
	set.Put(canonical.Server{Name: "new", Transport: canonical.Stdio, Command: "uvx", Args: []string{"mcp-server-git"}})
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		out, ds := Adapter().Encode(userLoc, data, set, formats.EncodeOptions{})
		if ds.HasErrors() {
			b.Fatal(ds.Err())
		}
		back, ds := Adapter().Decode(userLoc, out)
		if ds.HasErrors() || back.Len() != set.Len() {
			b.Fatalf("read back %d of %d servers: %v", back.Len(), set.Len(), ds.Err())
		}
	}
}
