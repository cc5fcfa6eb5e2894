package yamledit

import (
	"errors"
	"strings"
	"testing"
)

type editCase struct {
	name string
	in   string
	want []Entry
	out  string
}

const gooseFile = `GOOSE_PROVIDER: ollama
# extensions below
extensions:
  developer:
    enabled: true
    type: platform
    name: developer
  duckduckgo:
    enabled: true   # on
    type: stdio
    name: duckduckgo
    cmd: uvx
    args:
    - duckduckgo-mcp-server
  # searxng is next
  searxng:
    cmd: npx
GOOSE_TELEMETRY_ENABLED: false
`

var (
	developer = Map{{"enabled", true}, {"type", "platform"}, {"name", "developer"}}
	duck      = Map{{"enabled", true}, {"type", "stdio"}, {"name", "duckduckgo"}, {"cmd", "uvx"}, {"args", []any{"duckduckgo-mcp-server"}}}
	searx     = Map{{"cmd", "npx"}}
)

func with(m Map, key string, v any) Map {
	out := append(Map(nil), m...)
	out.Set(key, v)
	return out
}

func without(m Map, key string) Map {
	var out Map
	for _, f := range m {
		if f.Key != key {
			out = append(out, f)
		}
	}
	return out
}

func runCases(t *testing.T, list string, cases []editCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			edit := func(src []byte) ([]byte, error) {
				d, err := Parse(src)
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				if list != "" {
					return d.EditList("mcpServers", list, tc.want)
				}
				return d.EditMap("extensions", tc.want)
			}
			got, err := edit([]byte(tc.in))
			if err != nil {
				t.Fatalf("edit: %v", err)
			}
			if string(got) != tc.out {
				t.Fatalf("got:\n%s\nwant:\n%s", got, tc.out)
			}
			again, err := edit(got)
			if err != nil || string(again) != string(got) {
				t.Fatalf("a second edit changed the file (%v):\n%s", err, again)
			}
		})
	}
}

func TestEditMap(t *testing.T) {
	all := []Entry{{"developer", developer}, {"duckduckgo", duck}, {"searxng", searx}}
	runCases(t, "", []editCase{
		{"identity", gooseFile, all, gooseFile},
		{"scalar in place keeps the comment", gooseFile,
			[]Entry{{"developer", developer}, {"duckduckgo", with(duck, "enabled", false)}, {"searxng", searx}},
			strings.Replace(gooseFile, "enabled: true   # on", "enabled: false   # on", 1)},
		{"a changed list keeps the file's compact style", gooseFile,
			[]Entry{{"developer", developer}, {"duckduckgo", with(duck, "args", []any{"a", "b"})}, {"searxng", searx}},
			strings.Replace(gooseFile, "    - duckduckgo-mcp-server\n", "    - a\n    - b\n", 1)},
		{"added keys go after the last", gooseFile,
			[]Entry{{"developer", developer}, {"duckduckgo", duck}, {"searxng", with(searx, "envs", Map{{"K", "v"}})}},
			strings.Replace(gooseFile, "    cmd: npx\n", "    cmd: npx\n    envs:\n      K: v\n", 1)},
		{"removed keys go", gooseFile,
			[]Entry{{"developer", developer}, {"duckduckgo", without(duck, "args")}, {"searxng", searx}},
			strings.Replace(gooseFile, "    args:\n    - duckduckgo-mcp-server\n", "", 1)},
		{"remove an entry, keep the comment above the next", gooseFile,
			[]Entry{{"developer", developer}, {"searxng", searx}},
			strings.Replace(gooseFile, "  duckduckgo:\n    enabled: true   # on\n    type: stdio\n    name: duckduckgo\n    cmd: uvx\n    args:\n    - duckduckgo-mcp-server\n", "", 1)},
		{"add an entry after the last", gooseFile,
			append(all, Entry{"new", Map{{"enabled", true}, {"type", "streamable_http"}, {"uri", "https://e.com/mcp"}, {"headers", Map{{"Authorization", "Bearer ${TOKEN}"}}}}}),
			strings.Replace(gooseFile, "    cmd: npx\n", "    cmd: npx\n  new:\n    enabled: true\n    type: streamable_http\n    uri: https://e.com/mcp\n    headers:\n      Authorization: Bearer ${TOKEN}\n", 1)},
		{"remove all", gooseFile, nil, `GOOSE_PROVIDER: ollama
# extensions below
extensions: {}
GOOSE_TELEMETRY_ENABLED: false
`},
		{"section absent", "GOOSE_PROVIDER: ollama\n", []Entry{{"searxng", searx}}, "GOOSE_PROVIDER: ollama\nextensions:\n  searxng:\n    cmd: npx\n"},
		{"empty file", "", []Entry{{"searxng", searx}}, "extensions:\n  searxng:\n    cmd: npx\n"},
		{"null section with a comment", "extensions: # mine\nx: 1\n", []Entry{{"searxng", searx}}, "extensions: # mine\n  searxng:\n    cmd: npx\nx: 1\n"},
		{"flow section", "extensions: {a: {cmd: x}} # c\nx: 1\n", []Entry{{"a", Map{{"cmd", "x"}}}, {"b", searx}},
			"extensions: # c\n  a:\n    cmd: x\n  b:\n    cmd: npx\nx: 1\n"},
		{"CRLF and no final newline", "extensions:\r\n  a:\r\n    cmd: x", []Entry{{"a", Map{{"cmd", "y"}}}, {"b", searx}},
			"extensions:\r\n  a:\r\n    cmd: y\r\n  b:\r\n    cmd: npx"},
		{"BOM", "\xef\xbb\xbfextensions:\n  a:\n    cmd: x\n", []Entry{{"a", Map{{"cmd", "y"}}}}, "\xef\xbb\xbfextensions:\n  a:\n    cmd: y\n"},
		{"four-space indentation", "extensions:\n    a:\n        cmd: x\n", []Entry{{"a", Map{{"cmd", "x"}}}, {"b", Map{{"cmd", "y"}, {"envs", Map{{"K", "v"}}}}}},
			"extensions:\n    a:\n        cmd: x\n    b:\n        cmd: y\n        envs:\n            K: v\n"},
		{"remove all under a tag on its own line", "extensions:\n  !!map # mine\n  a:\n    cmd: x\nx: 1\n", nil,
			"extensions:\n  !!map {} # mine\nx: 1\n"},
		{"a multi-line value is written anew", "extensions:\n  a:\n    description: |\n      two\n      lines\n    cmd: x\n",
			[]Entry{{"a", Map{{"description", "one"}, {"cmd", "x"}}}}, "extensions:\n  a:\n    description: one\n    cmd: x\n"},
	})
}

const continueFile = `name: my-mcp
version: 0.0.1
schema: v1
mcpServers:
  - name: everything  # first
    command: npx
    args: ["-y", "@modelcontextprotocol/server-everything"]
    env:
      API_KEY: ${{ secrets.API_KEY }}
  # the remote one
  - name: remote
    type: streamable-http
    url: https://example.com/mcp
`

var (
	everything = Map{{"name", "everything"}, {"command", "npx"}, {"args", []any{"-y", "@modelcontextprotocol/server-everything"}}, {"env", Map{{"API_KEY", "${{ secrets.API_KEY }}"}}}}
	remote     = Map{{"name", "remote"}, {"type", "streamable-http"}, {"url", "https://example.com/mcp"}}
)

func TestEditList(t *testing.T) {
	all := []Entry{{"everything", everything}, {"remote", remote}}
	runCases(t, "name", []editCase{
		{"identity", continueFile, all, continueFile},
		{"in place", continueFile, []Entry{{"everything", with(everything, "command", "bunx")}, {"remote", remote}},
			strings.Replace(continueFile, "command: npx", "command: bunx", 1)},
		{"a flow list stays flow", continueFile, []Entry{{"everything", with(everything, "args", []any{"-y", "pkg@2"})}, {"remote", remote}},
			strings.Replace(continueFile, `args: ["-y", "@modelcontextprotocol/server-everything"]`, `args: [-y, pkg@2]`, 1)},
		{"add a key to a nested map", continueFile,
			[]Entry{{"everything", with(everything, "env", Map{{"API_KEY", "${{ secrets.API_KEY }}"}, {"B", "2"}})}, {"remote", remote}},
			strings.Replace(continueFile, "      API_KEY: ${{ secrets.API_KEY }}\n", "      API_KEY: ${{ secrets.API_KEY }}\n      B: \"2\"\n", 1)},
		{"remove an item", continueFile, []Entry{{"remote", remote}},
			strings.Replace(continueFile, "  - name: everything  # first\n    command: npx\n    args: [\"-y\", \"@modelcontextprotocol/server-everything\"]\n    env:\n      API_KEY: ${{ secrets.API_KEY }}\n", "", 1)},
		{"add an item", continueFile, append(all, Entry{"fs", Map{{"name", "fs"}, {"command", "npx"}, {"args", []any{"-y", "x"}}}}),
			continueFile + "  - name: fs\n    command: npx\n    args:\n      - -y\n      - x\n"},
		{"compact list", "mcpServers:\n- name: a\n  command: x\n", []Entry{{"a", Map{{"name", "a"}, {"command", "x"}}}, {"b", Map{{"name", "b"}, {"args", []any{"1"}}}}},
			"mcpServers:\n- name: a\n  command: x\n- name: b\n  args:\n  - \"1\"\n"},
		{"remove all", continueFile, nil, "name: my-mcp\nversion: 0.0.1\nschema: v1\nmcpServers: []\n"},
		{"remove all under a tag on its own line", "mcpServers:\n  !!seq\n  - name: a\n    command: x\n", nil, "mcpServers:\n  !!seq []\n"},
		{"empty flow list", "mcpServers: []\n", []Entry{{"a", Map{{"name", "a"}, {"command", "x"}}}}, "mcpServers:\n  - name: a\n    command: x\n"},
		{"unnamed items stay, new items go after them", "mcpServers:\n  - name: a\n    command: x\n  - uses: owner/block # hub\n",
			[]Entry{{"b", Map{{"name", "b"}, {"command", "y"}}}},
			"mcpServers:\n  - uses: owner/block # hub\n  - name: b\n    command: y\n"},
		{"removing every named item keeps the unnamed ones", "mcpServers:\n  - uses: owner/block\n  - name: a\n    command: x\n", nil,
			"mcpServers:\n  - uses: owner/block\n"},
		{"first key on the dash line removed: item written anew", "mcpServers:\n  - command: x # c\n    name: a\n",
			[]Entry{{"a", Map{{"name", "a"}, {"url", "https://e"}}}}, "mcpServers:\n  - name: a\n    url: https://e\n"},
	})
}

func TestEditRefuses(t *testing.T) {
	d, _ := Parse([]byte("extensions: [1, 2]\n"))
	if _, err := d.EditMap("extensions", nil); !errors.Is(err, ErrUnverified) {
		t.Errorf("a list where a map belongs: %v", err)
	}
	d, _ = Parse([]byte("mcpServers:\n  - name: \"\"\n    command: x\n"))
	if _, err := d.EditList("mcpServers", "name", nil); !errors.Is(err, ErrUnverified) {
		t.Errorf("an empty name: %v", err)
	}
	d, _ = Parse([]byte("mcpServers: [{uses: a/b}]\n"))
	if _, err := d.EditList("mcpServers", "name", []Entry{{"x", Map{{"name", "x"}}}}); !errors.Is(err, ErrUnverified) {
		t.Errorf("a flow list with an unnamed item: %v", err)
	}
	d, _ = Parse([]byte("a: 1\n---\nb: 2\n"))
	if _, err := d.EditMap("extensions", []Entry{{"x", Map{{"cmd", "y"}}}}); !errors.Is(err, ErrUnverified) {
		t.Errorf("two documents: %v", err)
	}
	d, _ = Parse([]byte("extensions:\n  a:\n    cmd: x\n"))
	if _, err := d.EditMap("extensions", []Entry{{"a", Map{{"cmd", "\xff"}}}}); !errors.Is(err, ErrUnverified) {
		t.Errorf("invalid UTF-8 must not be written: %v", err)
	}
}

func TestSyntaxErrorPosition(t *testing.T) {
	for src, line := range map[string]int{"a: b: c\n": 1, "a: 1\nb: [\n": 2, "x:\n  y: 1\n z: 2\n": 3,
		"extensions:\n  a:\n    cmd: x\n   bad: indentation\n": 4, "a:\n  - b\n  c: d\n": 3} {
		_, err := Parse([]byte(src))
		var se *SyntaxError
		if !errors.As(err, &se) || se.Line != line || se.Column < 1 {
			t.Errorf("%q: got %v, want line %d", src, err, line)
		}
	}
}
