package probe

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
)

// The reference server of the MCP project, from npm: the probe must work
// against a real third-party server, not only against our own fixture.
const everythingPackage = "@modelcontextprotocol/server-everything"

var everythingMu sync.Mutex

// everythingEntry installs the package once into a cache under
// os.UserCacheDir (reused by later runs, so only the first one downloads)
// and returns the path of its entry point, or skips the test with the
// reason when npm or its registry is not available.
func everythingEntry(t *testing.T) (node, entry string) {
	t.Helper()
	// One install at a time: the tests run in parallel and share the prefix.
	everythingMu.Lock()
	defer everythingMu.Unlock()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("SKIP: node is not installed; the server-everything test needs node and npm")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("SKIP: npm is not installed; the server-everything test needs it")
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skipf("SKIP: no user cache directory for the npm install: %v", err)
	}
	prefix := filepath.Join(cache, "mcpsync-test", "npm")
	entry = filepath.Join(prefix, "node_modules", filepath.FromSlash(everythingPackage), "dist", "index.js")
	if _, err := os.Stat(entry); err == nil {
		return node, entry
	}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, npm, "view", everythingPackage, "version").CombinedOutput(); err != nil {
		t.Skipf("SKIP: npm registry not reachable: %v: %s", err, lastLine(out))
	}
	ctx, cancel = context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	install := exec.CommandContext(ctx, npm, "install", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel=error", everythingPackage)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("npm install %s: %v\n%s", everythingPackage, err, out)
	}
	if _, err := os.Stat(entry); err != nil {
		t.Fatalf("npm installed %s but its entry point is missing: %v", everythingPackage, err)
	}
	return node, entry
}

func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[len(lines)-1]
}

func TestServerEverythingStdio(t *testing.T) {
	t.Parallel()
	node, entry := everythingEntry(t)
	opts := testOptions(t)
	opts.Timeout = 60 * time.Second
	r := One(t.Context(), canonical.Server{Name: "everything", Command: node, Args: []string{entry}}, opts)
	checkEverything(t, r)
}

func TestServerEverythingStreamableHTTP(t *testing.T) {
	t.Parallel()
	node, entry := everythingEntry(t)
	port := freePort(t)
	srv := exec.Command(node, entry, "streamableHttp")
	srv.Env = append(os.Environ(), "PORT="+port)
	inOwnGroup(srv)
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		killOwnGroup(srv)
		_ = srv.Wait()
	})
	waitListening(t, "127.0.0.1:"+port, 30*time.Second)
	opts := testOptions(t)
	opts.Timeout = 30 * time.Second
	opts.Retries = 2
	r := One(t.Context(), canonical.Server{Name: "everything", URL: "http://127.0.0.1:" + port + "/mcp"}, opts)
	checkEverything(t, r)
}

func checkEverything(t *testing.T, r Result) {
	t.Helper()
	wantState(t, r, Ready, "")
	if len(r.Tools) == 0 || r.Protocol == "" || r.ServerInfo == nil {
		t.Fatalf("tools %q protocol %q server %+v", r.Tools, r.Protocol, r.ServerInfo)
	}
	t.Logf("%s %s over %s: %d tools, protocol %s, %v", r.ServerInfo.Name, r.ServerInfo.Version, r.Transport,
		len(r.Tools), r.Protocol, r.Latency)
}

func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
}

func waitListening(t *testing.T, addr string, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing listens on %s after %v: %v", addr, limit, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
