package policy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/lazyre"
	"github.com/mcpsync/mcpsync/internal/secrets"
	"github.com/mcpsync/mcpsync/internal/winshim"
)

// Vendors are the clients whose administrator's layer is rendered.
var Vendors = []string{"claude-code", "codex", "gemini"}

// OSes are the machines a policy is laid out for.
var OSes = []string{"linux", "darwin", "windows"}

// Mode says how a policy treats servers the list does not have.
type Mode string

const (
	// Exclusive deploys the list: only its servers exist (Claude Code's
	// managed-mcp.json, Gemini CLI's system servers with mcp.allowed).
	Exclusive Mode = "exclusive"
	// Allowlist lets users add servers of the list themselves; anything
	// else is blocked (Claude Code's managed allowlist).
	Allowlist Mode = "allowlist"
)

// File is one rendered policy file: Path is where the vendor reads it on
// OS (a path of that machine).
type File struct {
	Vendor string `json:"vendor"`
	OS     string `json:"os"`
	Path   string `json:"path"`
	Data   []byte `json:"-"`
}

// Layout is where File goes under an output directory: OS/ then the path
// without its root (linux/etc/claude-code/managed-mcp.json,
// windows/Program Files/ClaudeCode/managed-mcp.json), for a file drop or an
// MDM package to copy from.
func (f File) Layout() string {
	p := strings.ReplaceAll(f.Path, `\`, "/")
	if len(p) > 2 && p[1] == ':' {
		p = p[2:] // C:
	}
	return path.Join(f.OS, strings.TrimPrefix(p, "/"))
}

// Encoder writes servers in a client's own file format for an OS: the
// caller's adapters (formats), so that the policy spells entries exactly
// as mcpsync writes them into the client's own files.
type Encoder func(client, goos string, servers []canonical.Server) ([]byte, error)

// Options say what to render.
type Options struct {
	Mode    Mode
	OSes    []string // default: all
	Vendors []string // default: all
	Encode  Encoder
}

// Render renders every vendor's policy for every OS. A server holding a
// literal secret is refused: every user of a machine can read its
// policy files.
func Render(servers []canonical.Server, o Options) ([]File, error) {
	if o.Mode == "" {
		o.Mode = Exclusive
	}
	if o.Mode != Exclusive && o.Mode != Allowlist {
		return nil, fmt.Errorf("--mode %q: use exclusive or allowlist", o.Mode)
	}
	for _, s := range servers {
		if fs := secrets.ScanServer(s); len(fs) > 0 {
			return nil, fmt.Errorf("server %q: %s %s; policy files are readable by every user of a machine: use a reference such as ${%s}",
				s.Name, fs[0].Field, fs[0].Describe(), fs[0].Var)
		}
	}
	sorted := append([]canonical.Server(nil), servers...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	var out []File
	for _, goos := range orAll(o.OSes, OSes) {
		for _, v := range orAll(o.Vendors, Vendors) {
			files, err := renderVendor(v, goos, sorted, o)
			if err != nil {
				return nil, err
			}
			for i := range files {
				if d := files[i].Data; len(d) > 0 && d[len(d)-1] != '\n' {
					files[i].Data = append(d, '\n') // a text file an administrator may cat or diff
				}
			}
			out = append(out, files...)
		}
	}
	return out, nil
}

func orAll(list, all []string) []string {
	if len(list) == 0 {
		return all
	}
	return list
}

// Paths are the files each vendor reads, per OS.
func Paths(vendor, goos string) (dir string, files []string) {
	switch vendor + "/" + goos {
	case "claude-code/linux":
		return "/etc/claude-code", []string{"managed-mcp.json", "managed-settings.d/50-mcpsync.json"}
	case "claude-code/darwin":
		return "/Library/Application Support/ClaudeCode", []string{"managed-mcp.json", "managed-settings.d/50-mcpsync.json"}
	case "claude-code/windows":
		return `C:\Program Files\ClaudeCode`, []string{"managed-mcp.json", `managed-settings.d\50-mcpsync.json`}
	case "codex/linux", "codex/darwin":
		return "/etc/codex", []string{"requirements.toml"}
	case "codex/windows":
		return `C:\ProgramData\OpenAI\Codex`, []string{"requirements.toml"}
	case "gemini/linux":
		return "/etc/gemini-cli", []string{"settings.json"}
	case "gemini/darwin":
		return "/Library/Application Support/GeminiCli", []string{"settings.json"}
	case "gemini/windows":
		return `C:\ProgramData\gemini-cli`, []string{"settings.json"}
	}
	return "", nil
}

func join(goos, dir, file string) string {
	if goos == "windows" {
		return dir + `\` + file
	}
	return dir + "/" + file
}

func renderVendor(vendor, goos string, servers []canonical.Server, o Options) ([]File, error) {
	dir, names := Paths(vendor, goos)
	if dir == "" {
		return nil, fmt.Errorf("no policy layout for %s on %s", vendor, goos)
	}
	switch vendor {
	case "claude-code":
		if o.Mode == Exclusive {
			data, err := o.Encode("claude-code", goos, servers)
			if err != nil {
				return nil, err
			}
			return []File{{Vendor: vendor, OS: goos, Path: join(goos, dir, names[0]), Data: data}}, nil
		}
		return []File{{Vendor: vendor, OS: goos, Path: join(goos, dir, names[1]), Data: claudeSettings(servers, goos)}}, nil
	case "codex":
		return []File{{Vendor: vendor, OS: goos, Path: join(goos, dir, names[0]), Data: codexRequirements(servers, goos)}}, nil
	case "gemini":
		data, err := geminiSettings(servers, goos, o.Encode)
		if err != nil {
			return nil, err
		}
		return []File{{Vendor: vendor, OS: goos, Path: join(goos, dir, names[0]), Data: data}}, nil
	}
	return nil, fmt.Errorf("unknown policy vendor %q", vendor)
}

// ClaudeEntry is one allowedMcpServers / deniedMcpServers entry.
type ClaudeEntry struct {
	ServerName    string   `json:"serverName,omitempty"`
	ServerCommand []string `json:"serverCommand,omitempty"`
	ServerURL     string   `json:"serverUrl,omitempty"`
}

// ClaudeSettings is the MCP part of Claude Code's managed settings.
type ClaudeSettings struct {
	AllowManagedMcpServersOnly bool          `json:"allowManagedMcpServersOnly,omitempty"`
	AllowedMcpServers          []ClaudeEntry `json:"allowedMcpServers"`
	DeniedMcpServers           []ClaudeEntry `json:"deniedMcpServers,omitempty"`
}

// commandForms are the command arrays a client's file may hold for s on
// goos: as it is, and on Windows also wrapped in cmd /c.
func commandForms(s canonical.Server, goos string) [][]string {
	plain := append([]string{s.Command}, s.Args...)
	forms := [][]string{plain}
	if goos == "windows" {
		if c, a, wrapped := winshim.Wrap(s.Command, s.Args); wrapped {
			forms = append(forms, append([]string{c}, a...))
		}
	}
	return forms
}

func claudeSettings(servers []canonical.Server, goos string) []byte {
	cs := ClaudeSettings{AllowManagedMcpServersOnly: true, AllowedMcpServers: []ClaudeEntry{}}
	for _, s := range servers {
		if s.Transport.IsRemote() {
			cs.AllowedMcpServers = append(cs.AllowedMcpServers, ClaudeEntry{ServerURL: s.URL})
			continue
		}
		for _, f := range commandForms(s, goos) {
			cs.AllowedMcpServers = append(cs.AllowedMcpServers, ClaudeEntry{ServerCommand: f})
		}
	}
	data, _ := json.MarshalIndent(cs, "", "  ")
	return append(data, '\n')
}

// CodexIdentity is one [mcp_servers.NAME.identity] of requirements.toml.
type CodexIdentity struct {
	Command string `toml:"command,omitempty" json:"command,omitempty"`
	URL     string `toml:"url,omitempty" json:"url,omitempty"`
}

// CodexRequirements is the MCP part of Codex's requirements.toml.
type CodexRequirements struct {
	MCPServers map[string]struct {
		Identity CodexIdentity `toml:"identity"`
	} `toml:"mcp_servers"`
}

// codexIdentity is the identity Codex checks for s on goos, or why s
// cannot have one (Codex has no SSE transport).
func codexIdentity(s canonical.Server, goos string) (CodexIdentity, string) {
	switch {
	case s.Transport == canonical.SSE:
		return CodexIdentity{}, "Codex has no SSE transport"
	case s.Transport.IsRemote():
		return CodexIdentity{URL: s.URL}, ""
	}
	cmd := s.Command
	if goos == "windows" {
		if c, _, wrapped := winshim.Wrap(s.Command, s.Args); wrapped {
			cmd = c
		}
	}
	return CodexIdentity{Command: cmd}, ""
}

func codexRequirements(servers []canonical.Server, goos string) []byte {
	var b bytes.Buffer
	b.WriteString("# Rendered by mcpsync: Codex enables only the MCP servers listed here,\n" +
		"# each when its command (or streamable HTTP URL) is the identity's.\n")
	for _, s := range servers {
		id, why := codexIdentity(s, goos)
		if why != "" {
			fmt.Fprintf(&b, "\n# %s left out: %s\n", s.Name, why)
			continue
		}
		fmt.Fprintf(&b, "\n[mcp_servers.%s.identity]\n", tomlKey(s.Name))
		if id.URL != "" {
			fmt.Fprintf(&b, "url = %s\n", tomlString(id.URL))
		} else {
			if goos == "windows" && id.Command != s.Command {
				fmt.Fprintf(&b, "# Codex sees %s as cmd /c %s: its identity is the program, cmd\n", s.Name, s.Command)
			}
			fmt.Fprintf(&b, "command = %s\n", tomlString(id.Command))
		}
	}
	if len(servers) == 0 {
		b.WriteString("\n[mcp_servers]\n")
	}
	return b.Bytes()
}

var bareKey = lazyre.New(`^[A-Za-z0-9_-]+$`)

func tomlKey(k string) string {
	if bareKey.Get().MatchString(k) {
		return k
	}
	return tomlString(k)
}

func tomlString(s string) string {
	var b bytes.Buffer
	if err := toml.NewEncoder(&b).Encode(map[string]string{"v": s}); err != nil {
		return fmt.Sprintf("%q", s)
	}
	return strings.TrimSpace(strings.TrimPrefix(b.String(), "v = "))
}

// GeminiSettings is the MCP part of Gemini CLI's system settings.
type GeminiSettings struct {
	MCP struct {
		Allowed  []string `json:"allowed"`
		Excluded []string `json:"excluded,omitempty"`
	} `json:"mcp"`
	MCPServers map[string]json.RawMessage `json:"mcpServers"`
}

func geminiSettings(servers []canonical.Server, goos string, enc Encoder) ([]byte, error) {
	data, err := enc("gemini", goos, servers)
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("gemini-cli settings: %w", err)
	}
	allowed := make([]string, 0, len(servers))
	for _, s := range servers {
		allowed = append(allowed, s.Name)
	}
	doc["mcp"] = map[string]any{"allowed": allowed}
	if _, ok := doc["mcpServers"]; !ok {
		doc["mcpServers"] = map[string]any{}
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}
