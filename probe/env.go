package probe

import (
	"os"
	"strings"
)

// baseEnv is the environment a probed stdio server starts with, before its
// own env: a command from a README, a registry or a repository should get
// what it needs to run (where programs are, the home and temporary
// directories, the locale, the proxy and certificate settings a download
// needs) and not the user's tokens. Options.InheritEnv gives it the whole
// environment instead, as a shell would. The server's own variables (its
// env, with references expanded) come after and win.
func baseEnv(inherit bool) []string {
	if inherit {
		return os.Environ()
	}
	var out []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if passThrough(name) {
			out = append(out, kv)
		}
	}
	return out
}

// passedEnv are the variables baseEnv keeps (case-insensitively on
// Windows, whose names are).
var passedEnv = map[string]bool{
	// where programs and files are
	"PATH": true, "HOME": true, "USER": true, "LOGNAME": true, "SHELL": true, "TMPDIR": true, "TMP": true, "TEMP": true,
	"XDG_RUNTIME_DIR": true, "XDG_CACHE_HOME": true, "XDG_CONFIG_HOME": true, "XDG_DATA_HOME": true, "XDG_STATE_HOME": true,
	// the locale and terminal
	"LANG": true, "LANGUAGE": true, "TZ": true, "TERM": true,
	// what a download through npx, uvx, docker or go run needs
	"HTTP_PROXY": true, "HTTPS_PROXY": true, "NO_PROXY": true, "ALL_PROXY": true,
	"SSL_CERT_FILE": true, "SSL_CERT_DIR": true, "NODE_EXTRA_CA_CERTS": true, "REQUESTS_CA_BUNDLE": true,
	"NVM_DIR": true, "VOLTA_HOME": true, "PNPM_HOME": true, "BUN_INSTALL": true, "UV_CACHE_DIR": true,
	"GOPATH": true, "GOCACHE": true, "GOMODCACHE": true, "DOCKER_HOST": true,
	// Windows
	"SYSTEMROOT": true, "SYSTEMDRIVE": true, "WINDIR": true, "COMSPEC": true, "PATHEXT": true, "APPDATA": true,
	"LOCALAPPDATA": true, "USERPROFILE": true, "PROGRAMDATA": true, "PROGRAMFILES": true, "PROGRAMFILES(X86)": true,
	"COMMONPROGRAMFILES": true, "HOMEDRIVE": true, "HOMEPATH": true, "NUMBER_OF_PROCESSORS": true,
	"PROCESSOR_ARCHITECTURE": true, "OS": true, "USERNAME": true,
}

func passThrough(name string) bool {
	up := strings.ToUpper(name)
	return passedEnv[up] || strings.HasPrefix(up, "LC_")
}
