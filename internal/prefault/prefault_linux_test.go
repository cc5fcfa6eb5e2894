package prefault

import (
	"errors"
	"syscall"
	"testing"
	"unsafe"
)

// TestPopulate: a range populated is resident, page by page, before it was
// ever touched, and still reads as zeros.
func TestPopulate(t *testing.T) {
	const size = 64 << 10
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(mem)
	start := uintptr(unsafe.Pointer(&mem[0]))
	if n := resident(t, start, size); n != 0 {
		t.Fatalf("%d pages resident before", n)
	}
	if err := populate(start, start+size); errors.Is(err, syscall.EINVAL) {
		t.Skip("this kernel has no MADV_POPULATE_WRITE (Linux 5.14)")
	} else if err != nil {
		t.Fatal(err)
	}
	if n, all := resident(t, start, size), size/syscall.Getpagesize(); n != all {
		t.Fatalf("%d of %d pages resident after", n, all)
	}
	for i, b := range mem {
		if b != 0 {
			t.Fatalf("byte %d is %d", i, b)
		}
	}
}

// TestFrontier: the range Heap populates begins on a page, ends at the end
// of a runtime chunk, and lies within that chunk.
func TestFrontier(t *testing.T) {
	start, end := frontier()
	page := uintptr(syscall.Getpagesize())
	if start%page != 0 || end%chunk != 0 || start > end || end-start > chunk {
		t.Fatalf("frontier [%#x, %#x)", start, end)
	}
	if probe != nil {
		t.Fatal("the probe block is held")
	}
}

// resident counts the pages of [start, start+size) in memory (mincore).
func resident(t *testing.T, start, size uintptr) int {
	t.Helper()
	page := uintptr(syscall.Getpagesize())
	vec := make([]byte, (size+page-1)/page)
	if _, _, errno := syscall.Syscall(syscall.SYS_MINCORE, start, size, uintptr(unsafe.Pointer(&vec[0]))); errno != 0 {
		t.Fatal(errno)
	}
	n := 0
	for _, v := range vec {
		n += int(v & 1)
	}
	return n
}
