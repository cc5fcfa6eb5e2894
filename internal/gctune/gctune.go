// Package gctune sets the garbage collector for mcpsync's runs.
//
// A run parses and writes every client file once and ends; most of what
// it allocates is garbage within milliseconds, and with Go's default
// (GOGC=100) the collector ran a quarter of the CPU of a sync of 1,000
// servers. Letting the heap grow to five times what is live makes that
// sync and a watch cycle about a quarter faster. A large run's heap is
// mostly live, though, and five times it is memory for nothing: a fixed
// memory limit either let a 10,000-server run grow by half or, set lower,
// made the collector work at the limit all through it (38 % slower). So
// the collector's target is set after each collection from what is live:
// up to GOGC=400 while the live heap is small, down to the usual 100 as it
// nears Target, which is where a small run's heap tops out; and a soft
// memory limit (Limit) of LimitFloor, or one and a half times what is
// live where that is more, holds a large run's heap near it.
//
// Memory a run has not used before is zeroed by the kernel at its first
// touch, and on a virtual machine that hands freed memory back to its host
// (free page reporting, as on this project's benchmark machine) that
// zeroing faults the page in on the host as well: a perf record of an
// export of 10,000 servers to four clients, run a few seconds after the
// last one, put 41 % of its samples in the kernel's clear_page. A run that
// ends therefore aims at Target, half of what a long-running one (watch,
// serve: LongRun) aims at, whose heap is reused cycle after cycle: it
// touches a fifth less memory at 10,000 servers, in the same time.
package gctune

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

const (
	// MaxPercent is the GOGC of a small heap, MinPercent that of a large
	// one (Go's default).
	MaxPercent = 400
	MinPercent = 100
	// Target is the heap size (live plus what may accrue before the next
	// collection) that the tuning of a run that ends aims at while it can.
	// At 128 rather than 256 MiB, an export of 10,000 servers to four
	// clients peaks at 178 instead of 221 MB, its no-op at 136 instead
	// of 147, in the same time (medians of 8 to 14 runs taken in turn
	// with the other setting, ABBA: right after the last run, 3 s after
	// another program that used 300 MB, and 8 s after the last run; each
	// within 5 %, either way). Runs whose live heap stays under a fifth of
	// it (1,000 servers and fewer) do not change; one that reaches
	// LimitFloor (10,000 servers to every client) is held by the limit
	// either way. BenchmarkProcess/servers=10000,clients=4 (cmd/mcpsync)
	// reports that peak: 201 and 203 MiB at most in two runs of five,
	// against 231 and 232 with 256 MiB, in turn.
	Target = 128 << 20
	// LongRunTarget is Target for a process that runs until it is stopped
	// (LongRun), whose collections recur with every cycle while its memory
	// is paid for once: a watch of 1,000 servers synced in 125 to 127 ms
	// (median of 100 edits, two runs) aiming at it, 131 to 140 ms at
	// Target.
	LongRunTarget = 256 << 20
	// LimitFloor is the least memory limit. It is below LongRunTarget
	// because the runtime counts only its own memory, and what the system
	// counts is more by the binary's pages (about 15 MiB) and by the heap
	// the collector lets grow while it marks: at 256 MiB an export of
	// 10,000 servers to every client peaked at 276 to 288 MiB resident, at
	// the 300 MB goal (286 MiB).
	LimitFloor = 232 << 20
)

// Limit returns the soft memory limit for a live heap of live bytes:
// LimitFloor, or half as much again as is live where that is more.
//
// Why a limit as well as GOGC: at GOGC=100 a heap grows to twice what was
// live at the last collection, and further while the next one marks; an
// export of 10,000 servers to every client, 170 MiB live at its largest,
// peaked at 330 to 360 MiB resident. Under a limit of 256 MiB it peaked at
// 270 to 288 MiB, collecting 16 times instead of 13: 1.2 times the CPU and
// the time (2.3 against 1.9 s, medians of 8 alternating runs here); under
// LimitFloor, at 260 to 268 MiB in 2.2 to 2.6 s. The limit never
// falls below one and a half times what is live, so a larger run is never
// held at a limit it cannot keep (with a fixed limit under the live heap
// the collector runs all the time): at worst it collects as at GOGC=50.
// Small runs never reach it; an export of 10,000 servers to four clients
// just does, in the same time (506 against 511 ms, medians of 12
// alternating runs).
func Limit(live uint64) int64 {
	return int64(max(LimitFloor, live+live/2))
}

// Percent returns the GOGC for a live heap of live bytes in a run that
// ends: as much as keeps the next collection's heap within Target,
// between MinPercent and MaxPercent.
func Percent(live uint64) int { return percent(live, Target) }

// percent is Percent aiming at target.
func percent(live, target uint64) int {
	if live == 0 {
		return MaxPercent
	}
	p := (float64(target)/float64(live) - 1) * 100
	return int(min(max(p, MinPercent), MaxPercent))
}

// Apply starts the tuning, unless the environment sets GOGC or GOMEMLIMIT
// (a user's own setting wins), and returns what stops it and restores
// the collector's setting.
func Apply(lookupEnv func(string) (string, bool)) (stop func()) {
	_, gogc := lookupEnv("GOGC")
	_, limit := lookupEnv("GOMEMLIMIT")
	if gogc || limit {
		return func() {}
	}
	t := &tuner{sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}, target: Target}
	t.old = debug.SetGCPercent(MaxPercent)
	t.oldLimit = debug.SetMemoryLimit(-1)
	t.arm()
	running.Store(t)
	return func() {
		running.CompareAndSwap(t, nil)
		t.mu.Lock()
		defer t.mu.Unlock()
		t.stopped = true
		debug.SetGCPercent(t.old)
		debug.SetMemoryLimit(t.oldLimit)
	}
}

// LongRun has the tuning that Apply started aim at LongRunTarget from the
// next collection on: the process runs until it is stopped (watch,
// serve). Without a tuning running it does nothing.
func LongRun() {
	if t := running.Load(); t != nil {
		t.mu.Lock()
		t.target = LongRunTarget
		t.mu.Unlock()
	}
}

// running is the tuning Apply started, until it is stopped.
var running atomic.Pointer[tuner]

type tuner struct {
	sample   []metrics.Sample
	old      int
	oldLimit int64
	mu       sync.Mutex
	stopped  bool
	target   uint64 // Target, or LongRunTarget after LongRun
}

// sentinel is garbage from birth: its finalizer runs after each
// collection, and sets the next target. (It holds a pointer and is larger
// than 16 bytes, so that it is not batched with other tiny objects, whose
// finalizers may never run.)
type sentinel struct {
	t   *tuner
	pad [3]uint64
}

func (t *tuner) arm() {
	s := &sentinel{t: t}
	runtime.SetFinalizer(s, func(s *sentinel) { s.t.tune() })
}

func (t *tuner) tune() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return
	}
	metrics.Read(t.sample)
	if t.sample[0].Value.Kind() == metrics.KindUint64 {
		live := t.sample[0].Value.Uint64()
		debug.SetGCPercent(percent(live, t.target))
		debug.SetMemoryLimit(Limit(live))
	}
	t.arm()
}
