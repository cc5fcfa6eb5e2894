package resolve

import (
	"bytes"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/lazyre"
	"github.com/mcpsync/mcpsync/internal/secrets"
	"github.com/mcpsync/mcpsync/paste"
)

// ReadmeOptions steer snippet extraction.
type ReadmeOptions struct {
	File   string            // the file's path, for sources ("README.md:42")
	Name   string            // the entry's name
	Repo   string            // the repository name: a command named after it is the project's own executable
	Values map[string]string // inputs the user gave
}

// Block is one fenced code block of a Markdown text.
type Block struct {
	Info string // the info string after the fence ("json", "jsonc", "bash", "")
	Line int    // 1-based line of the block's first content line
	Text []byte
}

// FencedBlocks returns every fenced code block (``` or ~~~, any
// indentation, any info string, "``` json" with a space too). An unclosed
// fence runs to the end of the text, as CommonMark says.
func FencedBlocks(text []byte) []Block {
	var out []Block
	lines := bytes.SplitAfter(text, []byte("\n"))
	if n := len(lines); n > 0 && len(lines[n-1]) == 0 {
		lines = lines[:n-1]
	}
	for i := 0; i < len(lines); i++ {
		line := bytes.TrimRight(lines[i], "\r\n")
		indent := len(line) - len(bytes.TrimLeft(line, " \t"))
		rest := line[indent:]
		if len(rest) < 3 || (rest[0] != '`' && rest[0] != '~') {
			continue
		}
		ch := rest[0]
		n := 0
		for n < len(rest) && rest[n] == ch {
			n++
		}
		if n < 3 {
			continue
		}
		info := strings.TrimSpace(string(rest[n:]))
		if ch == '`' && strings.Contains(info, "`") {
			continue // inline code such as ```foo``` on one line
		}
		var body bytes.Buffer
		j := i + 1
		for ; j < len(lines); j++ {
			l := bytes.TrimRight(lines[j], "\r\n")
			t := bytes.TrimSpace(l)
			if len(t) >= n && bytes.Count(t, []byte{ch}) == len(t) {
				break
			}
			// Remove up to the fence's own indentation, as CommonMark does.
			k := 0
			for k < indent && k < len(l) && (l[k] == ' ' || l[k] == '\t') {
				k++
			}
			body.Write(l[k:])
			body.WriteByte('\n')
		}
		if f := strings.Fields(info); len(f) > 0 {
			info = strings.ToLower(f[0])
		}
		out = append(out, Block{Info: info, Line: i + 2, Text: body.Bytes()})
		i = j
	}
	return out
}

// configHint says a block may hold a server entry: it is worth parsing.
var configHint = lazyre.New(`"(mcpServers|servers|mcp|context_servers|command|url|serverUrl|httpUrl)"\s*:|\[mcp_servers|mcp_servers\.`)

// shellLangs are the info strings of shell blocks: only install commands
// are read from them.
var shellLangs = map[string]bool{"bash": true, "sh": true, "shell": true, "console": true, "zsh": true, "fish": true,
	"powershell": true, "ps1": true, "pwsh": true, "cmd": true, "bat": true, "terminal": true, "shell-session": true}

// serversHint says a block names a server list: failing to read it is news.
var serversHint = lazyre.New(`"(mcpServers|servers|context_servers)"\s*:|\[mcp_servers`)

// shellHint finds the install commands of the agents in a shell block.
var shellHint = lazyre.New(`(^|\s)(claude\s+mcp\s+add(-json)?|code(-insiders)?\s+--add-mcp|codex\s+mcp\s+add)\s`)

// vscodeBadge finds VS Code one-click install links in the text.
var vscodeBadge = lazyre.New(`(?:vscode(?:-insiders)?:mcp/install\?|vscode\.dev/redirect/mcp/install\?)([^)\s"'<>\]]+)`)

// ReadmeCandidates extracts every server entry a Markdown text shows:
// JSON/JSONC/TOML configuration snippets in fences of any language
// (through package paste, which reads every client's shape and
// fragments), agent install commands in shell blocks (claude mcp add,
// code --add-mcp, codex mcp add), and VS Code install links. Windows-only
// variants are skipped; placeholders and example values become inputs.
// Candidates come best first (see rankCandidates). Notes say what was
// skipped.
func ReadmeCandidates(text []byte, opts ReadmeOptions) ([]Candidate, []string) {
	var cands []Candidate
	var notes []string
	windows := 0
	var broken []string
	add := func(srvs []canonical.Server, line int, how string) {
		for _, s := range srvs {
			if windowsOnly(s) != "" {
				windows++ // the same entry for native Windows; adapters add cmd /c back themselves
				continue
			}
			entry := s.Name
			if entry == opts.Name {
				entry = "" // not named by the snippet
			}
			s.Name = opts.Name
			c := snippetCandidate(s, StepReadme, opts.Values)
			c.Entry = entry
			c.Line = line
			c.Source = opts.File + ":" + strconv.Itoa(line)
			c.Note = how
			c.Runner = runnerOf(c.Server, opts.Repo)
			cands = append(cands, c)
		}
	}
	for _, b := range FencedBlocks(text) {
		switch {
		case shellHint.Get().Match(b.Text) || shellLangs[b.Info]:
			for _, cl := range shellLines(b.Text) {
				if srv, ok := fromInstallCommand(cl.words, opts.Name); ok {
					add([]canonical.Server{srv}, b.Line+cl.line, "install command "+cl.words[0]+" "+cl.words[1])
				}
			}
		case configHint.Get().Match(b.Text):
			set, ds := paste.Parse(b.Text, paste.Options{File: opts.File})
			if ds.HasErrors() {
				// A single server object without a key needs a name.
				set, ds = paste.Parse(b.Text, paste.Options{File: opts.File, Name: opts.Name})
			}
			if ds.HasErrors() {
				// Prose-like JSON (a tool's output, a partial example) holds no
				// entry; a block that names servers but does not parse is worth saying.
				if serversHint.Get().Match(b.Text) {
					broken = append(broken, strconv.Itoa(b.Line))
				}
				continue
			}
			add(ownServers(set.Servers, opts.Repo, opts.Name), b.Line, "snippet in a ```"+b.Info+" block")
		}
	}
	for _, m := range vscodeBadge.Get().FindAllSubmatchIndex(text, -1) {
		line := 1 + bytes.Count(text[:m[0]], []byte("\n"))
		if srv, ok := fromBadge(string(text[m[2]:m[3]]), opts.Name); ok {
			add([]canonical.Server{srv}, line, "VS Code install link")
		}
	}
	if windows > 0 {
		notes = append(notes, plural(windows, "Windows-only variant")+" skipped (cmd /c, .cmd programs, drive paths)")
	}
	if len(broken) > 0 {
		notes = append(notes, "unreadable configuration snippet at line "+strings.Join(broken, ", ")+" (not JSON, JSONC or TOML even leniently)")
	}
	cands = dedupe(cands)
	rankCandidates(cands)
	ids := map[string]bool{}
	for i := range cands {
		id := opts.Name + ":" + cands[i].Runner
		if ids[id] {
			id += "@" + strconv.Itoa(cands[i].Line)
		}
		ids[id] = true
		cands[i].ID = id
	}
	return cands, notes
}

// ownServers keeps, of a snippet listing several servers (a whole config
// file shown as an example), those named after the repository, if any.
func ownServers(srvs []canonical.Server, repo, name string) []canonical.Server {
	if len(srvs) < 2 {
		return srvs
	}
	var own []canonical.Server
	for _, s := range srvs {
		k := ShortName(s.Name)
		if k != "" && (k == ShortName(repo) || k == name || strings.Contains(ShortName(repo), k) || strings.Contains(k, ShortName(repo))) {
			own = append(own, s)
		}
	}
	if len(own) > 0 {
		return own
	}
	return srvs
}

// windowsOnly says why a server only runs on Windows ("" if it does not):
// `cmd /c` wrappers, .cmd/.exe programs, drive-letter paths.
func windowsOnly(s canonical.Server) string {
	c := strings.ToLower(s.Command)
	if c == "cmd" || c == "cmd.exe" || c == "powershell" || c == "pwsh" {
		return "a Windows command interpreter"
	}
	for _, ext := range []string{".cmd", ".exe", ".bat", ".ps1"} {
		if strings.HasSuffix(c, ext) {
			return "a Windows program"
		}
	}
	for _, a := range append([]string{s.Command}, s.Args...) {
		if driveRE.Get().MatchString(a) {
			return "a Windows path"
		}
	}
	return ""
}

var driveRE = lazyre.New(`^[A-Za-z]:[\\/]|\\\\`)

// dedupe drops candidates that run the same thing as an earlier one (the
// same snippet shown for several clients).
func dedupe(cands []Candidate) []Candidate {
	seen := map[string]bool{}
	out := cands[:0]
	for _, c := range cands {
		k := CommandLine(c.Server)
		keys := make([]string, 0, len(c.Server.Env))
		for e := range c.Server.Env {
			keys = append(keys, e)
		}
		sort.Strings(keys)
		k += " env:" + strings.Join(keys, ",")
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, c)
	}
	return out
}

// runnerOf classifies how a server runs, for ranking.
func runnerOf(s canonical.Server, repo string) string {
	if s.Transport.IsRemote() || s.Command == "" {
		return "remote"
	}
	base := strings.ToLower(s.Command)
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	switch base {
	case "npx", "bunx", "pnpx":
		return "npx"
	case "uvx", "pipx":
		return "uvx"
	case "dnx":
		return "dnx"
	case "docker", "podman":
		return "docker"
	case "go":
		return "go"
	case "pnpm", "yarn":
		if len(s.Args) > 0 && s.Args[0] == "dlx" {
			return "npx"
		}
		return "source"
	case "node", "python", "python3", "uv", "deno", "bun", "java", "dotnet", "ruby", "php", "cargo", "make":
		return "source" // runs a checkout or an installed module
	}
	if repo != "" && (base == strings.ToLower(repo) || ShortName(base) == ShortName(repo)) {
		return "own-binary"
	}
	return "binary"
}

// runnerRank orders runners: packages fetched on demand first, then
// containers and the project's own executable, other installed programs,
// source checkouts, and hosted endpoints last (they are chosen with --remote).
var runnerRank = map[string]int{"npx": 0, "uvx": 0, "dnx": 0, "docker": 10, "own-binary": 10, "go": 15,
	"broken-docker": 25, "binary": 20, "source": 30, "remote": 40}

// runnerTiers name the ranks, for the reason a candidate was chosen.
var runnerTiers = map[int]string{0: "packages run on demand (npx, uvx, dnx)", 10: "containers and the project's own executable",
	15: "go run", 20: "other installed programs", 22: "a program at an example path (/path/to/...)", 25: "containers handed a host path they cannot see",
	30: "source checkouts", 40: "hosted endpoints"}

func rankOf(c Candidate) int {
	r, ok := runnerRank[c.Runner]
	if !ok {
		r = 20
	}
	if c.Runner == "docker" && dockerPathWithoutMount(c.Server.Args) {
		r = runnerRank["broken-docker"]
	}
	if (c.Runner == "own-binary" || c.Runner == "binary") && secrets.IsExamplePath(c.Server.Command) {
		r = 22 // the user must build or download it first, and say where
	}
	return r
}

// rankReason says why chosen, the first of cands that runs locally, was
// taken: the rule that ranked it above the others.
func rankReason(chosen Candidate, cands []Candidate) string {
	if len(cands) == 1 {
		return "the only candidate"
	}
	if chosen.Runner == "remote" {
		return "nothing runs locally: the hosted endpoint"
	}
	top, equals := rankOf(chosen), 0
	next := -1
	for _, c := range cands {
		switch r := rankOf(c); {
		case r == top:
			equals++
		case r > top && (next < 0 || r < next) && c.Runner != "remote":
			next = r
		}
	}
	var why string
	if next >= 0 {
		why = fmt.Sprintf("%s ranks first: %s before %s", chosen.Runner, runnerTiers[top], runnerTiers[next])
	} else {
		why = fmt.Sprintf("all rank the same (%s)", runnerTiers[top])
	}
	if equals > 1 {
		why += "; among equals, the source's first"
	}
	return why
}

// rankCandidates sorts best first, keeping document order among equals.
func rankCandidates(cands []Candidate) {
	sort.SliceStable(cands, func(i, j int) bool { return rankOf(cands[i]) < rankOf(cands[j]) })
}

// dockerPathWithoutMount reports a docker command that passes a host path
// placeholder to the container without mounting anything: the container
// cannot see that path.
func dockerPathWithoutMount(args []string) bool {
	mount := false
	pathInput := false
	for i, a := range args {
		if a == "-v" || a == "--mount" || strings.HasPrefix(a, "--volume") || strings.HasPrefix(a, "--mount=") || strings.HasPrefix(a, "-v=") {
			mount = true
		}
		if i > 0 && strings.Contains(a, "${") && looksLikePathInput(a) {
			pathInput = true
		}
	}
	return pathInput && !mount
}

func looksLikePathInput(a string) bool {
	u := strings.ToUpper(a)
	return strings.Contains(u, "DIR") || strings.Contains(u, "PATH") || strings.Contains(u, "FOLDER") || strings.Contains(u, "REPO")
}

// shellLine is one logical line of a shell block (continuations joined).
type shellLine struct {
	line  int // offset from the block's first line
	words []string
}

// shellLines splits a shell block into command words, joining lines that
// end in a backslash and dropping comments and prompts.
func shellLines(text []byte) []shellLine {
	var out []shellLine
	var cur strings.Builder
	start := 0
	for i, l := range strings.Split(string(text), "\n") {
		t := strings.TrimSpace(l)
		if cur.Len() == 0 {
			start = i
			t = strings.TrimPrefix(strings.TrimPrefix(t, "$ "), "> ")
			if strings.HasPrefix(t, "#") {
				continue
			}
		}
		if strings.HasSuffix(t, "\\") {
			cur.WriteString(strings.TrimSuffix(t, "\\") + " ")
			continue
		}
		cur.WriteString(t)
		line := cur.String()
		cur.Reset()
		if line == "" {
			continue
		}
		srv, ds := paste.FromCommand("x", []string{line}) // paste splits with shell quoting rules
		if ds.HasErrors() {
			continue
		}
		words := append([]string{srv.Command}, srv.Args...)
		// Drop leading VAR=value assignments.
		for len(words) > 0 && envAssign.Get().MatchString(words[0]) {
			words = words[1:]
		}
		if len(words) >= 2 {
			out = append(out, shellLine{line: start, words: words})
		}
	}
	return out
}

var envAssign = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*=`)

// fromInstallCommand reads an agent's install command:
//
//	claude mcp add [-s scope] [-e K=V] [--transport http|sse] [-H 'K: V'] NAME [--] CMD ARGS... | URL
//	claude mcp add-json NAME '{json}'
//	code --add-mcp '{"name": …, "command": …}'
//	codex mcp add NAME [--env K=V] -- CMD ARGS... | NAME --url URL
func fromInstallCommand(w []string, name string) (canonical.Server, bool) {
	switch {
	case len(w) >= 3 && w[0] == "claude" && w[1] == "mcp" && w[2] == "add-json" && len(w) >= 5:
		return parseOne([]byte(w[4]), name)
	case len(w) >= 3 && w[0] == "claude" && w[1] == "mcp" && w[2] == "add":
		return claudeAdd(w[3:], name)
	case len(w) >= 3 && (w[0] == "code" || w[0] == "code-insiders") && w[1] == "--add-mcp":
		return parseOne([]byte(w[2]), name)
	case len(w) >= 4 && w[0] == "codex" && w[1] == "mcp" && w[2] == "add":
		return codexAdd(w[3:], name)
	}
	return canonical.Server{}, false
}

func parseOne(js []byte, name string) (canonical.Server, bool) {
	set, ds := paste.Parse(js, paste.Options{Name: name})
	if ds.HasErrors() || len(set.Servers) != 1 {
		return canonical.Server{}, false
	}
	return set.Servers[0], true
}

func claudeAdd(w []string, name string) (canonical.Server, bool) {
	srv := canonical.Server{Name: name}
	var pos []string
	transport := ""
	env := map[string]string{}
	headers := map[string]string{}
	for i := 0; i < len(w); i++ {
		a := w[i]
		if a == "--" {
			pos = append(pos, w[i+1:]...)
			break
		}
		val := func() string {
			if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "--") {
				return v
			}
			if i+1 < len(w) {
				i++
				return w[i]
			}
			return ""
		}
		switch {
		case a == "-t" || a == "--transport" || strings.HasPrefix(a, "--transport="):
			transport = val()
		case a == "-s" || a == "--scope" || strings.HasPrefix(a, "--scope="):
			val()
		case a == "-e" || a == "--env" || strings.HasPrefix(a, "--env="):
			if k, v, ok := strings.Cut(val(), "="); ok {
				env[k] = v
			}
		case a == "-H" || a == "--header" || strings.HasPrefix(a, "--header="):
			if k, v, ok := strings.Cut(val(), ":"); ok {
				headers[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		case strings.HasPrefix(a, "-"):
			// an option we do not know; assume it takes no value
		case len(pos) > 0:
			// After the name (and the options given after it, as claude
			// takes them: NAME -e K=V -- CMD), the first word of the
			// server's command: everything from here is its.
			pos = append(pos, w[i:]...)
			i = len(w)
		default:
			pos = append(pos, a)
		}
	}
	if len(pos) < 2 {
		return srv, false
	}
	target := pos[1:]
	switch strings.ToLower(transport) {
	case "http", "sse":
		if len(target) != 1 {
			return srv, false
		}
		srv.Transport, srv.URL = canonical.HTTP, target[0]
		if strings.EqualFold(transport, "sse") {
			srv.Transport = canonical.SSE
		}
		if len(headers) > 0 {
			srv.Headers = headers
		}
	default:
		srv.Transport, srv.Command, srv.Args = canonical.Stdio, target[0], target[1:]
		if len(env) > 0 {
			srv.Env = env
		}
	}
	srv.Normalize()
	return srv, len(srv.Validate()) == 0
}

func codexAdd(w []string, name string) (canonical.Server, bool) {
	srv := canonical.Server{Name: name}
	env := map[string]string{}
	for i := 1; i < len(w); i++ { // w[0] is the name
		switch a := w[i]; {
		case a == "--":
			if i+1 < len(w) {
				srv.Transport, srv.Command, srv.Args = canonical.Stdio, w[i+1], w[i+2:]
			}
			i = len(w)
		case a == "--url" && i+1 < len(w):
			i++
			srv.Transport, srv.URL = canonical.HTTP, w[i]
		case strings.HasPrefix(a, "--url="):
			srv.Transport, srv.URL = canonical.HTTP, strings.TrimPrefix(a, "--url=")
		case a == "--env" && i+1 < len(w):
			i++
			if k, v, ok := strings.Cut(w[i], "="); ok {
				env[k] = v
			}
		}
	}
	if srv.Command != "" && len(env) > 0 {
		srv.Env = env
	}
	srv.Normalize()
	return srv, (srv.Command != "" || srv.URL != "") && len(srv.Validate()) == 0
}

// fromBadge reads a VS Code install link's query: a URL-encoded JSON
// server, or name=…&config=… (the vscode.dev redirect).
func fromBadge(q, name string) (canonical.Server, bool) {
	if vals, err := url.ParseQuery(q); err == nil && vals.Get("config") != "" {
		return parseOne([]byte(vals.Get("config")), name)
	}
	js, err := url.QueryUnescape(q)
	if err != nil {
		return canonical.Server{}, false
	}
	return parseOne([]byte(js), name)
}
