//go:build unix || windows

package mcpfixture

import "time"

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
