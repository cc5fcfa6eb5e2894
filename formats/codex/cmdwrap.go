package codex

import "strings"

// npmShims are the commands that are .cmd scripts on Windows, which Codex
// (Rust's Command) cannot start without cmd /c.
var npmShims = map[string]bool{"npx": true, "npm": true, "pnpm": true, "pnpx": true, "yarn": true, "bunx": true}

// unwrapCmd reads cmd /c npx ... back as npx ....
func unwrapCmd(command string, args []string) (string, []string, bool) {
	base := strings.ToLower(command[strings.LastIndexAny(command, `/\`)+1:])
	if (base != "cmd" && base != "cmd.exe") || len(args) < 2 || !strings.EqualFold(args[0], "/c") {
		return command, args, false
	}
	if !npmShims[strings.ToLower(strings.TrimSuffix(strings.ToLower(args[1]), ".cmd"))] {
		return command, args, false
	}
	return args[1], append([]string(nil), args[2:]...), true
}

// wrapCmd writes npx ... as cmd /c npx ... for Windows.
func wrapCmd(command string, args []string) (string, []string, bool) {
	if !npmShims[strings.ToLower(command)] {
		return command, args, false
	}
	return "cmd", append([]string{"/c", command}, args...), true
}
