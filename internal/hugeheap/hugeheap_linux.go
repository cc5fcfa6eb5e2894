package hugeheap

import (
	"bufio"
	"bytes"
	"os"
	"runtime"
	"runtime/metrics"
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

// allowed reports whether Advise may reserve and mark memory under s.
func (s settings) allowed() bool {
	return strings.Contains(s.thp, "[madvise]") &&
		(s.overcommit == "0" || s.overcommit == "1") &&
		!strings.Contains(","+s.godebug+",", ",disablethp=1,") &&
		!s.asLimited && s.memTotal >= 4*Reserve
}

func start() <-chan bool {
	done := make(chan bool, 1)
	arm(done, []metrics.Sample{{Name: "/gc/heap/live:bytes"}})
	return done
}

// sentinel is garbage from birth: its finalizer runs after a collection.
// (It holds a pointer and is larger than 16 bytes, so that it is not
// batched with other tiny objects, whose finalizers may never run.)
type sentinel struct {
	done   chan bool
	sample []metrics.Sample
	pad    [2]uint64
}

func arm(done chan bool, sample []metrics.Sample) {
	runtime.SetFinalizer(&sentinel{done: done, sample: sample}, func(s *sentinel) {
		metrics.Read(s.sample)
		if s.sample[0].Value.Kind() == metrics.KindUint64 && s.sample[0].Value.Uint64() >= Trigger {
			// In a goroutine of its own: finalizers run one at a time, and
			// this one would hold the others up for a collection. The
			// machine's settings are read only now, so that a small run
			// reads none of them.
			go func() { s.done <- read().allowed() && reserveAndMark() }()
			return
		}
		arm(s.done, s.sample)
	})
}

func reserveAndMark() bool {
	block := make([]byte, Reserve) // mapped by the runtime, never touched
	start := uintptr(unsafe.Pointer(unsafe.SliceData(block)))
	_, hi, ok := mappingOf(start)
	runtime.KeepAlive(block) // and no further: from here it is garbage
	// Free the block now: the collection its allocation started counted
	// it live, and the collector's next target would be sized by it.
	runtime.GC()
	if !ok {
		return false
	}
	// The block's memory and any mapped above it; not the heap below,
	// whose pages are in use already.
	from := (start + hugePage - 1) &^ (hugePage - 1)
	if from >= hi {
		return false
	}
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, from, hi-from, madvHugepage)
	return errno == 0
}

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
