package emitters_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/emitters"
)

// TestEachDiffIsDiffInOrder: the diffs EachDiff emits, made side by side,
// come in plan order and are each file's diff, whatever the processors;
// an error from emit stops it there.
func TestEachDiffIsDiffInOrder(t *testing.T) {
	p := plan200(t)
	changes := p.Changes()
	if len(changes) < 10 {
		t.Fatalf("plan200 changes %d files; the test needs many", len(changes))
	}
	opts := emitters.DiffOptions{Mask: p.SecretMask()}
	var want []string
	for _, fc := range changes {
		want = append(want, fc.Diff(opts))
	}
	for _, procs := range []int{1, 2, 8} {
		old := runtime.GOMAXPROCS(procs)
		var got []string
		if err := p.EachDiff(opts, func(d string) error { got = append(got, d); return nil }); err != nil {
			t.Fatal(err)
		}
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Fatalf("GOMAXPROCS=%d: EachDiff emitted %d diffs, not each file's in plan order", procs, len(got))
		}
		if d := p.Diff(opts); d != strings.Join(want, "") {
			t.Fatalf("GOMAXPROCS=%d: Diff is not the files' diffs in order", procs)
		}
		stop := errors.New("stop")
		calls := 0
		err := p.EachDiff(opts, func(string) error {
			if calls++; calls == 3 {
				return stop
			}
			return nil
		})
		runtime.GOMAXPROCS(old)
		if err != stop || calls != 3 {
			t.Fatalf("GOMAXPROCS=%d: emit failing on the third diff: EachDiff returned %v after %d calls", procs, err, calls)
		}
	}
}
