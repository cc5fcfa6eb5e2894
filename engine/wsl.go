package engine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// WindowsUsers is where WSL mounts the Windows users' homes.
const WindowsUsers = "/mnt/c/Users"

// notUsers are the folders of C:\Users that are no one's home.
var notUsers = []string{"All Users", "Default", "Default User", "Public", "desktop.ini", "WsiAccount", "defaultuser0"}

// WindowsHome finds, in WSL, the home of the Windows user whose files
// --os windows means: the one folder of users (C:\Users as mounted here)
// that is someone's home, or the one named as this Linux user. It says
// nothing ("") outside WSL or when it cannot choose; the caller then asks
// for --home.
func (e *Engine) WindowsHome(users string) (home string, candidates []string) {
	if e.GOOS != "linux" || e.Getenv("WSL_DISTRO_NAME") == "" && e.Getenv("WSL_INTEROP") == "" {
		return "", nil
	}
	entries, err := os.ReadDir(users)
	if err != nil {
		return "", nil
	}
	for _, en := range entries {
		if en.IsDir() && !slices.Contains(notUsers, en.Name()) && !strings.HasPrefix(en.Name(), ".") {
			candidates = append(candidates, filepath.Join(users, en.Name()))
		}
	}
	switch {
	case len(candidates) == 1:
		return candidates[0], candidates
	case len(candidates) > 1:
		for _, c := range candidates {
			if strings.EqualFold(filepath.Base(c), e.Getenv("USER")) {
				return c, candidates
			}
		}
	}
	return "", candidates
}
