package engine_test

import (
	"testing"
	"time"
)

// TestLockWaitsUntilReady: Lock, which every write takes, does not return
// before Ready is closed (the command line closes it once Ctrl-C is
// handled), and returns at once after.
func TestLockWaitsUntilReady(t *testing.T) {
	e, _, done := sandbox("")
	defer done()
	ready := make(chan struct{})
	e.Ready = ready
	locked := make(chan error, 1)
	go func() {
		l, err := e.Lock()
		if err == nil {
			l.Unlock()
		}
		locked <- err
	}()
	select {
	case err := <-locked:
		t.Fatalf("Lock returned (%v) before Ready was closed", err)
	case <-time.After(100 * time.Millisecond):
	}
	close(ready)
	select {
	case err := <-locked:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Lock did not return once Ready was closed")
	}
}
