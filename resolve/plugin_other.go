//go:build !unix

package resolve

import "os/exec"

// killGroup leaves the default: the deadline kills the plugin process.
func killGroup(cmd *exec.Cmd) {}
