package codex

import "github.com/mcpsync/mcpsync/internal/winshim"

// unwrapCmd reads cmd /c npx ... back as npx ... (winshim.Unwrap): Codex
// (Rust's Command) cannot start a .cmd shim without it on Windows.
func unwrapCmd(command string, args []string) (string, []string, bool) {
	return winshim.Unwrap(command, args)
}

// wrapCmd writes npx ... as cmd /c npx ... for Windows.
func wrapCmd(command string, args []string) (string, []string, bool) {
	return winshim.Wrap(command, args)
}
