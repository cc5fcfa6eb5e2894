//go:build unix

package store

import (
	"os"
	"syscall"
)

// sameFilesystem reports whether dir is on the filesystem start is on.
func sameFilesystem(start os.FileInfo, dir string) bool {
	fi, err := os.Stat(dir)
	if err != nil || start == nil {
		return false
	}
	a, okA := start.Sys().(*syscall.Stat_t)
	b, okB := fi.Sys().(*syscall.Stat_t)
	return !okA || !okB || a.Dev == b.Dev
}

// ownDir reports whether dir is the user's (or root's) and not writable by
// everyone.
func ownDir(dir string) bool {
	fi, err := os.Stat(dir)
	if err != nil || fi.Mode().Perm()&0o002 != 0 {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return !ok || int(st.Uid) == os.Getuid() || st.Uid == 0
}
