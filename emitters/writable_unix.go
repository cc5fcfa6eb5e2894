//go:build unix

package emitters

import "syscall"

// dirWritable reports whether this process may create and rename files in dir.
func dirWritable(dir string) error {
	return syscall.Access(dir, 0x2|0x1) // W_OK|X_OK
}
