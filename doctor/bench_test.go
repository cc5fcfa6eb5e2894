package doctor

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/all"
)

// BenchmarkRunEveryClient20 checks a home where every registered client
// has a user file with 20 servers, and a store of the same 20: all the
// file checks, duplicates and drift.
func BenchmarkRunEveryClient20(b *testing.B) {
	home := b.TempDir()
	reg := all.NewRegistry(all.Options{})
	env := formats.Env{Home: home, ProjectDir: filepath.Join(home, "p"), OS: "linux", Getenv: func(string) string { return "" }}
	var set canonical.Set
	var store strings.Builder
	for i := range 20 {
		set.Servers = append(set.Servers, canonical.Server{Name: fmt.Sprintf("s%02d", i), Transport: canonical.Stdio, Command: "npx",
			Args: []string{"-y", fmt.Sprintf("@example/server-%d", i)}, Env: map[string]string{"TOKEN": fmt.Sprintf("${TOKEN_%d}", i)}})
		fmt.Fprintf(&store, "server \"s%02d\" {\n  command = \"npx\"\n  args = [\"-y\", \"@example/server-%d\"]\n  env = { TOKEN = env(\"TOKEN_%d\") }\n}\n", i, i, i)
	}
	files := 0
	for _, ad := range reg.All() {
		for _, loc := range ad.Locations(env) {
			if loc.Scope != canonical.ScopeUser || loc.ReadOnly {
				continue
			}
			data, ds := ad.Encode(loc, nil, set, formats.EncodeOptions{OS: "linux"})
			if ds.HasErrors() {
				b.Fatal(ds.Err())
			}
			os.MkdirAll(filepath.Dir(loc.Path), 0o755)
			os.WriteFile(loc.Path, data, 0o600)
			files++
			break
		}
	}
	storePath := filepath.Join(home, "mcpsync.hcl")
	os.WriteFile(storePath, []byte(store.String()), 0o600)
	o := Options{Registry: reg, Env: env, LookupEnv: func(string) (string, bool) { return "x", true },
		Stores: []StoreFile{{Path: storePath, Scope: canonical.ScopeUser}}}
	b.ReportAllocs()
	for b.Loop() {
		if r := Run(o); r.HasErrors() {
			b.Fatal(r.Findings)
		}
	}
	b.ReportMetric(float64(files), "files")
}
