//go:build windows

package atomicfile

import (
	"errors"

	"golang.org/x/sys/windows"
)

// busy reports whether a rename failed because another program holds the
// file open: a sharing or lock violation, or the access denied that
// MoveFileEx returns for a file open without FILE_SHARE_DELETE.
func busy(err error) bool {
	return errors.Is(err, windows.ERROR_SHARING_VIOLATION) || errors.Is(err, windows.ERROR_LOCK_VIOLATION) ||
		errors.Is(err, windows.ERROR_ACCESS_DENIED)
}
