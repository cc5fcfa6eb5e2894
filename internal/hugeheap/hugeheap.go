// Package hugeheap asks Linux to back mcpsync's heap with transparent huge
// pages, where the machine leaves that to each program
// (/sys/kernel/mm/transparent_hugepage/enabled is "madvise"; with "always"
// the kernel does it for every program anyway).
//
// Why: every 4 KiB page of fresh heap first costs the kernel a page
// fault, and on a virtual machine each costs several microseconds. A perf
// record of an export of 10,000 servers to four clients (about 280 MB of
// heap) put 29 % of its samples in the kernel's fault path; an export of
// 50 servers takes some 3,000 faults, most of them its heap. In 2 MiB
// pages the first took about 3,400 faults instead of 66,000 and 0.55 of
// the time on the machine measured then (0.88 to 0.90 on a later one,
// whose faults cost less); the second is faster unmarked (see
// InputThreshold). BenchmarkHugePagesExport in cmd/mcpsync holds the
// ratios. Go's runtime no longer asks for huge pages itself (it did in Go
// 1.21.0 only), and has no setting to ask.
//
// How: Mark, called before the heap grows (Input calls it once a run's
// input is large, before that input is read: package internal/earlyheap
// has every command that reads input mark so, from its init, which Go
// runs before the packages that fill the heap at start), has the runtime
// map Reserve bytes of heap by allocating one block with the collector off,
// marks that memory and the mapping below it MADV_HUGEPAGE, and drops
// the block: a collection frees it and its memory is released at once
// (debug.FreeOSMemory; it was never touched), and the runtime, which
// hands out heap pages from the lowest free address, grows the heap into
// the marked memory. The block is never touched, so it costs address space,
// not memory: resident memory grows only by the rounding of what the heap
// uses to 2 MiB (an export of 50 servers: 2 to 3 MB more).
//
// Once, at the start, and not when the heap has grown: the runtime zeroes
// a block that begins in memory used before, and a block reserved after a
// collection sometimes did, touching all 512 MB in 4 KiB pages (a run of
// 1.2 GB and 2.8 s instead of 0.35 GB and 1.1 s). Before the first
// collection no memory has been freed, so none is used before.
//
// It does nothing unless it is safe: not where the machine's setting is
// "always" (the kernel does it anyway) or "never" (the administrator said
// no), not with GODEBUG=disablethp=1 (Go's own switch for this), not under
// strict overcommit (vm.overcommit_memory=2, where the reservation would
// count against the commit limit) or an address-space limit (ulimit -v),
// and not on a machine with less than four times Reserve of memory. A
// failure along the way leaves the heap as it was.
package hugeheap

import (
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// Reserve is the heap marked; beyond it the heap grows in 4 KiB pages.
const Reserve = 512 << 20

// Mark marks the heap for huge pages now and reports whether it did. Call
// it once, as the program starts: it costs 3 to 7 ms here (2 to 3 of them
// the collection that frees the reservation, which a run that allocates
// would make soon anyway, and 1.5 to 2 its release), which a command that
// only prints a fixed text (mcpsync version) should not pay.
func Mark() bool { return mark() }

// InputThreshold is the size, in bytes, of one input (a file, a paste)
// from which a run that marks on its input (OnInput) marks its heap: the
// store of about 500 servers, a client's file of about 400.
//
// Why a threshold: marking costs a run 4 to 5 ms here (the reservation,
// the collection that frees it, 2 MiB pages zeroed whole for a heap of a
// few MB), and a small run never gains it back: list with an empty store
// 29.6 against 24.7 ms unmarked, with 50 servers 52.0 against 48.1 ms; a
// fresh export of 50 servers to four clients 21.7 against 15.6 ms, and
// 22.9 against 18.9 MiB at its peak (of 100 to 300 servers, 24.9 to 30.8
// against 19.4 to 28.2 ms). At 1,000 servers (125 KB of store) the same
// list takes 90.8 against 102.1 ms marked, the export 48 against 60 ms.
const InputThreshold = 64 << 10

// InputsThreshold is the input, all of it together, from which the heap
// is marked though no one input reaches InputThreshold.
//
// Why not InputThreshold for the sum: a run reads the clients' files as
// well as the store, and a file of a client holds about as much as the
// store, so that an export to five clients of servers it wrote before
// reads six times what a first export reads, for the same work. Counted
// together against InputThreshold, a re-export of 100 servers to five
// clients (87 KB in six files, none over 16 KB) marked its heap while
// planning and took 103 to 107 against 93 to 97 ms unmarked; of 400
// servers (340 KB, the largest file 58 KB) the marking gained nothing
// (159 to 184 against 185 ms). Many files of a large run (an export to
// every client) still mark together.
const InputsThreshold = 8 * InputThreshold

var (
	onInput   atomic.Bool
	input     atomic.Int64
	inputOnce sync.Once

	filesMu sync.Mutex
	files   map[string]bool // the files InputFile counted
)

// OnInput has Input mark the heap once the run's input is large (one
// input of InputThreshold, or InputsThreshold in all), instead of marking
// now. Call it as the program starts, where Mark would be called.
func OnInput() { onInput.Store(true) }

// Input notes that the run is about to read an input of n bytes (a file
// it was given: the store, a client's file; a paste). Once OnInput was
// called and the input is large (n reaches InputThreshold, or all the
// input noted InputsThreshold), the heap is marked, unless the collector
// has run by then: a reservation after a collection may begin in freed
// memory and be zeroed whole (see the package comment).
func Input(n int64) {
	if !onInput.Load() {
		return
	}
	if all := input.Add(n); n < InputThreshold && all < InputsThreshold {
		return
	}
	inputOnce.Do(func() {
		if collections() == 0 {
			mark()
		}
	})
}

// InputFile is Input for the file at path, of n bytes: a file counts
// once, however often the run reads it. A write reads each file again
// before it writes it (has it changed since the plan?): counted again,
// those reads made a re-export of 50 servers to five clients cross the
// threshold after its work was done, and the marking (a collection, and
// the release of the free heap that package prefault had faulted in)
// made it 20 ms slower, 65 to 72 against 81 to 83 ms.
func InputFile(path string, n int64) {
	if !onInput.Load() {
		return
	}
	filesMu.Lock()
	counted := files[path]
	if !counted {
		if files == nil {
			files = map[string]bool{}
		}
		files[path] = true
	}
	filesMu.Unlock()
	if !counted {
		Input(n)
	}
}

// collections is how many garbage collections the program has finished.
func collections() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 1 // unknown: as if one had run
	}
	return s[0].Value.Uint64()
}
