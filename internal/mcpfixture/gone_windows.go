//go:build windows

package mcpfixture

import (
	"time"

	"golang.org/x/sys/windows"
)

// WaitGone waits up to within for process pid to be gone (see
// ProcessGone), and reports whether it is.
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

// ProcessGone reports whether process pid is gone: it cannot be opened,
// or it has an exit code.
func ProcessGone(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return true
	}
	defer windows.CloseHandle(h)
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil {
		return true
	}
	const stillActive = 259
	return code != stillActive
}
