//go:build !unix && !windows

package probe

import (
	"os/exec"
	"syscall"
)

// ownGroup on systems without process groups kills the command itself when
// its context is cancelled; its children may outlive it there.
func ownGroup(cmd *exec.Cmd, p *process) {
	cmd.Cancel = func() error {
		p.markSignalled()
		return cmd.Process.Kill()
	}
}

func signalGroup(pid int, sig syscall.Signal) {}

const (
	sigTerm = syscall.Signal(15)
	sigKill = syscall.Signal(9)
)
