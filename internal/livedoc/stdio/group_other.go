//go:build !unix

package stdio

import "os/exec"

// setProcessGroup does nothing where there are no Unix process groups.
func setProcessGroup(*exec.Cmd) {}

// terminateProcessGroup does nothing: Windows has no SIGTERM, and a console
// signal would reach Terraform too. The server is killed after the grace.
func terminateProcessGroup(*exec.Cmd) {}

// killProcessGroup kills the server itself: without Unix process groups
// (Windows), the children it started are not reached.
func killProcessGroup(cmd *exec.Cmd) {
	_ = cmd.Process.Kill() // already exited is no error worth reporting
}
