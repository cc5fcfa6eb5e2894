//go:build unix

package mcpfixture

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// ProcessGone reports whether process pid is gone: not running, or a
// zombie waiting for its parent (init) to reap it, which holds nothing.
func ProcessGone(pid int) bool {
	if err := syscall.Kill(pid, 0); err == syscall.ESRCH {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		// Without /proc (macOS) a process kill(2) still reaches is running.
		_, noProc := os.Stat("/proc/self")
		return os.IsNotExist(err) && noProc == nil
	}
	// The state follows the command name in parentheses: "pid (comm) Z ...".
	if i := strings.LastIndexByte(string(stat), ')'); i >= 0 && i+2 < len(stat) {
		return stat[i+2] == 'Z' || stat[i+2] == 'X'
	}
	return false
}
