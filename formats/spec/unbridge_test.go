package spec

import "testing"

// Only an http(s) URL after mcp-remote makes a command line a bridge to a
// remote server; anything else stays the command line it is (found by
// FuzzAdapters: "npx -y mcp-remote fuzz-arg" was read as a remote server
// whose url was "fuzz-arg").
func TestUnbridgeNeedsAURL(t *testing.T) {
	for _, args := range [][]string{{"-y", "mcp-remote", "fuzz-arg"}, {"-y", "mcp-remote", "://"}, {"mcp-remote", "ftp://h/x"}, {"-y", "mcp-remote"}} {
		if s, ok := unbridge("npx", args); ok {
			t.Errorf("%q read as a bridge to %+v", args, s)
		}
	}
	s, ok := unbridge("npx", []string{"-y", "mcp-remote", "https://mcp.example.com/sse", "--transport", "sse-only"})
	if !ok || s.URL != "https://mcp.example.com/sse" || s.Transport != "sse" {
		t.Fatalf("bridge: %+v %v", s, ok)
	}
}
