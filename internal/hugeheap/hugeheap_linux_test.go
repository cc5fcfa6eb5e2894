package hugeheap

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
)

func TestAllowed(t *testing.T) {
	ok := settings{thp: "always [madvise] never\n", overcommit: "0", memTotal: 8 << 30}
	if !ok.allowed() {
		t.Fatal("madvise mode, heuristic overcommit, no limit, 8 GiB: not allowed")
	}
	for name, s := range map[string]settings{
		"always":            {thp: "[always] madvise never", overcommit: "0", memTotal: 8 << 30},
		"never":             {thp: "always madvise [never]", overcommit: "0", memTotal: 8 << 30},
		"no thp at all":     {thp: "", overcommit: "0", memTotal: 8 << 30},
		"strict overcommit": {thp: "always [madvise] never", overcommit: "2", memTotal: 8 << 30},
		"disablethp":        {thp: "always [madvise] never", overcommit: "0", godebug: "gctrace=1,disablethp=1", memTotal: 8 << 30},
		"ulimit -v":         {thp: "always [madvise] never", overcommit: "0", asLimited: true, memTotal: 8 << 30},
		"small machine":     {thp: "always [madvise] never", overcommit: "1", memTotal: 1 << 30},
	} {
		if s.allowed() {
			t.Errorf("%s: allowed", name)
		}
	}
	if s := (settings{thp: "always [madvise] never", overcommit: "0", godebug: "disablethp=10", memTotal: 8 << 30}); !s.allowed() {
		t.Error("disablethp=10 is not disablethp=1")
	}
}

func TestFindMapping(t *testing.T) {
	maps := []byte(`00400000-00599000 r-xp 00000000 fd:01 1234   /usr/bin/mcpsync
2531e4000000-2531e7800000 ---p 00000000 00:00 0
2531e7800000-2531fa800000 rw-p 00000000 00:00 0
7ffffd6b2000-7ffffd6d3000 rw-p 00000000 00:00 0                          [stack]
`)
	lo, hi, ok := findMapping(maps, 0x2531e9000000)
	if !ok || lo != 0x2531e7800000 || hi != 0x2531fa800000 {
		t.Errorf("findMapping = %x %x %v", lo, hi, ok)
	}
	if _, _, ok := findMapping(maps, 0x2531fa800000); ok {
		t.Error("the end of a mapping is not in it")
	}
}

// TestMark: where this machine lets a program choose, Mark marks Reserve
// bytes of heap (nearly: rounded to huge pages), "hg" in the VmFlags of
// /proc/self/smaps from end to end.
func TestMark(t *testing.T) {
	if !read().allowed() {
		t.Skip("transparent huge pages are not left to each program here (or not safe to ask for): Mark does nothing")
	}
	if !Mark() {
		t.Fatal("Mark did nothing where it is allowed")
	}
	if marked[1]-marked[0] < Reserve-2*hugePage {
		t.Fatalf("marked %#x-%#x, less than Reserve", marked[0], marked[1])
	}
	wantMarked(t, marked[0])
	wantMarked(t, marked[1]-1)
	// The reservation is given back to the system once dropped: counted
	// as the program's memory, it would put a run over internal/gctune's
	// memory limit from the start.
	s := []metrics.Sample{{Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	if released := s[0].Value.Uint64(); released < Reserve-4*hugePage {
		t.Errorf("after Mark, %d MiB of heap released; want the reservation's %d MiB", released>>20, Reserve>>20)
	}
}

// wantMarked fails t unless the mapping holding at is marked for huge
// pages ("hg" in its VmFlags in /proc/self/smaps).
func wantMarked(t *testing.T, at uintptr) {
	t.Helper()
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	var in bool
	for _, l := range strings.Split(string(smaps), "\n") {
		if _, _, ok := findMapping([]byte(l), at); ok {
			in = true
			continue
		}
		if in && strings.HasPrefix(l, "VmFlags:") {
			if !strings.Contains(l, " hg") {
				t.Fatalf("the memory at %#x is not marked: %s", at, l)
			}
			return
		}
	}
	t.Fatalf("no mapping in /proc/self/smaps holds %#x", at)
}

// TestInput: in a fresh process, with OnInput, the heap is marked once
// one input reaches InputThreshold or all of them InputsThreshold, not
// before; a file read twice counts once; and nothing is marked when a
// collection has run first (the reservation could then begin in freed
// memory). Each case runs in a child process of its own.
func TestInput(t *testing.T) {
	switch os.Getenv("HUGEHEAP_CHILD") {
	case "threshold":
		OnInput()
		Input(InputThreshold - 1)
		if marked != [2]uintptr{} {
			t.Fatal("marked below the threshold")
		}
		Input(InputThreshold)
		if marked == [2]uintptr{} {
			t.Fatal("not marked by an input of the threshold")
		}
		wantMarked(t, marked[0])
		return
	case "inputs":
		OnInput()
		var all int64
		for all+InputThreshold-1 < InputsThreshold {
			Input(InputThreshold - 1)
			all += InputThreshold - 1
		}
		if marked != [2]uintptr{} {
			t.Fatalf("marked by %d bytes of small inputs", all)
		}
		Input(InputsThreshold - all)
		if marked == [2]uintptr{} {
			t.Fatal("not marked when the inputs reached InputsThreshold")
		}
		return
	case "files":
		OnInput()
		const files = InputsThreshold/(InputThreshold-1) + 1 // that many reach InputsThreshold
		for range files {
			InputFile("/p/a.json", InputThreshold-1) // read again and again: counted once
		}
		if marked != [2]uintptr{} {
			t.Fatal("marked by one file read many times")
		}
		for i := range files - 1 {
			InputFile(fmt.Sprintf("/p/%d.json", i), InputThreshold-1)
		}
		if marked == [2]uintptr{} {
			t.Fatal("not marked when distinct files reached InputsThreshold")
		}
		return
	case "after-gc":
		OnInput()
		runtime.GC()
		Input(InputThreshold)
		if marked != [2]uintptr{} {
			t.Fatal("marked after a collection")
		}
		return
	case "no-oninput":
		Input(InputThreshold)
		if marked != [2]uintptr{} {
			t.Fatal("marked without OnInput")
		}
		return
	}
	if !read().allowed() {
		t.Skip("transparent huge pages are not left to each program here (or not safe to ask for): nothing is marked")
	}
	for _, child := range []string{"threshold", "inputs", "files", "after-gc", "no-oninput"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestInput$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "HUGEHEAP_CHILD="+child)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS") {
			t.Errorf("%s: %v\n%s", child, err, out)
		}
	}
}
