package resolve

import (
	"fmt"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
)

// Step names, in chain order. Evidence and candidates carry them.
const (
	StepInput      = "input"       // the input itself named a package or an endpoint
	StepRepository = "repository"  // the GitHub repository and its file list
	StepRegistry   = "registry"    // the official MCP registry, matched on repository.url
	StepServerJSON = "server.json" // server.json in the repository
	StepMonorepo   = "monorepo"    // folders that each hold a server: the user chooses one
	StepOwnership  = "ownership"   // package.json mcpName / README mcp-name: -> registry
	StepReadme     = "readme"      // configuration snippets in the README and docs
	StepManifest   = "manifest"    // package.json bin, pyproject scripts, go.mod
	StepContainer  = "container"   // a Dockerfile, with the published image the README names
	StepPlugin     = "plugin"      // external resolver commands
)

// Step is one piece of evidence: what the resolver looked at and what it
// found there. --explain prints them in order.
type Step struct {
	Step   string `json:"step"`
	Source string `json:"source,omitempty"` // URL or repository path looked at
	Found  bool   `json:"found"`
	Detail string `json:"detail"` // what was found, or why nothing was
}

func (s Step) String() string {
	mark := "-"
	if s.Found {
		mark = "+"
	}
	out := fmt.Sprintf("%s %-11s %s", mark, s.Step, s.Detail)
	if s.Source != "" {
		out += " (" + s.Source + ")"
	}
	return out
}

// RequiredInput is a value the entry needs from the user: an environment
// variable, an argument, a header or a URL part. The entry refers to it as
// ${Name}; a secret is never written as a value.
type RequiredInput struct {
	Name        string   `json:"name"`            // the reference name: ${Name}
	Kind        string   `json:"kind"`            // env, arg, header, url
	Label       string   `json:"label,omitempty"` // as the source spells it: a flag, a {variable}, a header name
	Description string   `json:"description,omitempty"`
	Required    bool     `json:"required"`
	Secret      bool     `json:"secret"`
	Default     string   `json:"default,omitempty"`
	Example     string   `json:"example,omitempty"` // placeholder text or the README's example value, never used as a value
	Choices     []string `json:"choices,omitempty"`
	// Used says whether the entry refers to the input. Optional inputs the
	// entry leaves out are listed with Used false so the user learns of them.
	Used bool `json:"used"`
	// Provided says the user gave a value (Options.Inputs): written into
	// the entry for a non-secret, kept for the probe only for a secret.
	Provided bool `json:"provided,omitempty"`
}

// Candidate is one server entry a step proposed.
type Candidate struct {
	ID     string           `json:"id"`   // stable handle for --pick
	Step   string           `json:"step"` // which chain step proposed it
	Server canonical.Server `json:"server"`
	Inputs []RequiredInput  `json:"inputs,omitempty"`
	// Runner is how it runs: npx, uvx, dnx, docker, go, binary, remote.
	Runner string `json:"runner"`
	// Source is where it came from: a URL, or repository path:line.
	Source string `json:"source,omitempty"`
	// Line is the line of the snippet it was read from (README step).
	Line int `json:"line,omitempty"`
	// Entry is the name the snippet gives the entry (README step), which
	// tells one server's snippets from another's.
	Entry string `json:"entry,omitempty"`
	// Subfolder is the monorepo package folder the candidate belongs to.
	Subfolder string `json:"subfolder,omitempty"`
	// RegistryName is the server's official registry name, when known.
	RegistryName string `json:"registryName,omitempty"`
	Note         string `json:"note,omitempty"`
	// AltTransport is the other remote transport to try when the declared
	// one fails (a registry entry that declares sse for a /mcp URL).
	AltTransport canonical.Transport `json:"altTransport,omitempty"`
}

// Result is a resolved server with the evidence that led to it.
type Result struct {
	Input  Input            `json:"input"`
	Server canonical.Server `json:"server"`
	// Inputs the entry refers to (Used) or could take (optional, not Used).
	Inputs   []RequiredInput `json:"inputs,omitempty"`
	Step     string          `json:"step"`   // the step whose answer was taken
	Source   string          `json:"source"` // where that answer was read
	Runner   string          `json:"runner"`
	Evidence []Step          `json:"evidence"`
	// Candidates are the entries considered at the winning step, best
	// first; the first one is Server.
	Candidates   []Candidate         `json:"candidates,omitempty"`
	AltTransport canonical.Transport `json:"altTransport,omitempty"`
	// Why is the rule that chose Server among the candidates.
	Why string `json:"why,omitempty"`
}

// MissingInputs returns the required inputs that have no value in values
// (user answers) and, for environment references, none in the environment
// lookup (which may be nil).
func (r *Result) MissingInputs(values map[string]string, lookupEnv func(string) (string, bool)) []RequiredInput {
	var out []RequiredInput
	for _, in := range r.Inputs {
		if !in.Required || !in.Used || in.Provided {
			continue
		}
		if _, ok := values[in.Name]; ok {
			continue
		}
		if lookupEnv != nil {
			if _, ok := lookupEnv(in.Name); ok {
				continue
			}
		}
		out = append(out, in)
	}
	return out
}

// NotFoundError says that no step produced a server. Evidence says what
// each step saw.
type NotFoundError struct {
	Input    Input
	Evidence []Step
	// Advice replaces the general advice when a step knows better (a
	// Dockerfile without a published image: build it).
	Advice string
}

func (e *NotFoundError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "no MCP server found for %s", e.Input.String())
	b.WriteString("; looked at:")
	for _, s := range e.Evidence {
		b.WriteString("\n  " + s.String())
	}
	b.WriteString("\n" + firstNonEmpty(e.Advice, notFoundAdvice))
	return b.String()
}

const notFoundAdvice = "add the server by hand (mcpsync add NAME -- COMMAND ARGS...), or configure a resolver plugin"

// Short is the message without the evidence, for when it was shown already.
func (e *NotFoundError) Short() string {
	return fmt.Sprintf("no MCP server found for %s; %s", e.Input.String(), firstNonEmpty(e.Advice, notFoundAdvice))
}

// AmbiguousError says that a repository holds several servers and the
// user must choose one with --pick.
type AmbiguousError struct {
	Input      Input
	Candidates []Candidate
	Evidence   []Step
	// Ref is the branch read, for the folder URLs of a repository's servers.
	Ref string
}

func (e *AmbiguousError) Error() string {
	var b strings.Builder
	folders := e.Input.Kind == KindGitHub
	for _, c := range e.Candidates {
		folders = folders && c.Subfolder != ""
	}
	if folders {
		fmt.Fprintf(&b, "%s holds %d servers; add one with --pick NAME or by its folder:", e.Input.String(), len(e.Candidates))
	} else {
		fmt.Fprintf(&b, "%s holds %d servers; choose one with --pick:", e.Input.String(), len(e.Candidates))
	}
	idW, cmdW := 0, 0
	for _, c := range e.Candidates {
		idW, cmdW = max(idW, len(c.ID)), max(cmdW, len(CommandLine(c.Server)))
	}
	for _, c := range e.Candidates {
		if folders {
			in := e.Input
			in.Ref, in.Subdir = firstNonEmpty(e.Ref, in.Ref, "HEAD"), c.Subfolder
			fmt.Fprintf(&b, "\n  --pick %-*s  %-*s  %s", idW, c.ID, cmdW, CommandLine(c.Server), in.String())
			continue
		}
		fmt.Fprintf(&b, "\n  --pick %-*s  %s", idW, c.ID, describeCandidate(c))
	}
	return b.String()
}

// PickError says that --pick matched no candidate.
type PickError struct {
	Pick       string
	Candidates []Candidate
}

func (e *PickError) Error() string {
	ids := make([]string, len(e.Candidates))
	for i, c := range e.Candidates {
		ids[i] = c.ID
	}
	return fmt.Sprintf("--pick %q matches none of the candidates; choose one of: %s", e.Pick, strings.Join(ids, ", "))
}

// RateLimitError says that GitHub (or the registry) refused more requests.
type RateLimitError struct {
	URL           string
	Reset         time.Time // zero when the server did not say
	Authenticated bool
}

func (e *RateLimitError) Error() string {
	msg := "rate limit exceeded at " + hostOf(e.URL)
	if !e.Reset.IsZero() {
		msg += fmt.Sprintf("; it resets at %s (in %s)", e.Reset.Local().Format("15:04:05"),
			time.Until(e.Reset).Round(time.Second))
	}
	if e.Authenticated {
		msg += "; wait for the reset"
	} else {
		msg += "; set GITHUB_TOKEN (5000 requests/hour instead of 60) or wait for the reset"
	}
	return msg
}

// HTTPError is an unexpected answer from GitHub or the registry.
type HTTPError struct {
	URL     string
	Status  int
	Message string
}

func (e *HTTPError) Error() string {
	msg := fmt.Sprintf("GET %s: HTTP %d", e.URL, e.Status)
	if e.Message != "" {
		msg += ": " + e.Message
	}
	return msg
}

// RepoNotFoundError says GitHub does not know the repository (or hides a
// private one from an unauthenticated caller).
type RepoNotFoundError struct {
	Owner, Repo   string
	Authenticated bool
}

func (e *RepoNotFoundError) Error() string {
	msg := fmt.Sprintf("GitHub repository %s/%s not found; check the spelling", e.Owner, e.Repo)
	if !e.Authenticated {
		msg += ", or set GITHUB_TOKEN if it is private"
	}
	return msg
}

// RegistryNotFoundError says the registry has no active server by that name.
type RegistryNotFoundError struct {
	Name     string
	Evidence []Step
}

func (e *RegistryNotFoundError) Error() string {
	return fmt.Sprintf("the MCP registry has no active server named %q; check the name (registry names read io.github.owner/repo), "+
		"or give the GitHub URL instead", e.Name)
}

// PluginError is a resolver plugin that failed, timed out or answered
// something that is not a server entry.
type PluginError struct {
	Plugin string
	Err    error
	Stderr string // the last lines the plugin wrote to stderr
	// Evidence is what the chain saw before the plugins ran (set when the
	// plugins were the last step).
	Evidence []Step
}

func (e *PluginError) Error() string {
	msg := fmt.Sprintf("resolver plugin %q: %v", e.Plugin, e.Err)
	if s := strings.TrimSpace(e.Stderr); s != "" {
		msg += "; its stderr ends with: " + lastLines(s, 3)
	}
	return msg
}

func (e *PluginError) Unwrap() error { return e.Err }

func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " / ")
}

func hostOf(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	if i := strings.IndexByte(u, '/'); i >= 0 {
		u = u[:i]
	}
	return u
}

// describeCandidate is a one-line summary: the command line or the URL.
func describeCandidate(c Candidate) string {
	s := CommandLine(c.Server)
	if c.Subfolder != "" {
		s += "  [" + c.Subfolder + "]"
	}
	return s
}

// CommandLine renders a server as the command line or URL it runs.
func CommandLine(s canonical.Server) string {
	if s.Transport.IsRemote() || (s.Command == "" && s.URL != "") {
		return string(s.Transport) + " " + s.URL
	}
	parts := []string{shellQuote(s.Command)}
	for _, a := range s.Args {
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(parts, " ")
}

func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	if strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@%+=:,./_-${}", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
