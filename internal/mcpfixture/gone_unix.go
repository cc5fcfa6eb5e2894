//go:build unix

package mcpfixture

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// WaitGone waits up to within for process pid to be gone (see
// ProcessGone), and reports whether it is: tests use it to prove that the
// processes a fixture started (its -pid-file) did not outlive a probe.
func WaitGone(pid int, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for !ProcessGone(pid) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}

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
