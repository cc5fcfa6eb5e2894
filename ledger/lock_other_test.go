//go:build !unix

package ledger

func isUnlockedPlatform() bool { return true }
