//go:build windows

package mcpfixture

import (
	"golang.org/x/sys/windows"
)

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
