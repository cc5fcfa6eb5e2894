package store

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/mcpsync/mcpsync/canonical"
)

// FuzzRenderServerBlock: a server block written aligned by hand is the
// very text internal/hclfmt makes of it, whatever the server holds (the
// blocks that are not one attribute a line still go to hclfmt), and that
// text is what hclwrite.Format makes of it too: hclwrite changes nothing
// in it (internal/hclfmt's FuzzFormat holds the two formatters equal on any
// text).
func FuzzRenderServerBlock(f *testing.F) {
	f.Add("fs", "npx", "-y\x00@modelcontextprotocol/server-filesystem\x00/srv", "API_KEY=${API_KEY}", "", "", "", uint8(0), int64(0))
	f.Add("remote", "", "", "", "https://mcp.example.com/mcp", "Authorization=Bearer ${TOKEN}", "", uint8(1), int64(0))
	f.Add("sse", "", "", "", "https://x.example.com/sse", "", "sse", uint8(2), int64(30))
	f.Add("long", "node", strings.Repeat("argument-", 12), "A=1\x00B=${env:B}\x00C=%{x}", "", "", "", uint8(3), int64(5))
	f.Add("q\"name", "cmd $${X}", "a\x00${a}b\x00\\", "K=\"v\"", "", "", "stdio", uint8(4), int64(90))
	f.Add("oauth", "", "", "", "https://x.example.com/mcp", "", "", uint8(32+64), int64(8080))
	f.Add("extra", "uvx", "a\x00b", "LONG_VARIABLE_NAME=1\x00S=2", "", "", "", uint8(64), int64(0))
	f.Fuzz(func(t *testing.T, name, command, args, env, url, headers, transport string, flags uint8, secs int64) {
		srv := canonical.Server{Name: name, Command: command, URL: url, Transport: canonical.Transport(transport),
			Disabled: flags&1 != 0, Project: map[bool]string{true: "proj"}[flags&2 != 0]}
		if args != "" {
			srv.Args = strings.Split(args, "\x00")
		}
		srv.Env = pairs(env)
		srv.Headers = pairs(headers)
		if flags&4 != 0 {
			srv.ToolsAllow = srv.Args
		}
		if flags&8 != 0 {
			srv.ToolsDeny = []string{name, command}
		}
		if secs > 0 && secs < 1e6 {
			srv.StartupTimeout = time.Duration(secs) * time.Second
			srv.ToolTimeout = time.Duration(secs) * time.Millisecond
		}
		if flags&16 != 0 {
			srv.Cwd = url
		}
		if flags&32 != 0 {
			srv.Auth.OAuth = &canonical.OAuth{ClientID: name, Scopes: srv.Args, CallbackPort: int(secs % 65536)}
		}
		if flags&64 != 0 {
			value, _ := json.Marshal(url)
			srv.Extra = map[string]map[string]json.RawMessage{"vscode": {
				"gallery": json.RawMessage(`true`), "n": json.RawMessage(`-1`), "url": value, "odd.key": json.RawMessage(`{"a":[1,-2.5,null]}`)}}
		}
		got, want := renderServerBlockWith(srv, true), renderServerBlockWith(srv, false)
		if got != want {
			t.Fatalf("aligned by hand:\n%s\nby hclfmt:\n%s", got, want)
		}
		if canonical := string(hclwrite.Format([]byte(want))); canonical != want {
			t.Fatalf("hclwrite.Format changes the block:\n%s\ninto:\n%s", want, canonical)
		}
	})
}

// pairs reads "K=V" items separated by NUL into a map (nil when none).
func pairs(s string) map[string]string {
	if s == "" {
		return nil
	}
	m := map[string]string{}
	for _, kv := range strings.Split(s, "\x00") {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	return m
}
