package spec_test

import (
	"slices"
	"testing"

	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/spec"
)

// TestMoreLocations: where the clients added after the first six keep their
// files, per OS, and the environment variables that move them
// (shared/reference/clients.md §7–§19).
func TestMoreLocations(t *testing.T) {
	adapter := func(id string) formats.Adapter { return spec.MustAdapter(spec.MustBuiltin(id), spec.NoHooks{}) }
	tests := []struct {
		name string
		id   string
		env  formats.Env
		want []string
	}{
		{"gemini", "gemini", env("linux", "/p", nil), []string{
			"user /home/u/.gemini/settings.json",
			"project /p/.gemini/settings.json",
			"managed /etc/gemini-cli/settings.json (read-only)",
		}},
		{"gemini with GEMINI_CLI_HOME and a system settings path", "gemini", env("darwin", "", map[string]string{
			"GEMINI_CLI_HOME": "/g", "GEMINI_CLI_SYSTEM_SETTINGS_PATH": "/etc/g.json"}), []string{
			"user /g/.gemini/settings.json",
			"managed /etc/g.json (read-only)",
		}},
		{"gemini on Windows", "gemini", formats.Env{Home: `C:\Users\u`, OS: "windows"}, []string{
			`user C:\Users\u\.gemini\settings.json`,
			`managed C:\ProgramData\gemini-cli\settings.json (read-only)`,
		}},
		{"qwen with QWEN_HOME", "qwen", env("linux", "/p", map[string]string{"QWEN_HOME": "/q"}), []string{
			"user /q/settings.json",
			"project /p/.qwen/settings.json",
			"managed /etc/qwen-code/settings.json (read-only)",
		}},
		{"copilot with COPILOT_HOME, XDG_CONFIG_HOME ignored", "copilot", env("linux", "/p", map[string]string{
			"COPILOT_HOME": "/c", "XDG_CONFIG_HOME": "/xdg"}), []string{
			"user /c/mcp-config.json",
			"project /p/.github/mcp.json",
			"project /p/.mcp.json (read-only)",
		}},
		{"windsurf", "windsurf", env("darwin", "/p", nil), []string{"user /home/u/.codeium/windsurf/mcp_config.json"}},
		{"zed on Linux honours XDG_CONFIG_HOME", "zed", env("linux", "/p", map[string]string{"XDG_CONFIG_HOME": "/xdg"}), []string{
			"user /xdg/zed/settings.json",
			"project /p/.zed/settings.json",
		}},
		{"zed on macOS", "zed", env("darwin", "", map[string]string{"XDG_CONFIG_HOME": "/xdg"}), []string{
			"user /home/u/.config/zed/settings.json",
		}},
		{"zed on Windows", "zed", env("windows", "", map[string]string{"APPDATA": `C:\Users\u\AppData\Roaming`}), []string{
			`user C:\Users\u\AppData\Roaming\Zed\settings.json`,
		}},
		{"kiro", "kiro", env("linux", "/p", nil), []string{
			"user /home/u/.kiro/settings/mcp.json",
			"project /p/.kiro/settings/mcp.json",
		}},
		{"cline on macOS", "cline", env("darwin", "/p", nil), []string{
			"user /home/u/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
		}},
		{"cline-cli with CLINE_DIR", "cline-cli", env("linux", "/p", map[string]string{"CLINE_DIR": "/cl"}), []string{
			"user /cl/data/settings/cline_mcp_settings.json",
		}},
		{"roo on Windows", "roo", env("windows", `C:\p`, map[string]string{"APPDATA": `C:\R`}), []string{
			`user C:\R\Code\User\globalStorage\rooveterinaryinc.roo-cline\settings\mcp_settings.json`,
			`project C:\p\.roo\mcp.json`,
		}},
		{"amp", "amp", env("linux", "/p", map[string]string{"XDG_CONFIG_HOME": "/xdg"}), []string{
			"user /xdg/amp/settings.json",
			"project /p/.amp/settings.json",
		}},
		{"junie", "junie", env("linux", "/p", nil), []string{
			"user /home/u/.junie/mcp/mcp.json",
			"project /p/.junie/mcp/mcp.json",
		}},
		{"lm-studio on Windows", "lm-studio", formats.Env{Home: `C:\Users\u`, OS: "windows"}, []string{
			`user C:\Users\u\.lmstudio\mcp.json`,
		}},
		{"amazonq", "amazonq", env("linux", "/p", nil), []string{
			"user /home/u/.aws/amazonq/mcp.json",
			"project /p/.amazonq/mcp.json",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := paths(adapter(tt.id), tt.env); !slices.Equal(got, tt.want) {
				t.Errorf("Locations:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}
