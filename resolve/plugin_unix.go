//go:build unix

package resolve

import (
	"os/exec"
	"syscall"
)

// killGroup runs the plugin in its own process group and makes the
// deadline kill the whole group: an agent such as claude -p starts
// children that would otherwise outlive it.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
