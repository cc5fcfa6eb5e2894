package resolve_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/resolve"
	"github.com/mcpsync/mcpsync/resolve/resolvetest"
)

// corpusDir is the shared resolver corpus, relative to this package.
const corpusDir = "../../shared/corpus/resolver"

func loadCorpus(t testing.TB) []resolvetest.Case {
	t.Helper()
	cases, err := resolvetest.LoadCorpus(corpusDir)
	if err != nil {
		t.Skipf("resolver corpus not available at %s (%v): the shared reference material is needed for this test", corpusDir, err)
	}
	return cases
}

// expected is the shape of index.json's "expected".
type expected struct {
	Stdio        *expEntry  `json:"stdio"`
	Remote       *expEntry  `json:"remote"`
	Lenient      *expEntry  `json:"lenient"`
	Alternatives []expEntry `json:"alternatives"`
	Inputs       []expInput `json:"inputs"`
	Strict       string     `json:"strict"`
}

type expEntry struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	Type    string            `json:"type"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
	MCPB    string            `json:"mcpb"`
}

type expInput struct {
	Name     string `json:"name"`
	Required bool   `json:"required"`
	Secret   bool   `json:"secret"`
}

// knownMisses are the corpus cases the resolver does not produce the
// expected entry for, with the reason. The test fails when one of them
// starts passing (remove it then) or when any other case fails.
var knownMisses = map[string]string{}

// TestCorpus resolves every corpus case through the fake GitHub (the file
// at its real path in an otherwise empty repository) and, for server.json
// cases, through the fake registry (the server.json published, the
// repository empty), and compares with the expected entry:
//
//   - "stdio": the default answer must be exactly this (env keys too);
//   - "remote": the --remote answer must be exactly this;
//   - no "stdio": the default answer is the remote (nothing runnable) or one
//     of the "alternatives" (command and args exact, its env keys present);
//   - "inputs": each listed input exists with that required/secret flag;
//   - "lenient" (an invented shape) counts as "stdio".
//
// Placeholders of the index ("<required secret>", "<input: dir>") match any
// ${NAME} reference: the resolver never writes a value there.
func TestCorpus(t *testing.T) {
	cases := loadCorpus(t)
	fake := resolvetest.New()
	defer fake.Close()
	for _, c := range cases {
		if c.InputKind == "server.json" {
			if err := fake.AddServer(c.Data, ""); err != nil {
				t.Fatal(err)
			}
		}
	}
	pass, total := 0, 0
	var report []string
	for _, c := range cases {
		routes := []string{"repo"}
		if c.InputKind == "server.json" {
			routes = append(routes, "registry")
		}
		for _, route := range routes {
			id := c.ID + "/" + route
			total++
			why := runCase(t, c, route)
			_, miss := knownMisses[id]
			switch {
			case why == "" && miss:
				t.Errorf("%s: passes now; remove it from knownMisses", id)
			case why != "" && !miss:
				t.Errorf("%s: %s", id, why)
			}
			if why == "" {
				pass++
				report = append(report, "PASS "+id)
			} else {
				report = append(report, "MISS "+id+": "+why)
			}
		}
	}
	sort.Strings(report)
	for _, l := range report {
		t.Log(l)
	}
	t.Logf("corpus: %d of %d case routes produce the expected entry", pass, total)
}

// runCase resolves one case by one route and returns why it does not
// match ("" when it does).
func runCase(t *testing.T, c resolvetest.Case, route string) string {
	t.Helper()
	var exp expected
	if err := json.Unmarshal(c.Expected, &exp); err != nil {
		return "unreadable expectation: " + err.Error()
	}
	if exp.Lenient != nil && exp.Stdio == nil {
		exp.Stdio = exp.Lenient
	}
	fake := resolvetest.New()
	defer fake.Close()
	repo := c.RepoOf()
	in := "https://github.com/" + c.Repo
	if route == "registry" {
		repo.Files = map[string][]byte{"LICENSE": []byte("MIT\n")}
		if err := fake.AddServer(c.Data, ""); err != nil {
			return err.Error()
		}
		// Other servers in the registry, so matching on repository.url matters.
		for _, other := range loadCorpus(t) {
			if other.InputKind == "server.json" && other.ID != c.ID {
				fake.AddServer(other.Data, "") //nolint:errcheck // already checked in TestCorpus
			}
		}
	} else if dir := path.Dir(c.Path); c.InputKind == "readme" && dir != "." && !strings.HasPrefix(dir, "docs") {
		in += "/tree/main/" + dir // a README in a monorepo folder is given as that folder's URL
	}
	fake.AddRepo(repo)
	opts := resolve.Options{GitHubAPI: fake.APIURL, GitHubRaw: fake.RawURL, Registry: fake.RegistryURL}
	input, err := resolve.ParseInput(in)
	if err != nil {
		return err.Error()
	}
	def, err := resolve.Resolve(context.Background(), input, opts)
	if err != nil {
		return "default: " + err.Error()
	}
	var whys []string
	// A real, published server is never taken for a disguised one.
	if probs := resolve.CheckCommand(def.Server); len(probs) > 0 {
		whys = append(whys, fmt.Sprintf("%s is flagged: %v", resolve.CommandLine(def.Server), probs))
	}
	if exp.Stdio != nil {
		if why := matchEntry(def.Server, *exp.Stdio, true); why != "" {
			whys = append(whys, "default answer "+resolve.CommandLine(def.Server)+": "+why)
		}
	} else {
		ok := false
		var tried []string
		if exp.Remote != nil && matchEntry(def.Server, *exp.Remote, true) == "" {
			ok = true
		}
		for _, alt := range exp.Alternatives {
			if alt.MCPB != "" {
				continue
			}
			why := matchEntry(def.Server, alt, false)
			ok = ok || why == ""
			tried = append(tried, why)
		}
		if !ok {
			whys = append(whys, "default answer "+resolve.CommandLine(def.Server)+" is neither the remote nor an alternative: "+strings.Join(tried, "; "))
		}
	}
	inputs := def.Inputs
	if exp.Remote != nil {
		opts.Remote = true
		rem, err := resolve.Resolve(context.Background(), input, opts)
		if err != nil {
			whys = append(whys, "--remote: "+err.Error())
		} else if why := matchEntry(rem.Server, *exp.Remote, true); why != "" {
			whys = append(whys, "--remote answer "+resolve.CommandLine(rem.Server)+": "+why)
		} else {
			inputs = append(inputs, rem.Inputs...) // the index lists the inputs of both forms
		}
	}
	for _, want := range exp.Inputs {
		if why := matchInput(inputs, want); why != "" {
			whys = append(whys, why)
		}
	}
	return strings.Join(whys, "; ")
}

var refRE = `\$\{[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\}`

// pattern turns an expected value into a regexp: <anything> stands for a reference.
func pattern(s string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for {
		i := strings.IndexByte(s, '<')
		j := -1
		depth := 0
		for k := i; i >= 0 && k < len(s); k++ {
			if s[k] == '<' {
				depth++
			} else if s[k] == '>' {
				if depth--; depth == 0 {
					j = k
					break
				}
			}
		}
		if i < 0 || j < 0 {
			b.WriteString(regexp.QuoteMeta(s))
			break
		}
		b.WriteString(regexp.QuoteMeta(s[:i]) + refRE)
		s = s[j+1:]
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

func matchEntry(got canonical.Server, want expEntry, exactEnv bool) string {
	if want.URL != "" {
		if !got.Transport.IsRemote() {
			return "want a remote server, got " + string(got.Transport)
		}
		wantT := canonical.HTTP
		if want.Type == "sse" {
			wantT = canonical.SSE
		}
		if got.Transport != wantT {
			return fmt.Sprintf("transport %s, want %s", got.Transport, wantT)
		}
		if !pattern(want.URL).MatchString(got.URL) {
			return fmt.Sprintf("url %q, want %q", got.URL, want.URL)
		}
		return matchMap("header", got.Headers, want.Headers, true)
	}
	if got.Command != want.Command {
		return fmt.Sprintf("command %q, want %q", got.Command, want.Command)
	}
	if len(got.Args) != len(want.Args) {
		return fmt.Sprintf("args %q, want %q", got.Args, want.Args)
	}
	for i := range want.Args {
		if !pattern(want.Args[i]).MatchString(got.Args[i]) {
			return fmt.Sprintf("args %q, want %q", got.Args, want.Args)
		}
	}
	return matchMap("env", got.Env, want.Env, exactEnv)
}

func matchMap(what string, got, want map[string]string, exact bool) string {
	for k, w := range want {
		g, ok := got[k]
		if !ok {
			return fmt.Sprintf("%s %s missing", what, k)
		}
		if !pattern(w).MatchString(g) {
			return fmt.Sprintf("%s %s = %q, want %q", what, k, g, w)
		}
	}
	if exact {
		for k := range got {
			if _, ok := want[k]; !ok {
				return fmt.Sprintf("unexpected %s %s", what, k)
			}
		}
	}
	return ""
}

// matchInput finds an expected input by its first word ("token (-> …)",
// "header Authorization", "--context (default …)").
func matchInput(got []resolve.RequiredInput, want expInput) string {
	key := strings.TrimPrefix(want.Name, "header ")
	key = strings.Fields(key)[0]
	for _, in := range got {
		if strings.EqualFold(in.Name, key) || strings.EqualFold(in.Label, key) || strings.EqualFold(in.Label, "{"+key+"}") {
			if in.Required != want.Required || in.Secret != want.Secret {
				return fmt.Sprintf("input %s: required=%v secret=%v, want required=%v secret=%v", key, in.Required, in.Secret, want.Required, want.Secret)
			}
			return ""
		}
	}
	names := make([]string, len(got))
	for i, in := range got {
		names[i] = in.Name + "(" + in.Label + ")"
	}
	return fmt.Sprintf("input %s missing (have %s)", key, strings.Join(names, ", "))
}
