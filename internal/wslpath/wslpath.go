// Package wslpath maps the paths of a Linux machine (WSL most often) to
// the Windows machine whose files mcpsync writes from there: a Windows
// drive mounted at /mnt/c is C:\, and any other absolute Unix path is one
// a Windows client cannot reach.
package wslpath

import (
	"strings"
)

// ToWindows returns the Windows path of p when p is on a mounted drive
// (/mnt/c/Users/me → C:\Users\me); ok is false for any other path.
func ToWindows(p string) (string, bool) {
	rest, found := strings.CutPrefix(p, "/mnt/")
	if !found || len(rest) == 0 {
		return "", false
	}
	drive := rest[0]
	if !(drive >= 'a' && drive <= 'z' || drive >= 'A' && drive <= 'Z') || len(rest) > 1 && rest[1] != '/' {
		return "", false
	}
	tail := strings.TrimPrefix(rest[1:], "/")
	return strings.ToUpper(string(drive)) + `:\` + strings.ReplaceAll(tail, "/", `\`), true
}

// unixRoots are the top-level folders of a Unix machine: an absolute path
// under one of them names a file there, not an option (/c) or a pattern.
var unixRoots = []string{"home", "tmp", "usr", "opt", "var", "etc", "srv", "root", "mnt", "media", "nix", "snap", "run", "workspace", "workspaces", "proc"}

// IsUnixPath reports whether s is an absolute path on a Unix machine,
// alone or as the value of NAME=/path or --flag=/path.
func IsUnixPath(s string) bool {
	if i := strings.LastIndexByte(s, '='); i >= 0 && !strings.Contains(s[:i], "/") {
		s = s[i+1:]
	}
	if !strings.HasPrefix(s, "/") || strings.Contains(s, "://") {
		return false
	}
	first, _, _ := strings.Cut(s[1:], "/")
	for _, r := range unixRoots {
		if first == r {
			return true
		}
	}
	return false
}

// Map maps s for Windows: a path on a mounted drive (alone or after
// NAME= / --flag=) to its Windows path. It reports unreachable when s is
// another Unix path, which no Windows program can open.
func Map(s string) (mapped string, unreachable bool) {
	prefix, value := "", s
	if i := strings.LastIndexByte(s, '='); i >= 0 && !strings.Contains(s[:i], "/") {
		prefix, value = s[:i+1], s[i+1:]
	}
	if w, ok := ToWindows(value); ok {
		return prefix + w, false
	}
	return s, IsUnixPath(s)
}
