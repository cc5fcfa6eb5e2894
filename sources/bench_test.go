package sources

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/store"
)

// BenchmarkReadJSONDir reads a source of 200 per-server JSON files, stdio
// and remote alternating, with the no-secrets rule: the work of one pull
// after the fetch.
func BenchmarkReadJSONDir(b *testing.B) {
	root := b.TempDir()
	os.MkdirAll(filepath.Join(root, "mcp"), 0o755)
	for i := range 200 {
		var text string
		if i%2 == 0 {
			text = fmt.Sprintf(`{"command": "npx", "args": ["-y", "@acme/server-%d"], "env": {"TOKEN_%d": "${TOKEN_%d}", "LOG_LEVEL": "info"}}`, i, i, i)
		} else {
			text = fmt.Sprintf(`{"type": "http", "url": "https://mcp%d.acme.example/mcp", "headers": {"Authorization": "Bearer ${KEY_%d}"}}`, i, i)
		}
		os.WriteFile(filepath.Join(root, "mcp", fmt.Sprintf("server-%03d.json", i)), []byte(text), 0o644)
	}
	b.ReportAllocs()
	for b.Loop() {
		set, ds := Read(root, "mcp")
		if ds.HasErrors() || set.Len() != 200 {
			b.Fatal(set.Len(), ds)
		}
	}
}

// BenchmarkReadHCL reads a source mcpsync.hcl of 200 servers.
func BenchmarkReadHCL(b *testing.B) {
	var sb strings.Builder
	for i := range 200 {
		fmt.Fprintf(&sb, "server \"s%d\" {\n  command = \"npx\"\n  args    = [\"-y\", \"@acme/server-%d\"]\n  env     = { TOKEN = env(\"TOKEN_%d\"), TIER = env(\"TIER\", \"gold\") }\n}\n\n", i, i, i)
	}
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		set, ds := ReadHCL("/src/mcpsync.hcl", data)
		if ds.HasErrors() || set.Len() != 200 {
			b.Fatal(set.Len(), ds)
		}
	}
}

// BenchmarkInEffect is what every export adds for a source of 200
// approved servers: the approval check and the qualified copies.
func BenchmarkInEffect(b *testing.B) {
	r, _ := LoadRecords(b.TempDir())
	src := store.Source{Name: "acme", Git: "g"}
	var set canonical.Set
	for i := range 200 {
		set.Servers = append(set.Servers, canonical.Server{Name: fmt.Sprintf("s%d", i), Transport: canonical.Stdio,
			Command: "npx", Args: []string{"-y", fmt.Sprintf("@acme/s%d", i)}, Env: map[string]string{"T": "${T}"}})
	}
	now := time.Now()
	r.Update(src, "c", set, now)
	for _, s := range set.Servers {
		r.Approve("acme", s.Name, now)
	}
	b.ReportAllocs()
	for b.Loop() {
		if n := len(r.InEffect(src)); n != 200 {
			b.Fatal(n)
		}
	}
}
