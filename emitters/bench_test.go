package emitters_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/all"
)

// store200 is a 200-server store: stdio servers with env references and
// remote servers with header references, alternating.
func store200() canonical.Set {
	var set canonical.Set
	for i := range 200 {
		var srv canonical.Server
		switch i % 3 {
		case 0:
			srv = canonical.Server{Name: fmt.Sprintf("stdio-%03d", i), Transport: canonical.Stdio, Command: "npx",
				Args: []string{"-y", fmt.Sprintf("@example/server-%d", i)}, Env: map[string]string{"API_KEY": fmt.Sprintf("${KEY_%d}", i)}}
		case 1:
			srv = canonical.Server{Name: fmt.Sprintf("http-%03d", i), Transport: canonical.HTTP, URL: fmt.Sprintf("https://mcp%d.example.com/mcp", i),
				Headers: map[string]string{"Authorization": fmt.Sprintf("Bearer ${TOKEN_%d}", i)}}
		default:
			srv = canonical.Server{Name: fmt.Sprintf("uvx-%03d", i), Transport: canonical.Stdio, Command: "uvx", Args: []string{fmt.Sprintf("mcp-server-%d", i)}}
		}
		set.Servers = append(set.Servers, srv)
	}
	return set
}

// BenchmarkPlanExport200 plans (reads, decodes, edits, checks; writes
// nothing) an export of a 200-server store to every registered client's
// user file. Half the files exist with a hand-written entry, half are new.
func BenchmarkPlanExport200(b *testing.B) {
	reg := all.NewRegistry(all.Options{})
	home := b.TempDir()
	env := formats.Env{Home: home, ProjectDir: filepath.Join(home, "proj"), OS: "linux", Getenv: func(string) string { return "" }}
	var targets []emitters.Target
	for i, ad := range reg.All() {
		for _, loc := range ad.Locations(env) {
			if loc.Scope != canonical.ScopeUser || loc.ReadOnly {
				continue
			}
			if i%2 == 0 {
				// An existing file with the user's own server.
				mine := canonical.Set{Servers: []canonical.Server{{Name: "mine", Transport: canonical.Stdio, Command: "uvx", Args: []string{"mcp-server-git"}}}}
				data, ds := ad.Encode(loc, nil, mine, formats.EncodeOptions{})
				if ds.HasErrors() {
					b.Fatalf("%s: %v", ad.ID(), ds.Err())
				}
				os.MkdirAll(filepath.Dir(loc.Path), 0o755)
				if err := os.WriteFile(loc.Path, data, 0o600); err != nil {
					b.Fatal(err)
				}
			}
			targets = append(targets, emitters.Target{Adapter: ad, Location: loc})
			break
		}
	}
	if len(targets) == 0 {
		b.Skip("no client adapter is registered yet")
	}
	servers := store200()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		p := emitters.PlanExport(targets, emitters.ExportOptions{Servers: servers})
		if err := p.Err(); err != nil {
			b.Fatal(err)
		}
		if len(p.Changes()) != len(targets) {
			b.Fatalf("%d changes for %d targets", len(p.Changes()), len(targets))
		}
	}
	b.ReportMetric(float64(len(targets)), "clients")
}
