//go:build !unix

package safefile

// openNonblock: opening a named pipe does not block on this OS.
const openNonblock = 0
