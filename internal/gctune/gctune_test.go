package gctune

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func gcPercent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

func TestPercentFollowsTheLiveHeap(t *testing.T) {
	for _, tc := range []struct {
		live uint64
		want int
	}{
		{0, MaxPercent}, {1 << 20, MaxPercent}, {Target / 5, MaxPercent}, // room for five times it
		{Target / 4, 300}, {Target / 2, MinPercent}, {Target, MinPercent}, {4 * Target, MinPercent},
	} {
		if got := Percent(tc.live); got != tc.want {
			t.Errorf("Percent(%d MiB) = %d, want %d", tc.live>>20, got, tc.want)
		}
	}
}

func TestLimitFollowsTheLiveHeap(t *testing.T) {
	for _, tc := range []struct {
		live uint64
		want int64
	}{
		{0, LimitFloor}, {LimitFloor / 2, LimitFloor}, {LimitFloor * 2 / 3, LimitFloor}, // the floor holds while it is 1.5 times live
		{LimitFloor, LimitFloor * 3 / 2}, {4 * Target, 6 * Target},
	} {
		if got := Limit(tc.live); got != tc.want {
			t.Errorf("Limit(%d MiB) = %d MiB, want %d MiB", tc.live>>20, got>>20, tc.want>>20)
		}
	}
}

func memoryLimit() int64 { return debug.SetMemoryLimit(-1) } // a negative limit reads it

// After a collection the tuner has set the collector from the live heap;
// stop restores what was there.
func TestApplyTunesAfterEachCollectionAndStops(t *testing.T) {
	p0, l0 := gcPercent(), memoryLimit()
	stop := Apply(env(nil))
	if p := gcPercent(); p != MaxPercent {
		t.Errorf("after Apply: GOGC %d, want %d", p, MaxPercent)
	}
	keep := make([][]byte, 0, 200)
	for range 200 { // 200 MiB live: the target falls to the minimum
		keep = append(keep, make([]byte, 1<<20))
	}
	for range 5 {
		runtime.GC()
		runtime.Gosched()
	}
	deadline := 100
	for gcPercent() != MinPercent && deadline > 0 {
		runtime.GC()
		deadline--
	}
	if p := gcPercent(); p != MinPercent {
		t.Errorf("with %d MiB live: GOGC %d, want %d", len(keep), p, MinPercent)
	}
	if l := memoryLimit(); l < 300<<20 || l > 320<<20 {
		t.Errorf("with %d MiB live: memory limit %d MiB, want one and a half times that", len(keep), l>>20)
	}
	runtime.KeepAlive(keep)
	stop()
	if p := gcPercent(); p != p0 {
		t.Errorf("after stop: GOGC %d, want %d", p, p0)
	}
	if l := memoryLimit(); l != l0 {
		t.Errorf("after stop: memory limit %d, want %d", l, l0)
	}
}

// A process that runs until it is stopped aims at LongRunTarget: with a
// quarter of it live the collector may let the heap grow three times as
// much again, where a run that ends collects at Go's default.
func TestLongRunAimsAtLongRunTarget(t *testing.T) {
	stop := Apply(env(nil))
	defer stop()
	keep := make([][]byte, 0, 64)
	for range LongRunTarget >> 22 { // a quarter of LongRunTarget, in MiB
		keep = append(keep, make([]byte, 1<<20))
	}
	settle := func(want func(int) bool) int {
		p := gcPercent()
		for deadline := 100; !want(p) && deadline > 0; deadline-- {
			runtime.GC()
			runtime.Gosched()
			p = gcPercent()
		}
		return p
	}
	if p := settle(func(p int) bool { return p == MinPercent }); p != MinPercent {
		t.Errorf("a run that ends, %d MiB live: GOGC %d, want %d", len(keep), p, MinPercent)
	}
	LongRun()
	if p := settle(func(p int) bool { return p > 250 }); p <= 250 || p > 300 {
		t.Errorf("after LongRun, %d MiB live: GOGC %d, want nearly 300", len(keep), p)
	}
	runtime.KeepAlive(keep)
}

// A user's GOGC or GOMEMLIMIT is theirs: Apply changes nothing.
func TestApplyLeavesTheUsersSettings(t *testing.T) {
	p0, l0 := gcPercent(), memoryLimit()
	for _, set := range []string{"GOGC", "GOMEMLIMIT"} {
		stop := Apply(env(map[string]string{set: "1"}))
		runtime.GC()
		runtime.Gosched()
		if p := gcPercent(); p != p0 {
			t.Errorf("with %s set: GOGC %d, want the runtime's %d", set, p, p0)
		}
		if l := memoryLimit(); l != l0 {
			t.Errorf("with %s set: memory limit %d, want the runtime's %d", set, l, l0)
		}
		stop()
	}
}
