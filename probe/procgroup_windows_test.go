//go:build windows

package probe

import (
	"os/exec"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/internal/mcpfixture"
)

// A server in its job, and what it started, end with a kill of the job.
func TestJobEndsTheTree(t *testing.T) {
	cmd := exec.Command("cmd", "/c", "ping -n 60 127.0.0.1 >NUL")
	p := &process{cmd: cmd}
	ownGroup(cmd, p)
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot start cmd: %v", err)
	}
	pid := cmd.Process.Pid
	for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, ok := jobs.Load(pid); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the process was not put in a job within 3s")
		}
	}
	time.Sleep(300 * time.Millisecond) // ping has started, inside the job
	signalGroup(pid, sigKill)
	cmd.Wait()
	if !mcpfixture.WaitGone(pid, 3*time.Second) {
		t.Fatal("cmd outlived the kill of its job")
	}
}
