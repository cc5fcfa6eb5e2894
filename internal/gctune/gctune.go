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
package gctune

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

const (
	// MaxPercent is the GOGC of a small heap, MinPercent that of a large
	// one (Go's default).
	MaxPercent = 400
	MinPercent = 100
	// Target is the heap size (live plus what may accrue before the next
	// collection) that the tuning aims at while it can.
	Target = 256 << 20
	// LimitFloor is the least memory limit. It is below Target because
	// the runtime counts only its own memory, and what the system counts
	// is more by the binary's pages (about 15 MiB) and by the heap the
	// collector lets grow while it marks: at 256 MiB an export of 10,000
	// servers to every client peaked at 276 to 288 MiB resident, at the
	// 300 MB goal (286 MiB).
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

// Percent returns the GOGC for a live heap of live bytes: as much as
// keeps the next collection's heap within Target, between MinPercent and
// MaxPercent.
func Percent(live uint64) int {
	if live == 0 {
		return MaxPercent
	}
	p := (float64(Target)/float64(live) - 1) * 100
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
	t := &tuner{sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	t.old = debug.SetGCPercent(MaxPercent)
	t.oldLimit = debug.SetMemoryLimit(-1)
	t.arm()
	return func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		t.stopped = true
		debug.SetGCPercent(t.old)
		debug.SetMemoryLimit(t.oldLimit)
	}
}

type tuner struct {
	sample   []metrics.Sample
	old      int
	oldLimit int64
	mu       sync.Mutex
	stopped  bool
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
		debug.SetGCPercent(Percent(live))
		debug.SetMemoryLimit(Limit(live))
	}
	t.arm()
}
