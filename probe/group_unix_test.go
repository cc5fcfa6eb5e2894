//go:build unix

package probe

import (
	"os/exec"
	"syscall"
)

// inOwnGroup makes a test's server the leader of its own process group,
// so that killOwnGroup ends it and whatever it started.
func inOwnGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

func killOwnGroup(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
