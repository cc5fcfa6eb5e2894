//go:build unix

package mcpfixture

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

func TestWaitGone(t *testing.T) {
	if ProcessGone(os.Getpid()) {
		t.Fatal("this process is taken for gone")
	}
	if WaitGone(os.Getpid(), 50*time.Millisecond) {
		t.Fatal("WaitGone of this process returned true")
	}
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot start sleep: %v", err)
	}
	pid := cmd.Process.Pid
	if ProcessGone(pid) {
		t.Fatal("a running child is taken for gone")
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	// Not reaped yet: a zombie, which counts as gone.
	if !WaitGone(pid, 3*time.Second) {
		t.Errorf("killed child %d is not gone", pid)
	}
	_ = cmd.Wait()
	if !ProcessGone(pid) {
		t.Errorf("reaped child %d is not gone", pid)
	}
}
