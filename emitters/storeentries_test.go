package emitters

import (
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
)

// TestExportSharesTheStoreServersSnapshots: every file's entry of a store
// server, and its sync base, hold the one snapshot made for it, and the
// state saved from them is the one NewEntry would have made.
func TestExportSharesTheStoreServersSnapshots(t *testing.T) {
	sb := newSandbox(t)
	a, b := lineAdapter{id: "one"}, lineAdapter{id: "two"}
	servers := []canonical.Server{stdio("gh", "npx", "-y", "gh"), {Name: "web", Transport: canonical.HTTP, URL: "https://e.com/mcp"}}
	p := sb.plan([]Target{sb.target(a, ""), sb.target(b, "")}, servers, nil)
	if err := p.Err(); err != nil {
		t.Fatal(err)
	}
	for _, srv := range servers {
		base := p.stored.of(srv.Name)
		if base == nil || base.Hash != sb.st.NewEntry("", srv, base.At).Hash {
			t.Fatalf("%s: store entry %+v", srv.Name, base)
		}
		for _, fc := range p.Files {
			e := fc.Targets[0].manage[srv.Name]
			if e == nil || e.Server != base.Server || e.Hash != base.Hash || e.Client != fc.Targets[0].Client {
				t.Errorf("%s in %s: entry %+v does not share the store server's snapshot %p", srv.Name, fc.Path, e, base.Server)
			}
		}
	}
	sb.applyWith(p, ApplyOptions{}) // reloads the state from the disk
	for _, srv := range servers {
		e := sb.st.Base("/store.hcl", srv.Name)
		if e == nil || !e.Holds(srv) || e.At.IsZero() || e.Client != "" {
			t.Errorf("%s: base %+v", srv.Name, e)
		}
	}
	if p.stored.of("nobody") != nil {
		t.Error("an entry for a name the store does not hold")
	}
}

// TestStoreServerNotHeldAsWrittenGetsItsOwnSnapshot: a client that reads
// a server back other than the store says it (the fake one drops env)
// records what it reads, not the store's snapshot.
func TestStoreServerNotHeldAsWrittenGetsItsOwnSnapshot(t *testing.T) {
	sb := newSandbox(t)
	srv := stdio("gh", "npx")
	srv.Env = map[string]string{"TOKEN": "${TOKEN}"}
	st := newStoreEntries(sb.st, (&canonical.Set{Servers: []canonical.Server{srv}}).Indexed())
	read := stdio("gh", "npx")
	e := st.entry("one", read)
	if e.Server == st.of("gh").Server || !e.Holds(read) || e.Holds(srv) {
		t.Fatalf("entry of a different server %+v shares the store's snapshot", e)
	}
	if same := st.entry("two", srv); same.Server != st.of("gh").Server {
		t.Fatal("the store's own server does not share its snapshot")
	}
}
