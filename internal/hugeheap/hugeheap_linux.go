package hugeheap

import (
	"bufio"
	"bytes"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

const (
	madvHugepage = 14 // MADV_HUGEPAGE, in <asm-generic/mman-common.h>
	hugePage     = 2 << 20
)

// settings decide whether the heap may be marked: read from the machine
// (read) or given by a test.
type settings struct {
	thp        string // /sys/kernel/mm/transparent_hugepage/enabled
	overcommit string // /proc/sys/vm/overcommit_memory
	godebug    string // $GODEBUG
	asLimited  bool   // RLIMIT_AS is not infinity
	memTotal   uint64 // bytes, from /proc/meminfo
}

func read() settings {
	var s settings
	thp, _ := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	oc, _ := os.ReadFile("/proc/sys/vm/overcommit_memory")
	s.thp, s.overcommit, s.godebug = string(thp), strings.TrimSpace(string(oc)), os.Getenv("GODEBUG")
	var rl syscall.Rlimit
	s.asLimited = syscall.Getrlimit(syscall.RLIMIT_AS, &rl) != nil || rl.Cur != ^uint64(0)
	if mi, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, l := range strings.Split(string(mi), "\n") {
			if rest, ok := strings.CutPrefix(l, "MemTotal:"); ok {
				kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
				s.memTotal = kb << 10
			}
		}
	}
	return s
}

// allowed reports whether Reserve bytes of heap may be reserved and
// marked under s.
func (s settings) allowed() bool {
	return strings.Contains(s.thp, "[madvise]") &&
		(s.overcommit == "0" || s.overcommit == "1") &&
		!strings.Contains(","+s.godebug+",", ",disablethp=1,") &&
		!s.asLimited && s.memTotal >= 4*Reserve
}

func mark() bool {
	if !read().allowed() {
		return false
	}
	// The collector is off while the block is held: its allocation would
	// otherwise start a collection that may find it held, count it live,
	// and size the next target by it. Back on, a collection frees it, and
	// the memory, never touched, is given back to the system (released):
	// otherwise the runtime counts it as the program's, and under
	// internal/gctune's memory limit it made a 1,000-server export collect
	// once more at the start. The release costs 1.5 to 2 ms (the
	// collection was to come anyway).
	old := debug.SetGCPercent(-1)
	ok := markFrom(reserve(Reserve))
	debug.SetGCPercent(old)
	debug.FreeOSMemory()
	return ok
}

// reserve has the runtime map size bytes of heap and returns where: a
// block allocated and at once dropped (a uintptr holds nothing alive),
// never touched, free again after the next collection.
//
//go:noinline
func reserve(size int) uintptr {
	block := make([]byte, size)
	return uintptr(unsafe.Pointer(unsafe.SliceData(block)))
}

// markFrom marks MADV_HUGEPAGE the Reserve bytes at at and the memory
// below them in the same mapping (the heap the program holds so far). The
// block may span mappings: the free memory it took at its start lies in
// the older one.
func markFrom(at uintptr) bool {
	lo, _, ok := mappingOf(at)
	if !ok {
		return false
	}
	from := (lo + hugePage - 1) &^ (hugePage - 1)
	to := (at + Reserve) &^ (hugePage - 1)
	if from >= to {
		return false
	}
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, from, to-from, madvHugepage)
	if errno != 0 {
		return false
	}
	marked = [2]uintptr{from, to}
	return true
}

// marked is the range marked, for the tests.
var marked [2]uintptr

// mappingOf returns the bounds of the mapping in /proc/self/maps that
// holds addr.
func mappingOf(addr uintptr) (lo, hi uintptr, ok bool) {
	data, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return 0, 0, false
	}
	return findMapping(data, addr)
}

func findMapping(maps []byte, addr uintptr) (lo, hi uintptr, ok bool) {
	sc := bufio.NewScanner(bytes.NewReader(maps))
	for sc.Scan() {
		span, _, _ := strings.Cut(sc.Text(), " ")
		a, b, found := strings.Cut(span, "-")
		if !found {
			continue
		}
		l, err1 := strconv.ParseUint(a, 16, 64)
		h, err2 := strconv.ParseUint(b, 16, 64)
		if err1 == nil && err2 == nil && uintptr(l) <= addr && addr < uintptr(h) {
			return uintptr(l), uintptr(h), true
		}
	}
	return 0, 0, false
}
