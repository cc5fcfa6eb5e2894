// Package prefault has the memory a short run's heap is about to grow into
// faulted in ahead of it, on the other processor, as the program starts.
//
// Why: every 4 KiB page of fresh heap first costs a page fault, and on a
// virtual machine each costs several microseconds (more under a
// paravirtualized MMU, as on this project's benchmark machine). A fresh
// export of 50 servers to five clients takes about 1,600 faults, most of
// them its heap growing through the runtime's first 4 MiB chunk, one page
// at a time, on the processor doing the work. Linux can fault a range in
// with one call (MADV_POPULATE_WRITE, 5.14 and later) at about half the
// cost a page, and a goroutine can make that call while main goes on.
// Measured here (medians of 60 runs of each build, in turn): that export
// took 41.0 against 43.9 ms, and 0.3 to 0.5 MB more at its peak (20.0
// against 19.5 MB); an export of 1,000 servers 128 against 133 ms (24
// runs each); list with an empty store, which does not call Heap, did not
// change. In a build that populated for every command, the export took
// about 480 fewer faults (1,165 against 1,646).
//
// How: a large object is allocated and dropped to find where the heap
// grows next (the runtime hands out pages from the lowest free address),
// and the rest of the runtime's 4 MiB chunk from there, which the runtime
// has mapped as a whole, is populated. Populating writes nothing: a page
// faulted in is a zero page, as the runtime expects fresh memory to be.
// Nothing is done beyond the chunk (the runtime maps the next one only
// when it needs it), and nothing fails: where the call is not known (an
// older kernel, another system) it simply does nothing.
//
// Only commands that plan client files call Heap (earlyheap): for one that
// only reads the store (list), the chunk's rest was memory for nothing
// (up to 3.5 MB more at its peak) and the extra thread cost it 0.3 ms.
package prefault

// chunk is the runtime's unit of heap growth (pallocChunkPages pages of
// 8 KiB): the heap is mapped 4 MiB at a time.
const chunk = 4 << 20

// Heap starts faulting in the rest of the heap's current chunk, on a
// goroutine of its own, and returns at once.
func Heap() { heap() }
