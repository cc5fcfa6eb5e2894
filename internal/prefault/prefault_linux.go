package prefault

import (
	"syscall"
	"unsafe"
)

// madvPopulateWrite is MADV_POPULATE_WRITE (Linux 5.14), in
// <asm-generic/mman-common.h>.
const madvPopulateWrite = 23

// probe holds the block that finds the heap's frontier, so that it is
// allocated on the heap, not on the stack (it would fit there).
var probe []byte

func heap() {
	start, end := frontier()
	if start >= end {
		return
	}
	go populate(start, end)
}

// frontier is the rest of the heap's current chunk after a large object
// allocated now, the pages of which the heap hands out next: [start, end),
// start page-aligned, end the chunk's end.
func frontier() (start, end uintptr) {
	probe = make([]byte, 40<<10) // a large object: taken from the lowest free pages
	p := uintptr(unsafe.Pointer(&probe[0])) + uintptr(len(probe))
	probe = nil
	page := uintptr(syscall.Getpagesize())
	start = (p + page - 1) &^ (page - 1)
	end = (p + chunk - 1) &^ (chunk - 1)
	return start, end
}

// populate faults [start, end) in, writable; errors are ignored (see the
// package comment).
func populate(start, end uintptr) error {
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, start, end-start, madvPopulateWrite)
	if errno != 0 {
		return errno
	}
	return nil
}
