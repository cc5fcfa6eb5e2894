// Package winshim writes and reads the cmd /c wrapping that Windows clients
// need to start a Node or Bun shim (npx is npx.cmd there, a batch script a
// client that spawns without a shell cannot start), in one place for every
// client: spec clients, Codex, and what paste reads.
package winshim

import (
	"path"
	"slices"
	"strings"
)

// Shims are the commands that are .cmd scripts on Windows. uvx, node,
// python and absolute paths are real executables and are left alone.
var Shims = []string{"npx", "npm", "pnpm", "pnpx", "yarn", "yarnpkg", "bunx"}

// IsShim reports whether command is one (npx, NPX.cmd).
func IsShim(command string) bool {
	return slices.Contains(Shims, strings.TrimSuffix(strings.ToLower(command), ".cmd"))
}

// Wrap writes a shim as cmd /c SHIM ARGS…; anything else is returned as it
// is (wrapped false).
func Wrap(command string, args []string) (string, []string, bool) {
	if !IsShim(command) {
		return command, args, false
	}
	return "cmd", append([]string{"/c", command}, args...), true
}

// Unwrap reads cmd /c SHIM ARGS… back as SHIM ARGS…, whatever the
// spelling: cmd, cmd.exe, a full path to it, /c or /C, /s and /q before
// it, npx.cmd for npx. Only shims are unwrapped: cmd /c script.bat is a
// command line of its own.
func Unwrap(command string, args []string) (string, []string, bool) {
	base := strings.ToLower(path.Base(strings.ReplaceAll(command, `\`, "/")))
	if base != "cmd" && base != "cmd.exe" {
		return command, args, false
	}
	i := 0
	for i < len(args) && (strings.EqualFold(args[i], "/s") || strings.EqualFold(args[i], "/q") || strings.EqualFold(args[i], "/d")) {
		i++
	}
	if i+1 >= len(args) || !strings.EqualFold(args[i], "/c") || !IsShim(args[i+1]) {
		return command, args, false
	}
	shim := strings.TrimSuffix(args[i+1], ".cmd")
	shim = strings.TrimSuffix(shim, ".CMD")
	return strings.ToLower(shim), append([]string(nil), args[i+2:]...), true
}

// cmdSpecial are the characters cmd.exe acts on in a /c command line even
// inside the arguments a client passes it: & | < > run or redirect, ^
// escapes, % expands a variable, and a " changes how the rest is read.
const cmdSpecial = "&|<>^%\""

// Unsafe returns the arguments that cmd /c would not pass through as
// they are: through the wrapping they would be split, redirected or
// expanded before the shim sees them.
func Unsafe(args []string) []string {
	var out []string
	for _, a := range args {
		if strings.ContainsAny(a, cmdSpecial) {
			out = append(out, a)
		}
	}
	return out
}
