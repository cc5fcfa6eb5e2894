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
// pages the first takes about 3,400 faults instead of 66,000 and 0.55 of
// the time, the second 1,600 to 1,900 instead of 3,000 and 0.9 of the
// time (BenchmarkHugePagesExport in cmd/mcpsync holds the ratios). Go's
// runtime no longer asks for huge pages itself (it did in Go 1.21.0
// only), and has no setting to ask.
//
// How: Mark, called before the heap grows (package internal/earlyheap
// calls it in its init, which Go runs before the packages that fill the
// heap at start), has the runtime map
// Reserve bytes of heap by allocating one block with the collector off,
// marks that memory and the mapping below it MADV_HUGEPAGE, and drops
// the block: the first collection frees it, and the runtime, which hands
// out heap pages from the lowest free address, grows the heap into the
// marked memory. The block is never touched, so it costs address space,
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

// Reserve is the heap marked; beyond it the heap grows in 4 KiB pages.
const Reserve = 512 << 20

// Mark marks the heap for huge pages now and reports whether it did. Call
// it once, as the program starts: it costs 1 to 3 ms, which a command
// that only prints a fixed text (mcpsync version) should not pay.
func Mark() bool { return mark() }
