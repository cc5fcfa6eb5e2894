//go:build !linux

package prefault

func heap() {}
