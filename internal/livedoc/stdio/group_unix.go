//go:build unix

package stdio

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts the server in a process group of its own, so that
// the children it starts (npx starts node, a wrapper script its program) are
// killed with it.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// terminateProcessGroup sends SIGTERM to the server's process group, killProcessGroup
// SIGKILL. Its leader's id is the group's; a group already gone is no error
// worth reporting.
func terminateProcessGroup(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }

func killProcessGroup(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
