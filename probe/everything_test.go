package probe

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
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
	port := startEverythingHTTP(t, node, entry)
	opts := testOptions(t)
	opts.Timeout = 30 * time.Second
	opts.Retries = 2
	r := One(t.Context(), canonical.Server{Name: "everything", URL: "http://127.0.0.1:" + port + "/mcp"}, opts)
	checkEverything(t, r)
}

// The server's port is one no other socket of the tests gets by chance:
// below the range the system hands out for port 0 (every other test's
// listeners and every outgoing connection), and free on the loopback when
// picked. freePort's port was from that range, free only as it was
// picked: a parallel test's listener could take it before the server
// listened, and the probe then spoke to that listener and failed.
func TestServerPortIsNoEphemeralOne(t *testing.T) {
	lo, ok := ephemeralFrom()
	if !ok {
		t.Skip("SKIP: no ephemeral port range to read here (/proc/sys/net/ipv4/ip_local_port_range)")
	}
	var held []string
	for range 20 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		held = append(held, fmt.Sprint(ln.Addr().(*net.TCPAddr).Port))
	}
	for range 20 {
		port := serverPort(t)
		if n, _ := strconv.Atoi(port); n >= lo || slices.Contains(held, port) {
			t.Fatalf("server port %s: from the range ports are handed out from (%d and up), where the tests' own listeners are", port, lo)
		}
	}
}

// ephemeralFrom returns the first port of the range the system hands out
// for port 0 (Linux).
func ephemeralFrom() (int, bool) {
	data, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(data))
	if len(f) != 2 {
		return 0, false
	}
	lo, err := strconv.Atoi(f[0])
	return lo, err == nil && lo > 2048
}

// serverPort picks a port for a test's server: below the ephemeral range
// where there is one (see TestServerPortIsNoEphemeralOne), free on the
// loopback as it is picked; elsewhere, freePort's.
func serverPort(t *testing.T) string {
	t.Helper()
	lo, ok := ephemeralFrom()
	if !ok {
		return freePort(t)
	}
	from := max(1024, lo-8000)
	for range 50 {
		port := fmt.Sprint(from + rand.IntN(lo-from))
		if ln, err := net.Listen("tcp", "127.0.0.1:"+port); err == nil {
			ln.Close()
			return port
		}
	}
	return freePort(t)
}

// startEverythingHTTP starts server-everything over streamable HTTP on a
// port of serverPort's and returns the port once the server itself says
// it listens there. A port taken meanwhile makes the server say so and
// exit: another port is tried.
func startEverythingHTTP(t *testing.T, node, entry string) string {
	t.Helper()
	for range 5 {
		port := serverPort(t)
		srv := exec.Command(node, entry, "streamableHttp")
		srv.Env = append(os.Environ(), "PORT="+port)
		inOwnGroup(srv)
		out, err := srv.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := srv.Start(); err != nil {
			t.Fatal(err)
		}
		stop := func() {
			killOwnGroup(srv)
			_ = srv.Wait()
		}
		said := make(chan string, 1)
		go func() {
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				if line := sc.Text(); strings.Contains(line, "listening on port "+port) || strings.Contains(line, "already in use") {
					said <- line
					break
				}
			}
			close(said)
			_, _ = io.Copy(io.Discard, out) // the server may go on writing
		}()
		select {
		case line, ok := <-said:
			if ok && strings.Contains(line, "listening on port") {
				t.Cleanup(stop)
				return port
			}
			stop()
			t.Logf("port %s: %s; trying another", port, line)
		case <-time.After(30 * time.Second):
			stop()
			t.Fatalf("server-everything said nothing of port %s in 30s", port)
		}
	}
	t.Fatal("server-everything found no port to listen on in 5 tries")
	return ""
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
