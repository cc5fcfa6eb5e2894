package engine_test

import (
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/engine"
)

// TestScopeServers: each scope keeps its own servers, local ones without
// their binding; a set all of one scope is kept as it is (no copy of
// 10,000 servers), and neither an append to what is returned nor the
// local scope's unbinding reaches the set given.
func TestScopeServers(t *testing.T) {
	set := canonical.Set{Servers: make([]canonical.Server, 0, 8)}
	set.Servers = append(set.Servers,
		canonical.Server{Name: "a", Command: "a"},
		canonical.Server{Name: "b", Command: "b"},
		canonical.Server{Name: "here", Command: "h", Project: "/p"},
		canonical.Server{Name: "there", Command: "t", Project: "/q"})
	names := func(s canonical.Set) string { return strings.Join(s.Names(), ",") }

	if got := engine.ScopeServers(set, canonical.ScopeProject, "/p"); names(got) != "a,b" {
		t.Errorf("project scope: %s", names(got))
	}
	local := engine.ScopeServers(set, canonical.ScopeLocal, "/p")
	if names(local) != "here" || local.Servers[0].Project != "" {
		t.Errorf("local scope: %s %+v", names(local), local.Servers)
	}
	if set.Servers[2].Project != "/p" {
		t.Error("the local scope unbound the server of the set given")
	}

	user := canonical.Set{Servers: set.Servers[:2]} // all of the user scope, with room after it
	got := engine.ScopeServers(user, canonical.ScopeUser, "/p")
	if names(got) != "a,b" || &got.Servers[0] != &user.Servers[0] {
		t.Errorf("user scope: %s, a copy: %v", names(got), &got.Servers[0] != &user.Servers[0])
	}
	got.Servers = append(got.Servers, canonical.Server{Name: "new"})
	if set.Servers[2].Name != "here" {
		t.Errorf("an append to the scope's set wrote into the set given: %q", set.Servers[2].Name)
	}
}
