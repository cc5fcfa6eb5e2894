package resolve

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/mcpsync/mcpsync/internal/lazyre"
)

// Kind says what the user's text names.
type Kind string

const (
	// KindGitHub is a GitHub repository, optionally a ref and a subfolder.
	KindGitHub Kind = "github"
	// KindRegistry is a server name in the official MCP registry
	// (io.github.owner/repo, com.example/server).
	KindRegistry Kind = "registry"
	// KindPackage is a package in a language registry: npm:, pypi:, oci:, go:, nuget:.
	KindPackage Kind = "package"
	// KindRemote is the URL of a hosted MCP endpoint (ending in /mcp or /sse).
	KindRemote Kind = "remote"
)

// Input is what the user asked to resolve, parsed.
type Input struct {
	Raw  string `json:"raw"`
	Kind Kind   `json:"kind"`

	// KindGitHub. Ref is empty for the default branch; Subdir is the
	// repository folder of a monorepo package (from /tree/<ref>/<subdir>).
	Owner  string `json:"owner,omitempty"`
	Repo   string `json:"repo,omitempty"`
	Ref    string `json:"ref,omitempty"`
	Subdir string `json:"subdir,omitempty"`

	// KindRegistry.
	Name string `json:"name,omitempty"`

	// KindPackage: Ecosystem is npm, pypi, oci, go or nuget; Version is
	// empty when the user pinned none.
	Ecosystem string `json:"ecosystem,omitempty"`
	Package   string `json:"package,omitempty"`
	Version   string `json:"version,omitempty"`

	// KindRemote.
	URL string `json:"url,omitempty"`
}

// RepoURL is the repository's canonical web address, as registry entries
// spell repository.url.
func (in Input) RepoURL() string {
	if in.Owner == "" {
		return ""
	}
	return "https://github.com/" + in.Owner + "/" + in.Repo
}

// String renders the input in the spelling ParseInput reads back.
func (in Input) String() string {
	switch in.Kind {
	case KindGitHub:
		s := in.RepoURL()
		if in.Ref != "" || in.Subdir != "" {
			ref := in.Ref
			if ref == "" {
				ref = "HEAD"
			}
			s += "/tree/" + ref
			if in.Subdir != "" {
				s += "/" + in.Subdir
			}
		}
		return s
	case KindRegistry:
		return in.Name
	case KindPackage:
		s := in.Ecosystem + ":" + in.Package
		if in.Version != "" {
			switch in.Ecosystem {
			case "pypi":
				s += "==" + in.Version
			case "oci":
				s += ":" + in.Version
			default:
				s += "@" + in.Version
			}
		}
		return s
	case KindRemote:
		return in.URL
	}
	return in.Raw
}

var (
	// GitHub owners are letters, digits and hyphens; repositories may also
	// hold dots and underscores.
	ownerRepoRE = lazyre.New(`^([A-Za-z0-9][A-Za-z0-9-]*)/([A-Za-z0-9._-]+)$`)
	// Registry names: reverse-DNS namespace (with at least one dot), a slash, a name.
	registryNameRE = lazyre.New(`^([a-zA-Z0-9-]+\.[a-zA-Z0-9.-]+)/([a-zA-Z0-9._-]+)$`)
)

const inputHelp = "give a GitHub URL (https://github.com/owner/repo[/tree/<ref>/<dir>]), owner/repo, " +
	"a registry name (io.github.owner/repo), a package (npm:@scope/pkg, pypi:pkg, oci:image, go:module, nuget:Id) " +
	"or the URL of a hosted endpoint ending in /mcp or /sse"

// ParseInput reads what the user typed. It does no network access.
//
// What it returns renders (String) to text that reads back as the same
// input, which the resolver relies on to show and cache inputs: an input
// that would not (a repository named ".git.git", a folder GitHub would
// spell otherwise) is refused rather than resolved as something else.
func ParseInput(s string) (Input, error) {
	in, err := parseInput(s)
	if err != nil {
		return in, err
	}
	again, err := parseInput(in.String())
	if err != nil || !sameInput(in, again) {
		return in, fmt.Errorf("cannot tell what %q names: %s", strings.TrimSpace(s), inputHelp)
	}
	return in, nil
}

// sameInput compares everything but Raw; an empty Ref is the default
// branch, which String spells HEAD when a folder follows.
func sameInput(a, b Input) bool {
	a.Raw, b.Raw = "", ""
	if a.Ref == "" && b.Ref == "HEAD" {
		a.Ref = "HEAD"
	}
	return a == b
}

func parseInput(s string) (Input, error) {
	raw := s
	s = strings.TrimSpace(s)
	in := Input{Raw: raw}
	if s == "" {
		return in, fmt.Errorf("nothing to resolve: %s", inputHelp)
	}
	if eco, rest, ok := strings.Cut(s, ":"); ok && !strings.HasPrefix(rest, "//") {
		switch strings.ToLower(eco) {
		case "npm", "pypi", "pip", "oci", "docker", "go", "nuget":
			return parsePackage(in, strings.ToLower(eco), rest)
		case "git@github.com":
			return parseGitHubPath(in, strings.TrimSuffix(rest, ".git"))
		}
	}
	lower := strings.ToLower(s)
	for _, p := range []string{"github.com/", "www.github.com/"} {
		if strings.HasPrefix(lower, p) {
			s = "https://" + s
			lower = strings.ToLower(s)
		}
	}
	if strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://") {
		u, err := url.Parse(s)
		if err != nil {
			return in, fmt.Errorf("%q is not a URL: %v", s, err)
		}
		host := strings.ToLower(u.Hostname())
		if host == "github.com" || host == "www.github.com" {
			return parseGitHubPath(in, strings.Trim(u.Path, "/"))
		}
		if isEndpointPath(u.Path) {
			in.Kind, in.URL = KindRemote, s
			return in, nil
		}
		return in, fmt.Errorf("%q is neither a GitHub repository nor an MCP endpoint: %s", s, inputHelp)
	}
	if m := registryNameRE.Get().FindStringSubmatch(s); m != nil {
		in.Kind, in.Name = KindRegistry, s
		return in, nil
	}
	if m := ownerRepoRE.Get().FindStringSubmatch(s); m != nil {
		in.Kind, in.Owner, in.Repo = KindGitHub, m[1], strings.TrimSuffix(m[2], ".git")
		if in.Repo == "" {
			return in, fmt.Errorf("%q does not name a repository: give owner/repo", in.Raw)
		}
		return in, nil
	}
	return in, fmt.Errorf("cannot tell what %q names: %s", s, inputHelp)
}

// isEndpointPath reports whether a URL path looks like an MCP endpoint.
func isEndpointPath(p string) bool {
	p = strings.TrimSuffix(strings.ToLower(p), "/")
	return strings.HasSuffix(p, "/mcp") || strings.HasSuffix(p, "/sse")
}

// parseGitHubPath reads owner/repo[/tree|blob/<ref>/<path>].
func parseGitHubPath(in Input, p string) (Input, error) {
	parts := strings.Split(p, "/")
	if len(parts) < 2 || parts[0] == "" || parts[1] == "" {
		return in, fmt.Errorf("%q does not name a repository: a GitHub URL reads https://github.com/owner/repo", in.Raw)
	}
	in.Kind = KindGitHub
	in.Owner, in.Repo = parts[0], strings.TrimSuffix(parts[1], ".git")
	if !ownerRepoRE.Get().MatchString(in.Owner + "/" + in.Repo) {
		return in, fmt.Errorf("%q is not a valid GitHub owner/repository", in.Owner+"/"+in.Repo)
	}
	if len(parts) >= 4 && (parts[2] == "tree" || parts[2] == "blob") {
		in.Ref = parts[3]
		rest := parts[4:]
		if parts[2] == "blob" && len(rest) > 0 {
			rest = rest[:len(rest)-1] // a file: resolve the folder it is in
		}
		in.Subdir = strings.Join(rest, "/")
		// Git forbids these in a ref; a path with them is not one GitHub shows.
		if in.Ref == "" || strings.ContainsFunc(in.Ref+in.Subdir, func(r rune) bool { return r < 0x20 || r == 0x7f }) ||
			strings.ContainsAny(in.Ref, " ~^:?*[\\") {
			return in, fmt.Errorf("%q: %q is not a branch, tag or commit a GitHub URL can name", in.Raw, in.Ref)
		}
	} else if len(parts) > 2 && parts[2] != "" {
		return in, fmt.Errorf("%q: only repository, /tree/<ref>/<dir> and /blob/<ref>/<file> URLs can be resolved", in.Raw)
	}
	return in, nil
}

// parsePackage reads the part after npm:, pypi:, oci:, go: or nuget:.
func parsePackage(in Input, eco, rest string) (Input, error) {
	switch eco {
	case "pip":
		eco = "pypi"
	case "docker":
		eco = "oci"
	}
	in.Kind, in.Ecosystem = KindPackage, eco
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return in, fmt.Errorf("%q names no package: write %s:<name>", in.Raw, eco)
	}
	switch eco {
	case "npm":
		// @scope/name@version: the version's @ is the last one after the first character.
		if i := strings.LastIndex(rest, "@"); i > 0 {
			in.Package, in.Version = rest[:i], rest[i+1:]
		} else {
			in.Package = rest
		}
	case "pypi":
		if name, v, ok := strings.Cut(rest, "=="); ok {
			in.Package, in.Version = name, v
		} else if name, v, ok := strings.Cut(rest, "@"); ok {
			in.Package, in.Version = name, v
		} else {
			in.Package = rest
		}
	case "oci":
		in.Package = rest // the tag stays part of the image reference
	case "go", "nuget":
		if name, v, ok := strings.Cut(rest, "@"); ok {
			in.Package, in.Version = name, v
		} else {
			in.Package = rest
		}
	}
	if in.Package == "" || strings.ContainsAny(in.Package, " \t\n") {
		return in, fmt.Errorf("%q is not a valid %s package name", rest, eco)
	}
	return in, nil
}
