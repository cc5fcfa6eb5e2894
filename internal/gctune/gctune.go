// Package gctune sets the garbage collector for mcpsync's runs.
//
// A run parses and writes every client file once and ends; most of what
// it allocates is garbage within milliseconds, and with Go's default
// (GOGC=100) the collector ran a quarter of the CPU of a sync of 1,000
// servers. Letting the heap grow to five times what is live before a
// collection makes that sync and a watch cycle about a quarter faster
// (BenchmarkSyncEdit and BenchmarkWatchLatency, measured both ways), and a
// memory limit keeps the large runs, whose heap is mostly live, where they
// were: the collector works harder as the limit nears, so a run of 10,000
// servers peaks near the limit rather than at five times its live heap.
package gctune

import "runtime/debug"

const (
	// Percent is the GOGC mcpsync runs with.
	Percent = 400
	// MemoryLimit is the soft memory limit mcpsync runs with (GOMEMLIMIT).
	MemoryLimit = 512 << 20
)

// Apply sets the collector to Percent and the memory limit to
// MemoryLimit, each unless the environment sets it (GOGC, GOMEMLIMIT: a
// user's own setting wins), and returns what restores the settings it
// found.
func Apply(lookupEnv func(string) (string, bool)) (restore func()) {
	oldPercent, oldLimit := -2, int64(-1)
	if _, set := lookupEnv("GOGC"); !set {
		oldPercent = debug.SetGCPercent(Percent)
	}
	if _, set := lookupEnv("GOMEMLIMIT"); !set {
		oldLimit = debug.SetMemoryLimit(MemoryLimit)
	}
	return func() {
		if oldPercent != -2 {
			debug.SetGCPercent(oldPercent)
		}
		if oldLimit >= 0 {
			debug.SetMemoryLimit(oldLimit)
		}
	}
}
