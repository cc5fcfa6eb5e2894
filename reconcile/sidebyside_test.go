package reconcile

import (
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/ledger"
)

// TestMergedSideBySideIsTheSamePlan: a sync that merges its servers on
// every processor (premergeBatch) plans exactly what the same sync plans
// merging them one after another: the same outcomes, conflicts, settled
// names, diffs, problems and records, in the same order. The sync below
// has every kind of verdict, in batches of mergeBatch and across them:
// servers unchanged, edited in the store, edited in one client, edited in
// both (a conflict, and one taken with --take), removed from the store or
// from a client, and new in a client.
func TestMergedSideBySideIsTheSamePlan(t *testing.T) {
	var src strings.Builder
	n := mergeBatch + 300
	for i := range n {
		fmt.Fprintf(&src, "server \"s%04d\" {\n  command = \"npx\"\n  args    = [\"-y\", \"pkg-%d\"]\n  env     = { TOKEN = env(\"TOKEN_%d\") }\n}\n\n", i, i, i)
	}
	clients := []string{"cursor", "gemini", "vscode", "codex"}
	sb := newSandbox(t, src.String(), clients...)
	sb.write(sb.path("cursor"), `{"mcpServers": {}}`)
	sb.write(sb.path("gemini"), `{"mcpServers": {}}`)
	sb.write(sb.path("vscode"), `{"servers": {}}`)
	sb.write(sb.path("codex"), "model = \"o3\"\n")
	sb.sync(nil)

	// The store: every 7th server edited, every 11th removed.
	store := sb.read(sb.store)
	for i := 0; i < n; i += 7 {
		store = strings.Replace(store, fmt.Sprintf("\"pkg-%d\"]", i), fmt.Sprintf("\"pkg-%d\", \"--store-edit\"]", i), 1)
	}
	for i := 5; i < n; i += 11 {
		block := fmt.Sprintf("server \"s%04d\" {\n  command = \"npx\"\n  args    = [\"-y\", \"pkg-%d\"]\n  env     = { TOKEN = env(\"TOKEN_%d\") }\n}\n\n", i, i, i)
		if !strings.Contains(store, block) {
			continue // edited above
		}
		store = strings.Replace(store, block, "", 1)
	}
	sb.write(sb.store, store)
	// Cursor: every 5th server edited (with every 35th also edited in the
	// store: a conflict), every 13th removed, and new servers.
	var cursor struct {
		MCPServers map[string]map[string]any `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(sb.read(sb.path("cursor"))), &cursor); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i += 5 {
		if e := cursor.MCPServers[fmt.Sprintf("s%04d", i)]; e != nil {
			e["args"] = []string{"-y", fmt.Sprintf("pkg-%d", i), "--cursor-edit"}
		}
	}
	for i := 3; i < n; i += 13 {
		delete(cursor.MCPServers, fmt.Sprintf("s%04d", i))
	}
	for i := range 40 {
		cursor.MCPServers[fmt.Sprintf("new-%03d", i)] = map[string]any{"command": "uvx", "args": []string{fmt.Sprintf("new-%d", i)}}
	}
	data, _ := json.MarshalIndent(cursor, "", "  ")
	sb.write(sb.path("cursor"), string(data))

	take := map[string]string{"s0070": "cursor", "s0700": StoreSide}
	plan := func(from int) (*Result, *ledger.State) {
		defer func(was int) { parallelMergeFrom = was }(parallelMergeFrom)
		parallelMergeFrom = from
		// Workers side by side even on a machine of one processor.
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
		return sb.plan(take)
	}
	alone, stAlone := plan(1 << 30)
	side, stSide := plan(1)
	if len(alone.Outcomes) < 100 || len(alone.Conflicts) == 0 || len(alone.Settled) == 0 {
		t.Fatalf("the sync has too little in it to compare: %d outcomes, %d conflicts, %d settled",
			len(alone.Outcomes), len(alone.Conflicts), len(alone.Settled))
	}
	for _, c := range []struct {
		what        string
		alone, side any
	}{
		{"outcomes", alone.Outcomes, side.Outcomes},
		{"conflicts", alone.Conflicts, side.Conflicts},
		{"settled", alone.Settled, side.Settled},
		{"skipped", alone.Skipped, side.Skipped},
		{"problems", alone.Plan.Diags, side.Plan.Diags},
		{"diff", alone.Plan.Diff(emitters.DiffOptions{}), side.Plan.Diff(emitters.DiffOptions{})},
		{"names", alone.names, side.names},
		{"records", len(alone.clients), len(side.clients)},
	} {
		if !reflect.DeepEqual(c.alone, c.side) {
			t.Errorf("%s differ: one after another\n%v\nside by side\n%v", c.what, c.alone, c.side)
		}
	}
	at := time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)
	alone.Record(stAlone, at)
	side.Record(stSide, at)
	a, _ := json.Marshal(stAlone)
	s, _ := json.Marshal(stSide)
	if string(a) != string(s) {
		t.Error("the ledgers recorded differ")
	}
}
