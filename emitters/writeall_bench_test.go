package emitters

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/internal/benchgoal"
)

// BenchmarkWriteAll writes the five new files of a 50-server export (each
// in a folder of its own, as .cursor/mcp.json and .codex/config.toml are)
// all at once and one after the other, in the same run. x-one-at-a-time
// is the ratio: at most 1 holds writing at once no slower. Every write
// is a temporary file and its fsync, a rename, and the fsyncs of its
// folder and of the one that holds it (the folders of all five synced
// together at the end, either way), so on a real disk most of the time
// is the fsyncs.
func BenchmarkWriteAll(b *testing.B) {
	root := b.TempDir()
	data := []byte(strings.Repeat(`"server": {"command": "npx", "args": ["-y", "@example/server"]},`+"\n", 130)) // ~8 KB, 50 servers
	changes := func() []*FileChange {
		var cs []*FileChange
		for i := range 5 {
			path := filepath.Join(root, fmt.Sprintf(".client%d", i), "mcp.json")
			cs = append(cs, &FileChange{Path: path, Root: root, Kind: Create, Mode: NewFileMode, After: data})
		}
		return cs
	}
	timed := func(writers int) time.Duration {
		var total time.Duration
		for range b.N {
			os.RemoveAll(root)
			os.MkdirAll(root, 0o755)
			cs := changes()
			t := time.Now()
			if _, err := writeAll(cs, writers, func() error { return nil }); err != nil {
				b.Fatal(err)
			}
			total += time.Since(t)
		}
		return total / time.Duration(b.N)
	}
	// Alternated, so that both see the same disk.
	var together, alone time.Duration
	for range 3 {
		together += timed(maxWriters)
		alone += timed(1)
	}
	b.ReportMetric(float64(together.Microseconds())/3000, "ms-at-once")
	b.ReportMetric(float64(alone.Microseconds())/3000, "ms-one-at-a-time")
	benchgoal.Ratio(b, "x-one-at-a-time", float64(together)/float64(alone), 1)
}
