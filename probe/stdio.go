package probe

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
)

// Shutdown timings for a stdio server once the probe is done with it: the
// server gets closeGrace after stdin closes to exit by itself (flushing
// logs, removing a docker container), then SIGTERM and closeGrace more,
// then SIGKILL for the whole group. waitDelay bounds how long os/exec waits
// for a killed server's pipes, which a grandchild outside the group could
// hold open.
const (
	closeGrace = 250 * time.Millisecond
	waitDelay  = time.Second
)

// process is the stdio server's *exec.Cmd, kept to report its exit code and
// to kill its process group.
type process struct {
	mu        sync.Mutex
	cmd       *exec.Cmd
	signalled atomic.Bool // the probe signalled it, so an exit is not its own doing
}

func (p *process) pid() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil || p.cmd.Process == nil {
		return 0
	}
	return p.cmd.Process.Pid
}

func (p *process) markSignalled() { p.signalled.Store(true) }

func (p *process) signalGroup(sig syscall.Signal) {
	p.markSignalled()
	signalGroup(p.pid(), sig)
}

// commandFunc builds the server's command: base (see baseEnv) plus the
// server's expanded env (later entries win), the checked working directory,
// stderr into the tail, and its own process group.
func (p *process) commandFunc(dir string, base []string, stderr *tailWriter) transport.CommandFunc {
	return func(ctx context.Context, name string, env, args []string) (*exec.Cmd, error) {
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Env = append(base, env...)
		cmd.Dir = dir
		// With Stderr set, mcp-go leaves stderr to os/exec, whose Wait
		// returns only once every byte is copied: the tail is complete
		// when the server has exited.
		cmd.Stderr = stderr
		cmd.WaitDelay = waitDelay
		ownGroup(cmd, p)
		p.mu.Lock()
		p.cmd = cmd
		p.mu.Unlock()
		return cmd, nil
	}
}

// shutdown closes the client and makes sure nothing of the server is left:
// stdin is closed, the server gets closeGrace to exit, then its whole group
// is sent SIGTERM, then SIGKILL. The final SIGKILL also reaches children the
// server left behind in its group after it exited.
func (p *process) shutdown(c *client.Client, cancel context.CancelFunc) {
	done := make(chan struct{})
	go func() {
		_ = c.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(closeGrace):
		p.signalGroup(sigTerm)
		select {
		case <-done:
		case <-time.After(closeGrace):
			cancel() // os/exec calls Cancel: SIGKILL to the group
			p.signalGroup(sigKill)
			<-done
		}
	}
	if p.pid() > 0 {
		signalGroup(p.pid(), sigKill)
	}
}

// exitState describes how the process ended, once it has been waited for.
func (p *process) exitState() (exited bool, code *int, how string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil || p.cmd.ProcessState == nil {
		return false, nil, ""
	}
	ps := p.cmd.ProcessState
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		if p.signalled.Load() {
			return false, nil, ""
		}
		return true, nil, "was killed by signal " + ws.Signal().String()
	}
	c := ps.ExitCode()
	return true, &c, fmt.Sprintf("exited with code %d", c)
}

// startFailure classifies an error from starting the command.
func startFailure(err error, command string) (Category, string, string) {
	var pe *fs.PathError
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return CommandNotFound, fmt.Sprintf("command %q not found in PATH", command),
			"install it, or set \"command\" to its full path"
	case errors.As(err, &pe) && pe.Op == "chdir":
		return SpawnFailed, fmt.Sprintf("cannot enter the working directory %s: %v", pe.Path, pe.Err), "fix \"cwd\""
	case errors.Is(err, fs.ErrNotExist):
		return CommandNotFound, fmt.Sprintf("command %q does not exist", command),
			"install it, or fix the path in \"command\""
	case errors.Is(err, fs.ErrPermission):
		return SpawnFailed, fmt.Sprintf("command %q cannot be run: permission denied", command),
			"make it executable (chmod +x) or run it through its interpreter"
	}
	return SpawnFailed, fmt.Sprintf("command %q could not be started: %v", command, unwrapAll(err)),
		"run the command by hand to see why"
}

// unwrapAll returns the innermost error, which for os/exec failures is the
// system's own message without mcp-go's and exec's prefixes.
func unwrapAll(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}
