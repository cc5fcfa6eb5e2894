//go:build unix

package probe

import (
	"os/exec"
	"syscall"
)

// ownGroup makes the command the leader of a new process group, so that
// everything it starts (npx starts node, uvx starts python) can be killed
// with it, and makes cancelling the command's context kill the whole group.
func ownGroup(cmd *exec.Cmd, p *process) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		p.signalGroup(syscall.SIGKILL)
		return nil
	}
}

// signalGroup sends sig to the process group led by pid. A group that no
// longer exists is not an error: that is the goal.
func signalGroup(pid int, sig syscall.Signal) {
	if pid > 0 {
		_ = syscall.Kill(-pid, sig)
	}
}

const (
	sigTerm = syscall.SIGTERM
	sigKill = syscall.SIGKILL
)
