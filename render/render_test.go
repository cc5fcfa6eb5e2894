package render

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/benchgoal"
)

// warnings is what an export of n servers to a client that expands no
// reference says: one warning per server, of two kinds, in one file.
func warnings(n int) canonical.Diagnostics {
	var ds canonical.Diagnostics
	for i := range n {
		name := fmt.Sprintf("fs-%05d", i)
		d := canonical.Warnf("server %q is not written: Amazon Q Developer expands no references, so env.API_KEY would reach the server as the text ${API_KEY}", name)
		d.Server, d.Field, d.File = name, "env.API_KEY", "/p/.amazonq/mcp.json"
		ds = append(ds, d)
		r := canonical.Warnf("server %q is not written: Amazon Q Developer only runs local (stdio) servers", "remote-"+name)
		r.Server, r.File = "remote-"+name, "/p/.amazonq/mcp.json"
		ds = append(ds, r)
	}
	return ds
}

func TestGroupWarnings(t *testing.T) {
	ds := warnings(5)
	ds = append(ds, ds[0]) // the same warning twice: one name, counted once
	var b strings.Builder
	Diagnostics(&b, ds, false, false, nil)
	got := b.String()
	for _, want := range []string{
		`server "fs-00000": server "fs-00000" is not written: Amazon Q Developer expands no references, so env.API_KEY would reach the server as the text ${API_KEY} (the same for 4 more servers: fs-00001, fs-00002, fs-00003, …; --verbose lists each)`,
		`server "remote-fs-00000": server "remote-fs-00000" is not written: Amazon Q Developer only runs local (stdio) servers (the same for 4 more servers: remote-fs-00001, remote-fs-00002, remote-fs-00003, …; --verbose lists each)`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing:\n%s\nin:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "warning:"); n != 2 {
		t.Errorf("%d warnings printed, want 2 groups:\n%s", n, got)
	}
}

// BenchmarkGroupWarnings groups the warnings of 1,000 and of 10,000
// servers: x-from-1000 holds it linear (at most 11×; 10× is linear).
func BenchmarkGroupWarnings(b *testing.B) {
	timeOf := func(n int) time.Duration {
		ds := warnings(n)
		start := time.Now()
		for range b.N {
			if len(GroupWarnings(ds)) != 2 {
				b.Fatal("not grouped")
			}
		}
		return time.Since(start) / time.Duration(b.N)
	}
	benchgoal.Linear(b, timeOf(1000), timeOf(10000))
}
