package atomicfile

import (
	"errors"
	"strings"
	"testing"
	"time"
)

var errBusy = errors.New("the process cannot access the file because it is being used by another process")

func TestReplaceRetriesWhileBusy(t *testing.T) {
	tries := 0
	err := replace("/x/mcp.json", func() error {
		if tries++; tries < 3 {
			return errBusy
		}
		return nil
	}, func(err error) bool { return err == errBusy }, time.Second)
	if err != nil || tries != 3 {
		t.Fatalf("replace = %v after %d tries; want success on the third", err, tries)
	}
}

func TestReplaceSaysWhoHoldsTheFile(t *testing.T) {
	err := replace("/x/mcp.json", func() error { return errBusy }, func(err error) bool { return err == errBusy }, 50*time.Millisecond)
	if err == nil || !errors.Is(err, errBusy) || !strings.Contains(err.Error(), "/x/mcp.json") || !strings.Contains(err.Error(), "unchanged") {
		t.Fatalf("replace = %v; want the file named, the cause kept, and that nothing changed", err)
	}
	other := errors.New("no space left on device")
	tries := 0
	if err := replace("/x", func() error { tries++; return other }, func(err error) bool { return err == errBusy }, time.Second); err != other || tries != 1 {
		t.Fatalf("a failure that is not busy: %v after %d tries; want it at once", err, tries)
	}
}
