package secrets

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/benchgoal"
)

// benchLines are the lines of a typical diff of client files: mostly
// harmless, a few references, one secret.
var benchLines = []string{
	`{`, `  "mcpServers": {`, `    "github": {`, `      "command": "npx",`,
	`      "args": ["-y", "@modelcontextprotocol/server-github"],`,
	`      "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "${env:GITHUB_TOKEN}"}`,
	`    "linear": {"url": "https://mcp.linear.app/mcp", "headers": {"Authorization": "Bearer lin_api_Kq2Vn9Lm4Rt8Wz1Pc5Sb3Dg6Fj0AHx7Kq2Vn"}}`,
	`[mcp_servers.fetch]`, `command = "uvx"`, `args = ["mcp-server-fetch"]`, `  }`, `}`,
}

// BenchmarkMaskLine masks one line of a diff (the per-line cost of a
// masked diff).
func BenchmarkMaskLine(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		MaskLine(benchLines[i%len(benchLines)])
	}
}

// BenchmarkMaskTokens is the masking every line of output goes through.
func BenchmarkMaskTokens(b *testing.B) {
	text := strings.Join(benchLines, "\n") + "\n"
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		MaskTokens(text)
	}
}

// BenchmarkScanServer scans one server with env, headers, args and a URL.
func BenchmarkScanServer(b *testing.B) {
	srv := canonical.Server{Name: "s", Transport: canonical.Stdio, Command: "npx",
		Args: []string{"-y", "@example/server", "--api-key", "abcd1234efgh5678", "--port", "8080"},
		Env:  map[string]string{"GITHUB_TOKEN": "${GITHUB_TOKEN}", "MODE": "fast", "API_KEY": "sk-live-123456", "HOME_DIR": "/home/u"}}
	b.ReportAllocs()
	for b.Loop() {
		if len(ScanServer(srv)) != 2 {
			b.Fatal("want 2 findings")
		}
	}
}

// secretServers is n servers, each holding a literal token of its own in
// its env and in a header: the servers of client files that keep their
// secrets in the file, as a plan reads them.
func secretServers(n int) canonical.Set {
	var set canonical.Set
	for i := range n {
		set.Servers = append(set.Servers, canonical.Server{Name: fmt.Sprintf("s%05d", i), Transport: canonical.Stdio, Command: "npx",
			Args: []string{"-y", "@example/server"},
			Env:  map[string]string{"API_KEY": fmt.Sprintf("sk-live-%08dabcdefgh", i)}})
		set.Servers = append(set.Servers, canonical.Server{Name: fmt.Sprintf("r%05d", i), Transport: canonical.HTTP,
			URL: "https://mcp.example.com/mcp", Headers: map[string]string{"Authorization": fmt.Sprintf("Bearer tok%08dXYZW", i)}})
	}
	return set
}

// BenchmarkScrubberFor makes the scrubber of a masked diff (every secret
// of every server the plan read or writes) and masks one line with it,
// for 1,000 and 10,000 servers with secrets: x-from-1000 holds it linear
// (at most 11×; 10× is linear).
func BenchmarkScrubberFor(b *testing.B) {
	timeOf := func(n int) time.Duration {
		set := secretServers(n / 2)
		line := fmt.Sprintf(`      "API_KEY": "sk-live-%08dabcdefgh"`, n/4)
		start := time.Now()
		for range b.N {
			if got := ScrubberFor(set).Line(line); strings.Contains(got, "abcdefgh") {
				b.Fatalf("secret not masked: %s", got)
			}
		}
		return time.Since(start) / time.Duration(b.N)
	}
	benchgoal.Linear(b, timeOf(1000), timeOf(10000))
}

// BenchmarkScanServerClean scans the three servers of the speed
// benchmarks (stdio with an env reference, http with a header reference,
// sse), which hold no secret: what a plan checks for every server it
// writes into a project's file.
func BenchmarkScanServerClean(b *testing.B) {
	servers := []canonical.Server{
		{Name: "fs-00000", Transport: canonical.Stdio, Command: "npx",
			Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/srv/0"},
			Env:  map[string]string{"API_KEY": "${API_KEY}"}},
		{Name: "remote-00001", Transport: canonical.HTTP, URL: "https://mcp1.example.com/mcp",
			Headers: map[string]string{"Authorization": "Bearer ${TOKEN}"}},
		{Name: "sse-00002", Transport: canonical.SSE, URL: "https://mcp2.example.com/sse"},
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, srv := range servers {
			if len(ScanServer(srv)) != 0 {
				b.Fatal("want no finding")
			}
		}
	}
}

// benchServers are n servers of the speed benchmarks' three kinds.
func benchServers(n int) []canonical.Server {
	var servers []canonical.Server
	for i := range n {
		switch i % 3 {
		case 0:
			servers = append(servers, canonical.Server{Name: fmt.Sprintf("fs-%05d", i), Transport: canonical.Stdio, Command: "npx",
				Args: []string{"-y", "@modelcontextprotocol/server-filesystem", fmt.Sprintf("/srv/%d", i)},
				Env:  map[string]string{"API_KEY": "${API_KEY}"}})
		case 1:
			servers = append(servers, canonical.Server{Name: fmt.Sprintf("remote-%05d", i), Transport: canonical.HTTP,
				URL: fmt.Sprintf("https://mcp%d.example.com/mcp", i), Headers: map[string]string{"Authorization": "Bearer ${TOKEN}"}})
		default:
			servers = append(servers, canonical.Server{Name: fmt.Sprintf("sse-%05d", i), Transport: canonical.SSE,
				URL: fmt.Sprintf("https://mcp%d.example.com/sse", i)})
		}
	}
	return servers
}

// BenchmarkScannerShared scans 10,000 servers for four project files with
// one Scanner, two files at a time, as a plan's processors do: each
// goroutine its own copies of the servers (each file's read-back is its
// own), the values the same.
func BenchmarkScannerShared(b *testing.B) {
	files := make([][]canonical.Server, 4)
	for i := range files {
		files[i] = benchServers(10000)
	}
	b.ReportAllocs()
	for b.Loop() {
		var sc Scanner
		var wg sync.WaitGroup
		for w := range 2 {
			wg.Go(func() {
				for _, file := range files[2*w : 2*w+2] {
					for _, srv := range file {
						sc.Server(srv)
					}
				}
			})
		}
		wg.Wait()
	}
}

// BenchmarkScanner scans 1,000 servers of the speed benchmarks' three
// kinds as a plan's secret checks do for four project files (each server
// read back from each), with one Scanner against ScanServer each time.
// x-each is the first's time over the second's: at most 0.5.
func BenchmarkScanner(b *testing.B) {
	servers := benchServers(1000)
	var remembered, each time.Duration
	for b.Loop() {
		t := time.Now()
		var sc Scanner
		for range 4 {
			for _, srv := range servers {
				sc.Server(srv)
			}
		}
		remembered += time.Since(t)
		t = time.Now()
		for range 4 {
			for _, srv := range servers {
				ScanServer(srv)
			}
		}
		each += time.Since(t)
	}
	b.ReportMetric(float64(remembered.Microseconds())/float64(b.N)/1000, "ms-scanner")
	b.ReportMetric(float64(each.Microseconds())/float64(b.N)/1000, "ms-each")
	benchgoal.Ratio(b, "x-each", float64(remembered)/float64(each), 0.5)
}
