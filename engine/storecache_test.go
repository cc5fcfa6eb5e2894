package engine_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/internal/parsecache"
)

// TestStoreEditLeavesItsParseCached: after an edit of the store (disable,
// enable, add, remove), the parse cache holds the store as written, so the
// next run reads it from there instead of parsing it. A project's store
// was checked against its earlier version for new secrets after the
// edited version was parsed and kept: the earlier version's parse took
// its place, and every run after an edit parsed the store again (at
// 10,000 servers a fifth of a second, and the next edit three parses).
func TestStoreEditLeavesItsParseCached(t *testing.T) {
	for _, scope := range []canonical.Scope{canonical.ScopeProject, canonical.ScopeUser} {
		t.Run(string(scope), func(t *testing.T) {
			p := newProject(t, 20)
			path := filepath.Join(p.dir, "mcpsync.hcl")
			if scope == canonical.ScopeUser {
				path = filepath.Join(p.home, ".config", "mcpsync", "mcpsync.hcl")
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				data, err := os.ReadFile(filepath.Join(p.dir, "mcpsync.hcl"))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, data, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			cache := parsecache.Open(filepath.Join(p.home, ".cache", "mcpsync", "parsed"))
			cached := func(after string) {
				t.Helper()
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if _, ok := cache.Get("store\x00"+path, data); !ok {
					t.Errorf("after %s, the parse cache does not hold the store as written", after)
				}
			}
			name := p.servers[1].Name
			for _, on := range []bool{false, true} {
				run, err := p.engine().Switch(engine.SwitchOptions{On: on, Scope: scope, Names: []string{name}})
				if err != nil {
					t.Fatal(err)
				}
				if err := run.Apply(); err != nil {
					t.Fatal(err)
				}
				run.Close()
				cached(map[bool]string{false: "disable", true: "enable"}[on])
			}
			srv := canonical.Server{Name: "added", Transport: canonical.Stdio, Command: "npx", Args: []string{"-y", "pkg"}}
			add, err := p.engine().Add(engine.AddOptions{Scope: scope, Servers: []canonical.Server{srv}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := add.Apply(); err != nil {
				t.Fatal(err)
			}
			add.Close()
			cached("add")
			rm, err := p.engine().Remove(scope, []string{"added"})
			if err != nil {
				t.Fatal(err)
			}
			if err := rm.Apply(); err != nil {
				t.Fatal(err)
			}
			rm.Close()
			cached("remove")
		})
	}
}
