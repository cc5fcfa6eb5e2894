//go:build unix

package atomicfile

import (
	"errors"
	"io/fs"
	"syscall"
)

// writerGone reports whether the process that made a temporary file has
// ended. EPERM means it runs, as another user.
func writerGone(pid int, _ fs.DirEntry) bool {
	err := syscall.Kill(pid, 0)
	return err != nil && !errors.Is(err, syscall.EPERM)
}
