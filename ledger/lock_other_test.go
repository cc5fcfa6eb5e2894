//go:build !unix && !windows

package ledger

func isUnlockedPlatform() bool { return true }
