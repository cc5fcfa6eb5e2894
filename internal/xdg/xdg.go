// Package xdg finds mcpsync's own directories. It honours HOME and the XDG
// base-directory variables so that tests and users can sandbox everything.
package xdg

import (
	"os"
	"path/filepath"
	"runtime"
)

// Dirs are mcpsync's directories for one process environment.
type Dirs struct {
	Home   string
	Config string // $XDG_CONFIG_HOME/mcpsync: the user store, clients.d
	State  string // $XDG_STATE_HOME/mcpsync: managed entries, hashes, backups
	Cache  string // $XDG_CACHE_HOME/mcpsync: resolver responses, pulled sources
}

// Getenv reads an environment variable.
type Getenv func(string) string

// Resolve computes the directories from the environment. An XDG variable
// that is set but relative is ignored, as the specification says.
func Resolve(getenv Getenv) Dirs {
	if getenv == nil {
		getenv = os.Getenv
	}
	home := getenv("HOME")
	if home == "" && runtime.GOOS == "windows" {
		home = getenv("USERPROFILE")
	}
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	base := func(env, fallback string) string {
		if v := getenv(env); v != "" && filepath.IsAbs(v) {
			return filepath.Join(v, "mcpsync")
		}
		return filepath.Join(home, fallback, "mcpsync")
	}
	return Dirs{
		Home:   home,
		Config: base("XDG_CONFIG_HOME", ".config"),
		State:  base("XDG_STATE_HOME", filepath.Join(".local", "state")),
		Cache:  base("XDG_CACHE_HOME", ".cache"),
	}
}

// ConfigHome returns $XDG_CONFIG_HOME or ~/.config, where several clients
// (OpenCode, Zed, Goose, Amp) keep their files too.
func ConfigHome(getenv Getenv, home string) string {
	if v := getenv("XDG_CONFIG_HOME"); v != "" && filepath.IsAbs(v) {
		return v
	}
	return filepath.Join(home, ".config")
}
