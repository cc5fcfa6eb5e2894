//go:build unix

package state

func isUnlockedPlatform() bool { return false }
