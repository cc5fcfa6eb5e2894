package resolve

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/lazyre"
	"github.com/mcpsync/mcpsync/internal/mapkeys"
)

// A RunnerProblem is something in a resolved command line that a
// README, a registry entry or a repository's manifest can use to make the
// user run what they did not mean to: a runner option that changes where
// the code comes from or what it can reach, a package name its ecosystem
// would never publish (an option in disguise), a shell command line, or an
// environment variable that changes how a runtime loads code. mcpsync adds
// such an entry only with --allow-runner-options.
type RunnerProblem struct {
	Field string `json:"field"` // args[2], env.NODE_OPTIONS
	Text  string `json:"text"`
	Why   string `json:"why"`
}

func (p RunnerProblem) String() string { return fmt.Sprintf("%s %q: %s", p.Field, p.Text, p.Why) }

// riskyFlags are the options, per runner, that change where code comes
// from or what the server can reach; true means the option takes a value in
// the next argument.
var riskyFlags = map[string]map[string]string{
	"npx": {
		"-c": "runs a shell command line", "--call": "runs a shell command line",
		"--registry": "installs from another registry", "--userconfig": "reads another npm configuration",
		"--globalconfig": "reads another npm configuration", "--script-shell": "runs scripts in another shell",
		"--node-options": "passes options to node", "--prefix": "installs somewhere else",
	},
	"uvx": {
		"--index-url": "installs from another package index", "--extra-index-url": "installs from another package index",
		"--index": "installs from another package index", "--default-index": "installs from another package index",
		"--find-links": "installs from other links", "-f": "installs from other links",
		"--with": "installs more packages", "--with-requirements": "installs more packages",
		"--with-editable": "installs a local package",
	},
	"docker": {
		"-v": "mounts a host path", "--volume": "mounts a host path", "--mount": "mounts a host path",
		"--privileged": "runs with every privilege", "--network": "changes the network", "--net": "changes the network",
		"--cap-add": "adds kernel capabilities", "--pid": "shares the host's processes", "--ipc": "shares the host's IPC",
		"--userns": "changes the user namespace", "--device": "gives a host device", "--security-opt": "changes security options",
		"--env-file": "reads a file of the host into the container", "--uts": "shares the host's UTS namespace",
		"--cgroupns": "shares the host's cgroups", "--volumes-from": "mounts another container's volumes",
	},
	"go": {
		"-exec": "runs the program through another command", "-toolexec": "runs the compiler through another command",
		"-modfile": "reads another go.mod", "-overlay": "replaces source files",
	},
}

// runnerAliases maps other spellings of a runner to the one above.
var runnerAliases = map[string]string{
	"npx": "npx", "npm": "npx", "pnpm": "npx", "bunx": "npx", "bun": "npx", "yarn": "npx",
	"uvx": "uvx", "uv": "uvx", "pipx": "uvx",
	"docker": "docker", "podman": "docker", "nerdctl": "docker",
	"go": "go",
}

// shells are commands whose -c (or /c, -Command) runs a command line.
var shells = map[string]string{"sh": "-c", "bash": "-c", "zsh": "-c", "dash": "-c", "fish": "-c", "cmd": "/c", "pwsh": "-command", "powershell": "-command"}

// loaderEnv are environment variables that change how a runtime or runner
// loads code.
var loaderEnv = lazyre.New(`^(LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_.*|NODE_OPTIONS|NODE_PATH|PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|RUBYOPT|PERL5OPT|PERL5LIB|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|GOFLAGS|GOPROXY|GONOSUMDB|GONOSUMCHECK|GOSUMDB|GOPRIVATE|NPM_CONFIG_.*|npm_config_.*|YARN_.*|PIP_.*|UV_.*INDEX.*|UV_FIND_LINKS|DOCKER_HOST|BASH_ENV|ENV|PROMPT_COMMAND|ZDOTDIR)$`)

// npmName is a package name npm publishes: lower case, URL-safe, an
// optional @scope/, then an optional @version (a range or tag, no spaces).
var npmName = lazyre.New(`^(@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*(@[A-Za-z0-9.^~<>=*+_-][A-Za-z0-9.^~<>=*+_|\- ]*)?$`)

// pypiName is a PEP 508 name with optional extras and a version (==x, @x).
var pypiName = lazyre.New(`(?i)^[a-z0-9]([a-z0-9._-]*[a-z0-9])?(\[[a-z0-9._, -]+\])?((==|>=|<=|~=|!=|@)[a-z0-9.*+!_-]+)?$`)

// imageRef is an OCI image reference: [host[:port]/]path[:tag][@digest].
var imageRef = lazyre.New(`^([a-z0-9.-]+(:[0-9]+)?/)?[a-z0-9]+([._-][a-z0-9]+)*(/[a-z0-9]+([._-][a-z0-9]+)*)*(:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(@sha256:[a-f0-9]{64})?$`)

// goModulePath is a module path with a version: host/path[/...]@version.
var goModulePath = lazyre.New(`^[a-z0-9.-]+\.[a-z]{2,}(/[A-Za-z0-9._~-]+)+(@[A-Za-z0-9._+-]+)?$`)

// CheckCommand looks at a resolved stdio server for what RunnerProblem
// describes, and returns every problem found (nil for a remote server).
func CheckCommand(srv canonical.Server) []RunnerProblem {
	if srv.Transport != canonical.Stdio && srv.Command == "" {
		return nil
	}
	var out []RunnerProblem
	add := func(field, text, why string) { out = append(out, RunnerProblem{field, text, why}) }
	cmd, args := srv.Command, srv.Args
	offset := 0
	base := strings.TrimSuffix(strings.ToLower(filepath.Base(strings.ReplaceAll(cmd, `\`, "/"))), ".exe")
	base = strings.TrimSuffix(strings.TrimSuffix(base, ".cmd"), ".ps1")
	if base == "cmd" && len(args) >= 2 && strings.EqualFold(args[0], "/c") {
		// Windows wrapping (cmd /c npx …): look at what it wraps.
		base = strings.TrimSuffix(strings.ToLower(args[1]), ".cmd")
		args, offset = args[2:], 2
	}
	if flag, ok := shells[base]; ok {
		for i, a := range args {
			if strings.EqualFold(a, flag) || base != "cmd" && strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a[1:], "c") {
				add(fmt.Sprintf("args[%d]", i+offset), a, "runs a shell command line, which can do anything")
				break
			}
		}
	}
	if runner, ok := runnerAliases[base]; ok {
		out = append(out, checkRunner(runner, base, args, offset)...)
	}
	for _, k := range mapkeys.Sorted(srv.Env) {
		if loaderEnv.Get().MatchString(k) {
			add("env."+k, srv.Env[k], "changes how the program or its runner loads code")
		}
	}
	return out
}

// checkRunner checks one runner's options and its package argument.
func checkRunner(runner, base string, args []string, offset int) []RunnerProblem {
	var out []RunnerProblem
	add := func(i int, text, why string) {
		out = append(out, RunnerProblem{fmt.Sprintf("args[%d]", i+offset), text, why})
	}
	flags := riskyFlags[runner]
	start := 0
	switch {
	case base == "npm" || base == "pnpm" || base == "yarn" || base == "bun":
		// npm exec / pnpm dlx / yarn dlx / bun x: the package follows the subcommand
		if len(args) == 0 || !slicesContains([]string{"exec", "x", "dlx"}, args[0]) {
			return nil
		}
		start = 1
	case base == "uv":
		if len(args) < 2 || args[0] != "tool" || args[1] != "run" {
			return nil
		}
		start = 2
	case base == "pipx":
		if len(args) == 0 || args[0] != "run" {
			return nil
		}
		start = 1
	case runner == "docker":
		if len(args) == 0 || args[0] != "run" {
			return nil
		}
		start = 1
	case runner == "go":
		if len(args) == 0 || args[0] != "run" {
			return nil
		}
		start = 1
	}
	pkgSeen := false
	for i := start; i < len(args); i++ {
		a := args[i]
		if a == "--" || pkgSeen && runner != "docker" {
			break // what follows is the package's own command line
		}
		if strings.HasPrefix(a, "-") {
			name, value, inline := strings.Cut(a, "=")
			if why, bad := flags[name]; bad {
				add(i, a, why)
			} else if runner == "uvx" && name == "--from" {
				v := value
				if !inline && i+1 < len(args) {
					v = args[i+1]
				}
				if strings.Contains(v, "://") || strings.HasPrefix(v, "git+") || strings.HasPrefix(v, ".") || strings.HasPrefix(v, "/") {
					add(i, a+" "+v, "installs from a URL, a git repository or a path")
				}
			} else if runner == "npx" && strings.HasPrefix(name, "--@") && strings.HasSuffix(name, ":registry") {
				add(i, a, "installs a scope from another registry")
			}
			if !inline && takesValue(runner, name) {
				i++ // the option's value is not the package
			}
			continue
		}
		pkgSeen = true
		if why := badPackage(runner, a); why != "" {
			add(i, a, why)
		}
		if runner == "docker" {
			break
		}
	}
	return out
}

// takesValue reports whether a runner's option takes the next argument.
func takesValue(runner, flag string) bool {
	switch runner {
	case "npx":
		return slicesContains([]string{"-p", "--package", "--registry", "--userconfig", "--globalconfig", "--script-shell", "--node-options", "--prefix", "--cache", "-c", "--call"}, flag)
	case "uvx":
		return slicesContains([]string{"--from", "--with", "--with-requirements", "--with-editable", "--index-url", "--extra-index-url", "--index", "--default-index", "--find-links", "-f", "--python", "-p"}, flag)
	case "docker":
		// every long option of docker run but the boolean ones takes a value
		return strings.HasPrefix(flag, "--") && !slicesContains([]string{"--rm", "--init", "--interactive", "--tty", "--privileged", "--read-only", "--detach"}, flag) ||
			slicesContains([]string{"-e", "-v", "-p", "-w", "-u", "-l", "-h", "--name"}, flag)
	case "go":
		return slicesContains([]string{"-exec", "-toolexec", "-modfile", "-overlay", "-tags", "-ldflags", "-gcflags", "-mod"}, flag)
	}
	return false
}

// badPackage says why a package argument is not what its ecosystem
// publishes, or "".
func badPackage(runner, pkg string) string {
	switch runner {
	case "npx":
		if strings.Contains(pkg, "://") || strings.HasPrefix(pkg, "git") && strings.Contains(pkg, ":") || strings.HasPrefix(pkg, "github:") ||
			strings.HasPrefix(pkg, "file:") || strings.HasPrefix(pkg, ".") || strings.HasPrefix(pkg, "/") {
			return "installs from a URL, a git repository or a path, not from the npm registry"
		}
		if len(pkg) > 214 || !npmName.Get().MatchString(pkg) {
			return "is not a package name npm publishes (lower case, URL-safe, an optional @scope/)"
		}
	case "uvx":
		if !pypiName.Get().MatchString(pkg) {
			return "is not a package name PyPI publishes"
		}
	case "docker":
		if !imageRef.Get().MatchString(pkg) {
			return "is not an image reference"
		}
	case "go":
		if !goModulePath.Get().MatchString(pkg) && !strings.HasPrefix(pkg, ".") {
			return "is not a module path"
		}
		if strings.HasPrefix(pkg, ".") {
			return "runs a local directory, not a published module"
		}
	}
	return ""
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
