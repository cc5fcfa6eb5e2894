package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/internal/benchgoal"
)

// BenchmarkHugePagesExport times the built mcpsync, a whole process, on
// the peers' job (a fresh export of n servers to Claude Code, Cursor,
// Codex and OpenCode's project files) as it runs, its heap marked for
// huge pages once its input is large (internal/hugeheap, earlyheap),
// against the same binary with GODEBUG=disablethp=1, in alternating
// runs. x-4k is the first's time over the second's: at most 0.95 at
// 1,000 and 10,000 servers, where the store is large enough to mark (a
// store of 50 servers is not: both runs would be the same). MiB-huge and
// MiB-4k are the peak resident memory of each. Where the machine does not
// leave huge pages to each program, both runs are the same and the
// benchmark says so.
//
//	go test ./cmd/mcpsync -run '^$' -bench HugePages -benchtime 5x
func BenchmarkHugePagesExport(b *testing.B) {
	bin := mcpsyncBinary(b)
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("servers=%d", n), func(b *testing.B) {
			if n == 10000 && testing.Short() {
				b.Skip("10,000 servers: not with -short")
			}
			home := b.TempDir()
			proj := filepath.Join(home, "proj")
			write(b, filepath.Join(proj, ".git", "HEAD"), []byte("ref: refs/heads/main\n"))
			write(b, filepath.Join(proj, "mcpsync.hcl"), []byte(benchStore(n)))
			env := sandboxEnv(home)
			runner := peakRunner(b)
			run := func(godebug string) (time.Duration, int64) {
				for _, rel := range []string{".mcp.json", ".cursor", ".codex", "opencode.json"} {
					os.RemoveAll(filepath.Join(proj, rel))
				}
				os.RemoveAll(filepath.Join(home, ".local", "state"))
				r := measuredRun(b, runner, append(env, "GODEBUG="+godebug), proj, bin,
					"export", "--scope", "project", "--to", "claude-code,cursor,codex,opencode")
				return r.took, r.maxRSS
			}
			run("") // the store's first read, cached for the runs timed
			var huge, small time.Duration
			var hugeRSS, smallRSS int64
			for range b.N {
				t, rss := run("disablethp=1")
				small, smallRSS = small+t, max(smallRSS, rss)
				t, rss = run("")
				huge, hugeRSS = huge+t, max(hugeRSS, rss)
			}
			thp, _ := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
			if !strings.Contains(string(thp), "[madvise]") {
				b.Logf("transparent huge pages here: %q; mcpsync leaves them as they are, and both runs are the same", strings.TrimSpace(string(thp)))
			}
			b.ReportMetric(float64(huge.Microseconds())/1000/float64(b.N), "ms-huge")
			b.ReportMetric(float64(small.Microseconds())/1000/float64(b.N), "ms-4k")
			b.ReportMetric(float64(hugeRSS)/(1<<20), "MiB-huge")
			b.ReportMetric(float64(smallRSS)/(1<<20), "MiB-4k")
			benchgoal.Ratio(b, "x-4k", float64(huge)/float64(small), 0.95)
		})
	}
}

// benchStore is n servers as mcpsync.hcl: stdio with an env reference,
// http with a header reference, sse, in turn (engine's benchmarks use
// the same three kinds).
func benchStore(n int) string {
	var s strings.Builder
	for i := range n {
		switch i % 3 {
		case 0:
			fmt.Fprintf(&s, "server \"fs-%05d\" {\n  command = \"npx\"\n  args    = [\"-y\", \"@modelcontextprotocol/server-filesystem\", \"/srv/%d\"]\n  env     = { API_KEY = env(\"API_KEY\") }\n}\n\n", i, i)
		case 1:
			fmt.Fprintf(&s, "server \"remote-%05d\" {\n  url     = \"https://mcp%d.example.com/mcp\"\n  headers = { Authorization = \"Bearer ${env(\"TOKEN\")}\" }\n}\n\n", i, i)
		default:
			fmt.Fprintf(&s, "server \"sse-%05d\" {\n  url       = \"https://mcp%d.example.com/sse\"\n  transport = \"sse\"\n}\n\n", i, i)
		}
	}
	return s.String()
}
