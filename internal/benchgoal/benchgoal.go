// Package benchgoal reports speed goals from benchmarks, as ratios
// measured in the same run. A goal missed is logged ("goal missed");
// with MCPSYNC_BENCH_STRICT=1 it fails the benchmark (and Go then prints
// none of its figures). Never a test: a timed test is noise.
package benchgoal

import (
	"os"
	"testing"
	"time"
)

// Ratio reports ratio as metric and says when it is above max.
func Ratio(b *testing.B, metric string, ratio, max float64) {
	b.Helper()
	b.ReportMetric(ratio, metric)
	if ratio > max {
		report := b.Logf
		if os.Getenv("MCPSYNC_BENCH_STRICT") == "1" {
			report = b.Errorf
		}
		report("goal missed: %s = %.2f; the goal is at most %.2f", metric, ratio, max)
	}
}

// Linear reports the cost of a job at 1,000 and at 10,000 (ms-1000,
// ms-10000) and holds it linear: x-from-1000 at most 11 (10 is linear,
// 1 of noise).
func Linear(b *testing.B, at1000, at10000 time.Duration) {
	b.Helper()
	b.ReportMetric(float64(at1000.Microseconds())/1000, "ms-1000")
	b.ReportMetric(float64(at10000.Microseconds())/1000, "ms-10000")
	Ratio(b, "x-from-1000", float64(at10000)/float64(at1000), 11)
}
