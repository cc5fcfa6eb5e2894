package secrets

import (
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
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
