package probe

import (
	"fmt"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
)

// BenchmarkProbe20Slow probes 20 stdio servers that each take about 1 s to
// start, and reports the run's wall time as a ratio to the slowest single
// probe (x-slowest): about 1 means the probes ran side by side; 20 would
// mean one after the other. With the default parallelism (8) the servers
// run in three waves, so the ratio is about 3.
func BenchmarkProbe20Slow(b *testing.B) {
	servers := make([]canonical.Server, 20)
	for i := range servers {
		servers[i] = fixture(b, fmt.Sprintf("slow%02d", i), "-init-delay", "1s")
	}
	for _, parallel := range []int{20, DefaultParallel} {
		b.Run(fmt.Sprintf("parallel=%d", parallel), func(b *testing.B) {
			opts := Options{Timeout: 30 * time.Second, Parallel: parallel, ProjectDir: b.TempDir(), Getenv: env()}
			var ratio, slowest float64
			for b.Loop() {
				rep := Run(b.Context(), servers, opts)
				var max time.Duration
				for _, r := range rep.Results {
					if r.State != Ready {
						b.Fatalf("%s: %s %s", r.Server, r.Category, r.Message)
					}
					max = cmpMax(max, r.Latency)
				}
				ratio += float64(rep.Elapsed) / float64(max)
				slowest += ms(max)
			}
			b.ReportMetric(ratio/float64(b.N), "x-slowest")
			b.ReportMetric(slowest/float64(b.N), "slowest-ms")
		})
	}
}

func cmpMax(a, b time.Duration) time.Duration {
	if a > b {
		return a
	}
	return b
}

// BenchmarkProbeStdio measures one ready stdio probe, initialize first (the
// default) and server/discover first.
func BenchmarkProbeStdio(b *testing.B) {
	benchModes(b, fixture(b, "fx"))
}

// BenchmarkDiscoverSilentServer measures a pre-2026 server that ignores
// server/discover instead of answering MethodNotFound: the case the
// discover bound exists for (mcp-go's own default would wait 5 s).
func BenchmarkDiscoverSilentServer(b *testing.B) {
	benchModes(b, fixture(b, "silent", "-mode", "silent"))
}

func benchModes(b *testing.B, s canonical.Server) {
	for _, m := range []struct {
		name          string
		discoverFirst bool
	}{{"initialize-first", false}, {"discover-first", true}} {
		b.Run(m.name, func(b *testing.B) {
			opts := Options{Timeout: 30 * time.Second, ProjectDir: b.TempDir(), Getenv: env(), DiscoverFirst: m.discoverFirst}
			var latency float64
			for b.Loop() {
				r := One(b.Context(), s, opts)
				if r.State != Ready {
					b.Fatalf("%s %s", r.Category, r.Message)
				}
				latency += ms(r.Latency)
			}
			b.ReportMetric(latency/float64(b.N), "probe-ms")
		})
	}
}
