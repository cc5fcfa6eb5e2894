package store

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/mcpsync/mcpsync/internal/mapkeys"
)

// decodedBothWays decodes src as decodeFile does, once with the servers
// decoded side by side whatever their number (from one server block on)
// and once in turn, and fails t unless the two stores and their
// diagnostics are the same.
func decodedBothWays(t *testing.T, src []byte) {
	t.Helper()
	aside, inTurn := newStore("s.hcl"), newStore("s.hcl")
	dsAside := decodeFileIn(aside, src, 1)
	dsInTurn := decodeFileIn(inTurn, src, math.MaxInt)
	if !reflect.DeepEqual(dsAside, dsInTurn) {
		t.Fatalf("diagnostics side by side:\n%v\nin turn:\n%v", dsAside, dsInTurn)
	}
	if !reflect.DeepEqual(aside, inTurn) {
		t.Fatalf("the store decoded side by side differs:\n%#v\nin turn:\n%#v", aside.Servers, inTurn.Servers)
	}
}

// FuzzDecodeServersAside: whatever the text, a store whose servers are
// decoded side by side is the store decoded in turn, with the very same
// diagnostics.
func FuzzDecodeServersAside(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.hcl")
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{exampleStore, manyServers(6), plainServers(5),
		"server \"a\" {\n  command = \"x\"\n}\nserver \"a\" {\n  command = \"y\"\n}\n",                  // the same name twice
		"server \"a\" {\n  args = [env(1)]\n}\nserver \"b\" {\n  args = [env(\"1X\")]\n}\n",             // errors, and what follows them
		"x = 1\nserver \"a\" {\n  command = \"x\"\n}\n",                                                 // a problem before the servers
		"client \"c\" {\n  include = 1\n}\nserver \"a\" {\n  command = \"x\"\n  disabled = \"no\"\n}\n", // a client's problem, then a server's
		"server \"a\" {\n  command = \"x\"\n  extra \"z\" {\n    k = 1\n  }\n  extra \"z\" {\n    k = 2\n  }\n}\n",
		"server \"a\" {\n  url = \"https://x\"\n  oauth {\n    callback_port = 70000\n  }\n}\nserver \"b\" {\n  url = \"https://y\"\n}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 32<<10 {
			return
		}
		decodedBothWays(t, src)
	})
}

// TestDecodeServersAsideLargeStore: a large clean store is decoded side by
// side (the fuzzer's inputs mostly are not), to the store decoded in turn.
func TestDecodeServersAsideLargeStore(t *testing.T) {
	src := []byte(manyServers(asideFrom + 10))
	f, diags := hclsyntax.ParseConfig(src, "s.hcl", hcl.InitialPos)
	content, cdiags := f.Body.Content(rootSchema)
	if diags.HasErrors() || cdiags.HasErrors() {
		t.Fatal(diags, cdiags)
	}
	if countServerBlocks(content.Blocks) < asideFrom {
		t.Fatalf("%d server blocks: the store is decoded in turn", countServerBlocks(content.Blocks))
	}
	if decodeServersAside("s.hcl", content.Blocks) == nil {
		t.Fatal("a clean store was not decoded side by side")
	}
	decodedBothWays(t, src)
}

// TestDecodeServersAsideGivesUpOnAProblem: one server with a problem among
// many: nothing is taken from the side-by-side decode, and the store and its
// diagnostics are those of the decode in turn.
func TestDecodeServersAsideGivesUpOnAProblem(t *testing.T) {
	src := []byte(plainServers(asideFrom) + "server \"bad\" {\n  command = 1\n  args = [env(\"1X\")]\n}\n" + plainServers(3))
	f, _ := hclsyntax.ParseConfig(src, "s.hcl", hcl.InitialPos)
	content, _ := f.Body.Content(rootSchema)
	if decodeServersAside("s.hcl", content.Blocks) != nil {
		t.Fatal("a store with a problem was decoded side by side")
	}
	decodedBothWays(t, src)
}

// BenchmarkDecodeStore10000 decodes a generated store of 10,000 servers
// (parse included) as the first run after an edit does, its servers side
// by side, alternating with the same decode in turn: x-in-turn is the
// first's time over the second's.
//
//	go test ./store -run '^$' -bench DecodeStore10000 -benchtime 10x
func BenchmarkDecodeStore10000(b *testing.B) {
	src := generateStore(10000)
	var aside, inTurn time.Duration
	for b.Loop() {
		for _, way := range []struct {
			from int
			took *time.Duration
		}{{asideFrom, &aside}, {math.MaxInt, &inTurn}} {
			s := newStore(FileName)
			t := time.Now()
			if ds := decodeFileIn(s, src, way.from); ds.HasErrors() || s.Servers.Len() != 10000 {
				b.Fatalf("%d servers, %v", s.Servers.Len(), ds)
			}
			*way.took += time.Since(t)
		}
	}
	b.ReportMetric(float64(aside.Microseconds())/1000/float64(b.N), "ms-aside")
	b.ReportMetric(float64(inTurn.Microseconds())/1000/float64(b.N), "ms-in-turn")
	b.ReportMetric(float64(aside)/float64(inTurn), "x-in-turn")
}

// TestUnknownFunctionSuggestionIsStable: a call to a function the store
// does not have gets the same suggestion every time. HCL suggests the
// first close name in a map's order: int() was "Did you mean "env"?"
// one time and "input" the next, env and input being as close to it.
func TestUnknownFunctionSuggestionIsStable(t *testing.T) {
	src := []byte("server \"a\" {\n  command = \"x\"\n  args    = [int(\"1\")]\n}\n")
	seen := map[string]bool{}
	for range 64 {
		for _, d := range decodeFileIn(newStore("s.hcl"), src, math.MaxInt) {
			if d.Summary == "Call to unknown function" {
				seen[d.Detail] = true
			}
		}
	}
	want := `There is no function named "int". Did you mean "env"?`
	if len(seen) != 1 || !seen[want] {
		t.Errorf("details %q, want only %q", mapkeys.Sorted(seen), want)
	}
}
