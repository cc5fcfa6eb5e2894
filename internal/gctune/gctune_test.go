package gctune

import (
	"runtime/debug"
	"testing"
)

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestApplySetsBothAndRestores(t *testing.T) {
	p0, l0 := current()
	restore := Apply(env(nil))
	if p, l := current(); p != Percent || l != MemoryLimit {
		t.Errorf("after Apply: GOGC %d, limit %d; want %d, %d", p, l, Percent, MemoryLimit)
	}
	restore()
	if p, l := current(); p != p0 || l != l0 {
		t.Errorf("after restore: GOGC %d, limit %d; want %d, %d", p, l, p0, l0)
	}
}

// A user's GOGC or GOMEMLIMIT is theirs: Apply leaves that one alone.
func TestApplyLeavesTheUsersSettings(t *testing.T) {
	p0, l0 := current()
	restore := Apply(env(map[string]string{"GOGC": "50"}))
	if p, l := current(); p != p0 || l != MemoryLimit {
		t.Errorf("with GOGC set: GOGC %d (want the runtime's %d), limit %d (want %d)", p, p0, l, MemoryLimit)
	}
	restore()
	restore = Apply(env(map[string]string{"GOMEMLIMIT": "1GiB"}))
	if p, l := current(); p != Percent || l != l0 {
		t.Errorf("with GOMEMLIMIT set: GOGC %d (want %d), limit %d (want the runtime's %d)", p, Percent, l, l0)
	}
	restore()
}

// current returns the collector's settings without changing them.
func current() (percent int, limit int64) {
	percent = debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}
