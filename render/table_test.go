package render

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/internal/benchgoal"
	"github.com/mcpsync/mcpsync/reconcile"
	"github.com/mcpsync/mcpsync/store"
)

// writes records each Write it is given.
type writes struct {
	calls []string
	all   bytes.Buffer
}

func (w *writes) Write(p []byte) (int, error) {
	w.calls = append(w.calls, string(p))
	return w.all.Write(p)
}

// TestTableWritesWholeLines: a table reaches the stream it writes to in
// whole lines, many at a time, and as text/tabwriter lays it out. It wrote
// each cell and each cell's padding on its own, and each of those writes
// went through the SafeWriter (masking, escaping) and was a write call of
// its own to the terminal or the pipe: a list of 10,000 servers made
// 120,000 of them, a fifth of its time.
func TestTableWritesWholeLines(t *testing.T) {
	const rows = 2000
	var got writes
	tw := NewTable(&got, false)
	fmt.Fprintln(tw, "NAME\tTRANSPORT\tCOMMAND/URL")
	for i := range rows {
		fmt.Fprintf(tw, "server-%d\tstdio\tnpx -y pkg-%d\n", i, i)
	}
	if err := tw.Flush(); err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	fmt.Fprintf(&want, "%-13s%-11s%s\n", "NAME", "TRANSPORT", "COMMAND/URL")
	for i := range rows {
		fmt.Fprintf(&want, "%-13s%-11s%s\n", fmt.Sprintf("server-%d", i), "stdio", fmt.Sprintf("npx -y pkg-%d", i))
	}
	if got.all.String() != want.String() {
		t.Fatalf("the table is laid out differently:\n%s", got.all.String()[:200])
	}
	for i, c := range got.calls {
		if !strings.HasSuffix(c, "\n") {
			t.Fatalf("write %d of %d is not whole lines: %q", i, len(got.calls), c)
		}
	}
	if len(got.calls) > rows/100 {
		t.Errorf("%d writes for a table of %d rows", len(got.calls), rows+1)
	}
}

// BenchmarkTableSafe10000 lays out a table of 10,000 rows into a
// SafeWriter on /dev/null, as list does into a pipe, against a floor: the
// same text masked, escaped and written in one write. x-one-write holds
// the table within 3× of that floor; when text/tabwriter's writes went to
// the SafeWriter, and on to the file, one cell at a time it was 21.
func BenchmarkTableSafe10000(b *testing.B) {
	const rows = 10000
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer null.Close()
	row := func(w io.Writer, i int) {
		fmt.Fprintf(w, "server-%05d\tstdio\tnpx -y @modelcontextprotocol/server-filesystem /srv/%d\tyes\tall\n", i, i)
	}
	var text bytes.Buffer
	tw := NewTable(&text, false)
	for i := range rows {
		row(tw, i)
	}
	tw.Flush()
	var floor, table time.Duration
	for range b.N {
		start := time.Now()
		(&SafeWriter{W: null}).Write(text.Bytes())
		floor += time.Since(start)
		start = time.Now()
		tw := NewTable(&SafeWriter{W: null}, false)
		for i := range rows {
			row(tw, i)
		}
		tw.Flush()
		table += time.Since(start)
	}
	b.ReportMetric(float64(table.Microseconds())/1000/float64(b.N), "ms-table")
	b.ReportMetric(float64(floor.Microseconds())/1000/float64(b.N), "ms-one-write")
	benchgoal.Ratio(b, "x-one-write", float64(table)/float64(floor), 3)
}

// TestOutcomesWriteWholeLines: the line per server that import, add and
// sync print reaches the stream in a few writes, not one per server (at
// 10,000 servers each was masked, escaped and written on its own).
func TestOutcomesWriteWholeLines(t *testing.T) {
	const n = 2000
	run := &engine.ImportRun{}
	var added []engine.AddOutcome
	var synced []reconcile.Outcome
	for i := range n {
		run.Outcomes = append(run.Outcomes, engine.ImportOutcome{Name: fmt.Sprintf("s%d", i), Action: "unchanged"})
		added = append(added, engine.AddOutcome{Name: fmt.Sprintf("s%d", i), Action: "added"})
		synced = append(synced, reconcile.Outcome{Server: fmt.Sprintf("s%d", i), Action: "added", From: []string{"cursor"}, To: []string{"store"}})
	}
	for name, print := range map[string]func(w io.Writer){
		"import": func(w io.Writer) { ImportOutcomes(w, run) },
		"add":    func(w io.Writer) { AddOutcomes(w, &store.Store{Path: "/p/mcpsync.hcl"}, added, Paths{}) },
		"sync":   func(w io.Writer) { SyncOutcomes(w, "would sync ", synced) },
	} {
		var got writes
		print(&got)
		if lines := strings.Count(got.all.String(), "\n"); lines != n {
			t.Fatalf("%s: %d lines, want %d", name, lines, n)
		}
		if len(got.calls) > n/100 {
			t.Errorf("%s: %d writes for %d lines", name, len(got.calls), n)
		}
		for _, c := range got.calls {
			if !strings.HasSuffix(c, "\n") {
				t.Fatalf("%s: a write that is not whole lines: %q", name, c)
			}
		}
	}
}
