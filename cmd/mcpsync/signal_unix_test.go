//go:build unix

package main

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSignalStopsACommand: Ctrl-C (SIGINT) and SIGTERM stop a running
// command through its own cancellation (mainWith), not the Go runtime's
// default, which ends the process at once: watch, already watching, says
// it stopped and exits 0. The handler is set up beside the command's start;
// watch, which writes under the lock, waits for it there (Engine.Ready).
func TestSignalStopsACommand(t *testing.T) {
	bin := mcpsyncBinary(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			home := t.TempDir()
			write(t, filepath.Join(home, storeFile), []byte(e2eStore))
			write(t, filepath.Join(home, cursorFile), []byte("{\n  \"mcpServers\": {}\n}\n"))
			cmd := exec.Command(bin, "watch")
			cmd.Dir = home
			cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
				"XDG_STATE_HOME="+filepath.Join(home, ".local", "state"), "XDG_CACHE_HOME="+filepath.Join(home, ".cache"), "NO_COLOR=1")
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			lines := make(chan string, 100)
			go func() {
				sc := bufio.NewScanner(stderr)
				for sc.Scan() {
					lines <- sc.Text()
				}
				close(lines)
			}()
			var said []string
			watching := false
			for deadline := time.After(30 * time.Second); !watching; {
				select {
				case line, ok := <-lines:
					if !ok {
						t.Fatalf("watch ended before it watched: %q", said)
					}
					said = append(said, line)
					watching = strings.Contains(line, "Ctrl-C stops")
				case <-deadline:
					cmd.Process.Kill()
					t.Fatalf("watch did not start: %q", said)
				}
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			for line := range lines {
				said = append(said, line)
			}
			err = cmd.Wait()
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				t.Fatalf("after %v watch exited %v, want 0 (stopped by its own handler); it said %q", sig, exit, said)
			} else if err != nil {
				t.Fatal(err)
			}
			if said[len(said)-1] != "stopped" {
				t.Errorf("after %v watch said %q, want it to end with \"stopped\"", sig, said)
			}
		})
	}
}
