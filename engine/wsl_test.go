package engine

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWindowsHomeInWSL(t *testing.T) {
	users := t.TempDir()
	for _, d := range []string{"Public", "Default", "me"} {
		os.MkdirAll(filepath.Join(users, d), 0o755)
	}
	env := map[string]string{"WSL_DISTRO_NAME": "Ubuntu", "USER": "linuxme"}
	e := New(Env{GOOS: "linux", Getenv: func(k string) string { return env[k] }})
	if home, _ := e.WindowsHome(users); home != filepath.Join(users, "me") {
		t.Errorf("one user: WindowsHome = %q", home)
	}
	os.MkdirAll(filepath.Join(users, "other"), 0o755)
	if home, c := e.WindowsHome(users); home != "" || len(c) != 2 {
		t.Errorf("two users, neither this one: WindowsHome = %q %q; want no choice", home, c)
	}
	env["USER"] = "Other"
	if home, _ := e.WindowsHome(users); home != filepath.Join(users, "other") {
		t.Errorf("two users, one named as this one: WindowsHome = %q", home)
	}
	delete(env, "WSL_DISTRO_NAME")
	if home, _ := e.WindowsHome(users); home != "" {
		t.Errorf("outside WSL: WindowsHome = %q; want none", home)
	}
}
