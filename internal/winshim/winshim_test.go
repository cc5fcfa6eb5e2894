package winshim

import (
	"slices"
	"testing"
)

func TestWrapUnwrapRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		command string
		args    []string
		wraps   bool
	}{
		{"npx", []string{"-y", "@modelcontextprotocol/server-github"}, true},
		{"npm", []string{"exec", "pkg"}, true},
		{"pnpm", []string{"dlx", "pkg"}, true},
		{"bunx", []string{"pkg", "a dir with spaces"}, true},
		{"npx", []string{"-y", "pkg", `C:\Users\me\My Projects`}, true},
		{"uvx", []string{"mcp-server-git"}, false},
		{"node", []string{"server.js"}, false},
		{`C:\Program Files\nodejs\node.exe`, []string{"s.js"}, false},
	} {
		c, a, wrapped := Wrap(tc.command, tc.args)
		if wrapped != tc.wraps {
			t.Errorf("Wrap(%q) wrapped = %v", tc.command, wrapped)
			continue
		}
		if !wrapped {
			if c != tc.command || !slices.Equal(a, tc.args) {
				t.Errorf("Wrap(%q) changed what it does not wrap: %q %q", tc.command, c, a)
			}
			continue
		}
		if c != "cmd" || a[0] != "/c" || a[1] != tc.command {
			t.Errorf("Wrap(%q, %q) = %q %q", tc.command, tc.args, c, a)
		}
		back, backArgs, ok := Unwrap(c, a)
		if !ok || back != tc.command || !slices.Equal(backArgs, tc.args) {
			t.Errorf("Unwrap(Wrap(%q, %q)) = %q %q %v", tc.command, tc.args, back, backArgs, ok)
		}
	}
}

func TestUnwrapSpellings(t *testing.T) {
	for _, tc := range []struct {
		command string
		args    []string
		want    string
		rest    []string
		ok      bool
	}{
		{"cmd.exe", []string{"/C", "npx", "-y", "p"}, "npx", []string{"-y", "p"}, true},
		{`C:\Windows\System32\cmd.exe`, []string{"/c", "npx.cmd", "-y", "p"}, "npx", []string{"-y", "p"}, true},
		{"CMD", []string{"/s", "/c", "NPX", "p"}, "npx", []string{"p"}, true},
		{"cmd", []string{"/c", "start.bat"}, "cmd", []string{"/c", "start.bat"}, false},
		{"cmd", []string{"/c"}, "cmd", []string{"/c"}, false},
		{"cmd", []string{"/k", "npx", "p"}, "cmd", []string{"/k", "npx", "p"}, false},
	} {
		got, rest, ok := Unwrap(tc.command, tc.args)
		if got != tc.want || !slices.Equal(rest, tc.rest) || ok != tc.ok {
			t.Errorf("Unwrap(%q, %q) = %q %q %v; want %q %q %v", tc.command, tc.args, got, rest, ok, tc.want, tc.rest, tc.ok)
		}
	}
}

func TestUnsafe(t *testing.T) {
	got := Unsafe([]string{"-y", "pkg", "a&b", "x^y", "100%", "plain value", `say "hi"`, "a|b"})
	want := []string{"a&b", "x^y", "100%", `say "hi"`, "a|b"}
	if !slices.Equal(got, want) {
		t.Errorf("Unsafe = %q; want %q", got, want)
	}
}
