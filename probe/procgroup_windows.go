//go:build windows

package probe

import (
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// On Windows a stdio server runs in a Job Object with kill-on-close: a
// deadline, a cancel or the end of the probe ends the whole process tree
// (npx starts node, cmd /c starts npx), as the process group does on Unix.
//
// mcp-go starts the command itself, so the process is assigned to the job
// as soon as it exists (polled from here): a child started in that first
// moment could escape the job, and is then ended with taskkill /T.

var jobs sync.Map // pid → windows.Handle of its job

func ownGroup(cmd *exec.Cmd, p *process) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP}
	cmd.Cancel = func() error {
		p.signalGroup(sigKill)
		return nil
	}
	go func() {
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			if pid := p.pid(); pid > 0 {
				if job, err := newKillOnCloseJob(pid); err == nil {
					jobs.Store(pid, job)
				}
				return
			}
		}
	}()
}

// newKillOnCloseJob puts process pid in a new job that ends every process
// in it when its last handle closes.
func newKillOnCloseJob(pid int) (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, err
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return 0, err
	}
	proc, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		windows.CloseHandle(job)
		return 0, err
	}
	defer windows.CloseHandle(proc)
	if err := windows.AssignProcessToJobObject(job, proc); err != nil {
		windows.CloseHandle(job)
		return 0, err
	}
	return job, nil
}

// signalGroup on Windows: there is no SIGTERM to send (a console server
// ends when its stdin closes, which shutdown did first); a kill ends the
// job, and so every process in it, or the tree with taskkill /T where the
// process never made it into a job.
func signalGroup(pid int, sig syscall.Signal) {
	if pid <= 0 || sig != sigKill {
		return
	}
	if h, ok := jobs.LoadAndDelete(pid); ok {
		job := h.(windows.Handle)
		windows.TerminateJobObject(job, 1)
		windows.CloseHandle(job)
		return
	}
	exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(pid)).Run() //nolint:errcheck // a tree already gone is the goal
}

const (
	sigTerm = syscall.Signal(15)
	sigKill = syscall.Signal(9)
)
