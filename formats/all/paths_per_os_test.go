package all_test

import (
	"testing"

	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/all"
)

// Every client's user files on Windows and macOS, computed here (the OS is
// an input of Locations, so no Windows or Mac is needed). Each row was
// checked against the client's docs as ../shared/reference/clients.md
// records them (the source comment); a change here is a change of what a
// Windows or Mac user's clients read, and needs a source as good.
var userFilesPerOS = []struct{ os, client, path, source string }{
	{"windows", "amazonq", `C:\Users\u\.aws\amazonq\mcp.json`, "the client spec's own locations (home-relative on every OS)"},
	{"windows", "amp", `C:\Users\u\.config\amp\settings.json`, "the client spec's own locations (home-relative on every OS)"},
	{"windows", "claude-code", `C:\Users\u\.claude.json`, "clients.md \"Claude Code\" user: ~/.claude.json (Win %USERPROFILE%\\.claude.json)"},
	{"windows", "claude-desktop", `C:\Users\u\AppData\Roaming\Claude\claude_desktop_config.json`, "clients.md \"Claude Desktop\": macOS ~/Library/Application Support/Claude, Win %APPDATA%\\Claude"},
	{"windows", "antigravity-cli", `C:\Users\u\.gemini\antigravity-cli\mcp_config.json`, "antigravity-cli.hcl: gemini-cli's migrating-to-antigravity-cli.md: ~/.gemini/antigravity-cli"},
	{"windows", "antigravity-cli", `C:\Users\u\.gemini\config\mcp_config.json`, "antigravity-cli.hcl: other guides' path, read only"},
	{"windows", "auggie", `C:\Users\u\.augment\settings.json`, "auggie.hcl: auggie 0.36.0's SettingsManager: ~/.augment/settings.json"},
	{"windows", "cline", `C:\Users\u\AppData\Roaming\Code\User\globalStorage\saoudrizwan.claude-dev\settings\cline_mcp_settings.json`, "clients.md \"Cline\": the VS Code user dir globalStorage/saoudrizwan.claude-dev"},
	{"windows", "cline-cli", `C:\Users\u\.cline\data\settings\cline_mcp_settings.json`, "the client spec's own locations (home-relative on every OS)"},
	{"windows", "codex", `C:\Users\u\.codex\config.toml`, "clients.md \"Codex\": ~/.codex/config.toml (Win %USERPROFILE%)"},
	{"windows", "continue", `C:\Users\u\.continue\config.yaml`, "clients.md \"Continue\": ~/.continue/config.yaml (Win %USERPROFILE%)"},
	{"windows", "copilot", `C:\Users\u\.copilot\mcp-config.json`, "the client spec's own locations (home-relative on every OS)"},
	{"windows", "crush", `C:\Users\u\.config\crush\crush.json`, "crush.hcl: internal/home/home.go: $XDG_CONFIG_HOME, else ~/.config, on Windows too"},
	{"windows", "crush", `C:\Users\u\AppData\Local\crush\crush.json`, "crush.hcl: internal/config/load.go GlobalConfigData: %LOCALAPPDATA%\\crush (read only)"},
	{"windows", "cursor", `C:\Users\u\.cursor\mcp.json`, "clients.md \"Cursor\" global: ~/.cursor/mcp.json (Win %USERPROFILE%)"},
	{"windows", "devin", `C:\Users\u\AppData\Roaming\devin\mcp_config.json`, "devin.hcl: Sevalla's and Vaadin's Devin Desktop pages: %APPDATA%\\devin on Windows"},
	{"windows", "devin-cli", `C:\Users\u\AppData\Roaming\devin\config.json`, "devin-cli.hcl: docs.devin.ai/cli config-file: %APPDATA%\\devin\\config.json on Windows"},
	{"windows", "droid", `C:\Users\u\.factory\mcp.json`, "the client spec's own locations (home-relative on every OS)"},
	{"windows", "gemini", `C:\Users\u\.gemini\settings.json`, "clients.md \"Gemini CLI\" user: ~/.gemini/settings.json (Win %USERPROFILE%)"},
	{"windows", "goose", `C:\Users\u\AppData\Roaming\Block\goose\config\config.yaml`, "clients.md \"Goose\": ~/.config/goose, Windows %APPDATA%\\Block\\goose\\config"},
	{"windows", "junie", `C:\Users\u\.junie\mcp\mcp.json`, "the client spec's own locations (home-relative on every OS)"},
	{"windows", "kilo", `C:\Users\u\.config\kilo\kilo.jsonc`, "kilo.hcl: kilo debug paths: the XDG config home"},
	{"windows", "kilo", `C:\Users\u\.config\kilo\kilo.json`, "kilo.hcl: kilo.json, written when only it exists"},
	{"windows", "kilo", `C:\Users\u\.config\kilo\opencode.json`, "kilo.hcl: OpenCode's name, read only"},
	{"windows", "pi", `C:\Users\u\.pi\agent\mcp.json`, "pi.hcl: pi 1.6.0 getAgentDir: os.homedir() on every OS"},
	{"windows", "kiro", `C:\Users\u\.kiro\settings\mcp.json`, "the client spec's own locations (home-relative on every OS)"},
	{"windows", "lm-studio", `C:\Users\u\.lmstudio\mcp.json`, "clients.md \"LM Studio\": ~/.lmstudio/mcp.json, %USERPROFILE%\\.lmstudio on Windows"},
	{"windows", "opencode", `C:\Users\u\.config\opencode\opencode.jsonc`, "the client spec's own locations (home-relative on every OS)"},
	{"windows", "opencode", `C:\Users\u\.config\opencode\opencode.json`, "the client spec's own locations (home-relative on every OS)"},
	{"windows", "opencode", `C:\Users\u\.config\opencode\config.json`, "the client spec's own locations (home-relative on every OS)"},
	{"windows", "qwen", `C:\Users\u\.qwen\settings.json`, "the client spec's own locations (home-relative on every OS)"},
	{"windows", "roo", `C:\Users\u\AppData\Roaming\Code\User\globalStorage\rooveterinaryinc.roo-cline\settings\mcp_settings.json`, "Roo Code: the VS Code user dir globalStorage/rooveterinaryinc.roo-cline (as Cline)"},
	{"windows", "visual-studio", `C:\Users\u\.mcp.json`, "visual-studio.hcl: MicrosoftDocs visualstudio-docs mcp-servers.md: %USERPROFILE%\\.mcp.json"},
	{"windows", "vscode", `C:\Users\u\AppData\Roaming\Code\User\mcp.json`, "clients.md \"VS Code\" user: macOS ~/Library/Application Support/Code/User, Win %APPDATA%\\Code\\User"},
	{"windows", "vscode", `C:\Users\u\AppData\Roaming\Code\User\settings.json`, "clients.md \"VS Code\" user: macOS ~/Library/Application Support/Code/User, Win %APPDATA%\\Code\\User"},
	{"windows", "windsurf", `C:\Users\u\.codeium\windsurf\mcp_config.json`, "clients.md \"Windsurf\": ~/.codeium/windsurf/mcp_config.json (Win %USERPROFILE%)"},
	{"windows", "zed", `C:\Users\u\AppData\Roaming\Zed\settings.json`, "clients.md \"Zed\": ~/.config/zed on macOS, %APPDATA%\\Zed on Windows"},
	{"darwin", "amazonq", `/Users/u/.aws/amazonq/mcp.json`, "the client spec's own locations (home-relative on every OS)"},
	{"darwin", "amp", `/Users/u/.config/amp/settings.json`, "the client spec's own locations (home-relative on every OS)"},
	{"darwin", "claude-code", `/Users/u/.claude.json`, "clients.md \"Claude Code\" user: ~/.claude.json (Win %USERPROFILE%\\.claude.json)"},
	{"darwin", "claude-desktop", `/Users/u/Library/Application Support/Claude/claude_desktop_config.json`, "clients.md \"Claude Desktop\": macOS ~/Library/Application Support/Claude, Win %APPDATA%\\Claude"},
	{"darwin", "antigravity-cli", `/Users/u/.gemini/antigravity-cli/mcp_config.json`, "antigravity-cli.hcl: gemini-cli's migrating-to-antigravity-cli.md: ~/.gemini/antigravity-cli"},
	{"darwin", "antigravity-cli", `/Users/u/.gemini/config/mcp_config.json`, "antigravity-cli.hcl: other guides' path, read only"},
	{"darwin", "auggie", `/Users/u/.augment/settings.json`, "auggie.hcl: auggie 0.36.0's SettingsManager: ~/.augment/settings.json"},
	{"darwin", "cline", `/Users/u/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json`, "clients.md \"Cline\": the VS Code user dir globalStorage/saoudrizwan.claude-dev"},
	{"darwin", "cline-cli", `/Users/u/.cline/data/settings/cline_mcp_settings.json`, "the client spec's own locations (home-relative on every OS)"},
	{"darwin", "codex", `/Users/u/.codex/config.toml`, "clients.md \"Codex\": ~/.codex/config.toml (Win %USERPROFILE%)"},
	{"darwin", "continue", `/Users/u/.continue/config.yaml`, "clients.md \"Continue\": ~/.continue/config.yaml (Win %USERPROFILE%)"},
	{"darwin", "copilot", `/Users/u/.copilot/mcp-config.json`, "the client spec's own locations (home-relative on every OS)"},
	{"darwin", "crush", `/Users/u/.config/crush/crush.json`, "crush.hcl: internal/home/home.go: $XDG_CONFIG_HOME, else ~/.config"},
	{"darwin", "crush", `/Users/u/.local/share/crush/crush.json`, "crush.hcl: internal/config/load.go GlobalConfigData: ~/.local/share/crush (read only)"},
	{"darwin", "cursor", `/Users/u/.cursor/mcp.json`, "clients.md \"Cursor\" global: ~/.cursor/mcp.json (Win %USERPROFILE%)"},
	{"darwin", "devin", `/Users/u/.config/devin/mcp_config.json`, "devin.hcl: Sevalla's and Vaadin's Devin Desktop pages: ~/.config/devin"},
	{"darwin", "devin-cli", `/Users/u/.config/devin/config.json`, "devin-cli.hcl: docs.devin.ai/cli config-file: ~/.config/devin/config.json"},
	{"darwin", "droid", `/Users/u/.factory/mcp.json`, "the client spec's own locations (home-relative on every OS)"},
	{"darwin", "gemini", `/Users/u/.gemini/settings.json`, "clients.md \"Gemini CLI\" user: ~/.gemini/settings.json (Win %USERPROFILE%)"},
	{"darwin", "goose", `/Users/u/.config/goose/config.yaml`, "clients.md \"Goose\": ~/.config/goose, Windows %APPDATA%\\Block\\goose\\config"},
	{"darwin", "junie", `/Users/u/.junie/mcp/mcp.json`, "the client spec's own locations (home-relative on every OS)"},
	{"darwin", "kilo", `/Users/u/.config/kilo/kilo.jsonc`, "kilo.hcl: kilo debug paths: the XDG config home"},
	{"darwin", "kilo", `/Users/u/.config/kilo/kilo.json`, "kilo.hcl: kilo.json, written when only it exists"},
	{"darwin", "kilo", `/Users/u/.config/kilo/opencode.json`, "kilo.hcl: OpenCode's name, read only"},
	{"darwin", "pi", `/Users/u/.pi/agent/mcp.json`, "pi.hcl: pi 1.6.0 getAgentDir: os.homedir() on every OS"},
	{"darwin", "kiro", `/Users/u/.kiro/settings/mcp.json`, "the client spec's own locations (home-relative on every OS)"},
	{"darwin", "lm-studio", `/Users/u/.lmstudio/mcp.json`, "clients.md \"LM Studio\": ~/.lmstudio/mcp.json, %USERPROFILE%\\.lmstudio on Windows"},
	{"darwin", "opencode", `/Users/u/.config/opencode/opencode.jsonc`, "the client spec's own locations (home-relative on every OS)"},
	{"darwin", "opencode", `/Users/u/.config/opencode/opencode.json`, "the client spec's own locations (home-relative on every OS)"},
	{"darwin", "opencode", `/Users/u/.config/opencode/config.json`, "the client spec's own locations (home-relative on every OS)"},
	{"darwin", "qwen", `/Users/u/.qwen/settings.json`, "the client spec's own locations (home-relative on every OS)"},
	{"darwin", "roo", `/Users/u/Library/Application Support/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json`, "Roo Code: the VS Code user dir globalStorage/rooveterinaryinc.roo-cline (as Cline)"},
	{"darwin", "vscode", `/Users/u/Library/Application Support/Code/User/mcp.json`, "clients.md \"VS Code\" user: macOS ~/Library/Application Support/Code/User, Win %APPDATA%\\Code\\User"},
	{"darwin", "vscode", `/Users/u/Library/Application Support/Code/User/settings.json`, "clients.md \"VS Code\" user: macOS ~/Library/Application Support/Code/User, Win %APPDATA%\\Code\\User"},
	{"darwin", "windsurf", `/Users/u/.codeium/windsurf/mcp_config.json`, "clients.md \"Windsurf\": ~/.codeium/windsurf/mcp_config.json (Win %USERPROFILE%)"},
	{"darwin", "zed", `/Users/u/.config/zed/settings.json`, "clients.md \"Zed\": ~/.config/zed on macOS, %APPDATA%\\Zed on Windows"},
}

func TestUserFilesPerOS(t *testing.T) {
	reg := all.NewRegistry(all.Options{})
	got := map[string][]string{}
	for _, goos := range []string{"windows", "darwin"} {
		home := "/Users/u"
		if goos == "windows" {
			home = `C:\Users\u`
		}
		env := formats.Env{Home: home, ProjectDir: "/p", OS: goos, Getenv: func(k string) string {
			if k == "APPDATA" && goos == "windows" {
				return `C:\Users\u\AppData\Roaming`
			}
			return ""
		}}
		for _, ad := range reg.All() {
			for _, l := range ad.Locations(env) {
				if l.Scope == "user" {
					got[goos+" "+ad.ID()] = append(got[goos+" "+ad.ID()], l.Path)
				}
			}
		}
	}
	want := map[string][]string{}
	for _, r := range userFilesPerOS {
		want[r.os+" "+r.client] = append(want[r.os+" "+r.client], r.path)
	}
	for k, w := range want {
		if g := got[k]; len(g) != len(w) || !equalPaths(g, w) {
			t.Errorf("%s: user files %q, want %q", k, g, w)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: a client with no row here: add its Windows and macOS files, with their source", k)
		}
	}
}

func equalPaths(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
