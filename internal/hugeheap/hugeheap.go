// Package hugeheap asks Linux to back a large run's heap with transparent
// huge pages, where the machine leaves that to each program
// (/sys/kernel/mm/transparent_hugepage/enabled is "madvise"; with "always"
// the kernel does it for every program anyway).
//
// Why: an export of 10,000 servers touches about 280 MB of fresh heap,
// and every 4 KiB page of it first costs the kernel a page fault. A perf
// record of that run put 29 % of its samples in the kernel's fault path
// (on a virtual machine, where a fault costs more still); with the heap
// beyond the first tens of MB in 2 MiB pages, its faults fall from about
// 66,000 to 17,000 and it takes 0.7 of the time (BenchmarkHugePagesExport
// in cmd/mcpsync holds the ratio). Go's runtime no longer asks for huge
// pages itself (it did in Go 1.21.0 only), and has no setting to ask.
//
// How: Start arms a check after each garbage collection. The first time
// the live heap has reached Trigger, the run is a large one: a goroutine
// then reserves heap address space by allocating one block of Reserve
// bytes, which the runtime maps but never touches, marks that block's
// memory MADV_HUGEPAGE, and frees the block again. The runtime hands out
// heap pages from the lowest free address, so the heap grows into the
// marked memory from there on. A small run never reaches Trigger (an
// export of 1,000 servers to four clients peaks at 12 MB live) and pays
// nothing: no reservation, no marking, its 4 KiB pages and small
// footprint as before.
//
// It does nothing unless it is safe: not where the machine's setting is
// "always" (the kernel does it anyway) or "never" (the administrator said
// no), not with GODEBUG=disablethp=1 (Go's own switch for this), not under
// strict overcommit (vm.overcommit_memory=2, where the reservation would
// count against the commit limit) or an address-space limit (ulimit -v),
// and not on a machine with less than four times Reserve of memory. A
// failure along the way leaves the heap as it was.
package hugeheap

const (
	// Trigger is the live heap, after a collection, that makes a run a
	// large one.
	Trigger = 24 << 20
	// Reserve is the heap address space marked; beyond it the heap grows
	// in 4 KiB pages as before.
	Reserve = 512 << 20
)

// Start arms the check and returns a channel that receives, once the live
// heap has reached Trigger, true when the heap is marked, or false when it
// is not (not allowed here, or the marking failed). A small run's channel
// never receives. Call it first thing in main, before the heap grows.
func Start() <-chan bool { return start() }
