package sources

import (
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/store"
)

// Separator joins a source's name and a server's name into the name clients
// see: the server "github" of the source "acme" is "acme-github".
//
// Why a dash: Claude Code's CLI accepts only letters, digits, - and _ in a
// server name; a dot would need quoting in Codex's TOML table names and a
// slash escaping in JSON pointers; and "__" is the separator of Claude
// Code's tool names (mcp__server__tool), so a double underscore would be
// ambiguous there. A dash is a plain key in every client's file.
const Separator = "-"

// QualifiedName is the name clients see for server of source.
func QualifiedName(source, server string) string { return source + Separator + server }

// checkServerName returns why name cannot be a source's server name, or "".
func checkServerName(name string) string {
	switch {
	case name == "":
		return "is empty"
	case !isPlainName(name):
		return "holds characters other than letters, digits, - and _"
	}
	return ""
}

func isPlainName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return s != ""
}

// CheckSource returns the problems of a source block: its name must be a
// plain name (it prefixes server names and names the cache directory), git
// must be given, ref and git may not look like command-line options, and
// path must stay inside the repository.
func CheckSource(src store.Source) canonical.Diagnostics {
	var ds canonical.Diagnostics
	add := func(field, detail, format string, args ...any) {
		d := canonical.Errorf(format, args...)
		d.Detail, d.Field = detail, field
		ds = append(ds, d.At(src.Pos))
	}
	if !isPlainName(src.Name) {
		add("name", "the name prefixes every server of the source in clients (NAME-server); use letters, digits, - and _",
			"source name %q holds characters other than letters, digits, - and _", src.Name)
	}
	switch {
	case strings.TrimSpace(src.Git) == "":
		add("git", `give the repository, for example git = "https://github.com/acme/team-mcp.git"`, "source %q has no git repository", src.Name)
	case strings.HasPrefix(src.Git, "-") || strings.ContainsAny(src.Git, "\n\r\x00"):
		add("git", "give a repository URL or path", "source %q: %q is not a repository", src.Name, src.Git)
	case strings.HasPrefix(strings.ToLower(src.Git), "ext::"):
		add("git", "ext:: runs a command instead of fetching; give a repository URL or path", "source %q: ext:: repositories are not allowed", src.Name)
	}
	if strings.HasPrefix(src.Ref, "-") || strings.ContainsAny(src.Ref, " \t\n\r\x00") {
		add("ref", `give a branch, a tag or a commit, for example ref = "main"`, "source %q: %q is not a git ref", src.Name, src.Ref)
	}
	if why := checkRelPath(src.Path); why != "" {
		add("path", `give a directory (or a file) inside the repository, such as "mcp/"`, "source %q: path %q %s", src.Name, src.Path, why)
	}
	return ds
}

// Clashes returns the qualified names that more than one source gives, and
// which sources give each: source "acme" with server "prod-github" and
// source "acme-prod" with server "github" are both "acme-prod-github" in
// clients. Neither may be approved or exported while they clash.
func (r *Records) Clashes(srcs []store.Source) map[string][]string {
	by := map[string][]string{}
	for _, src := range srcs {
		for _, st := range r.Statuses(src.Name) {
			by[st.Qualified] = append(by[st.Qualified], src.Name)
		}
	}
	for q, names := range by {
		if len(names) < 2 {
			delete(by, q)
		}
	}
	return by
}
