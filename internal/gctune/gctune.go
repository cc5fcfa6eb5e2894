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
// nears Target, which is where a small run's heap tops out.
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
)

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
	t.arm()
	return func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		t.stopped = true
		debug.SetGCPercent(t.old)
	}
}

type tuner struct {
	sample  []metrics.Sample
	old     int
	mu      sync.Mutex
	stopped bool
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
		debug.SetGCPercent(Percent(t.sample[0].Value.Uint64()))
	}
	t.arm()
}
