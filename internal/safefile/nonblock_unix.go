//go:build unix

package safefile

import "syscall"

// openNonblock keeps the open of a FIFO from waiting for a writer, so that
// it can be refused as not a regular file.
const openNonblock = syscall.O_NONBLOCK
