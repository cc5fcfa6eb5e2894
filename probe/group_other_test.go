//go:build !unix

package probe

import "os/exec"

// inOwnGroup: without process groups the test's server is killed alone.
func inOwnGroup(*exec.Cmd) {}

func killOwnGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
