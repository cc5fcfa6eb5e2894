package resolve

import (
	"context"
	"net/http"
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"
)

// repo is a GitHub repository as the resolver sees it: its metadata, the
// list of its files (one tree call), and raw reads of single files.
type repo struct {
	owner, name string
	ref         string // the branch or commit read (default branch when the user gave none)
	info        repoInfo
	files       map[string]bool // blob paths
	truncated   bool            // GitHub cut the listing short: files may be missing from it
	f           *fetcher
	apiBase     string
	rawBase     string
}

type repoInfo struct {
	FullName      string `json:"full_name"`
	DefaultBranch string `json:"default_branch"`
	Private       bool   `json:"private"`
	Archived      bool   `json:"archived"`
	Description   string `json:"description"`
}

type repoTree struct {
	SHA  string `json:"sha"`
	Tree []struct {
		Path string `json:"path"`
		Type string `json:"type"`
	} `json:"tree"`
	Truncated bool `json:"truncated"`
}

// openRepo reads the repository metadata and its file list: two API calls.
func openRepo(ctx context.Context, f *fetcher, apiBase, rawBase string, in Input) (*repo, []Step, error) {
	r := &repo{owner: in.Owner, name: in.Repo, f: f, apiBase: apiBase, rawBase: rawBase}
	var steps []Step
	infoURL := apiBase + "/repos/" + url.PathEscape(in.Owner) + "/" + url.PathEscape(in.Repo)
	ok, err := f.getJSON(ctx, infoURL, &r.info)
	if err != nil {
		return nil, steps, err
	}
	if !ok {
		return nil, steps, &RepoNotFoundError{Owner: in.Owner, Repo: in.Repo, Authenticated: f.token != ""}
	}
	if r.info.FullName != "" {
		// GitHub answers renamed repositories under their new name.
		if o, n, ok := strings.Cut(r.info.FullName, "/"); ok {
			r.owner, r.name = o, n
		}
	}
	r.ref = in.Ref
	if r.ref == "" {
		r.ref = r.info.DefaultBranch
	}
	if r.ref == "" {
		r.ref = "HEAD"
	}
	var tree repoTree
	treeURL := apiBase + "/repos/" + url.PathEscape(r.owner) + "/" + url.PathEscape(r.name) +
		"/git/trees/" + url.PathEscape(r.ref) + "?recursive=1"
	ok, err = f.getJSON(ctx, treeURL, &tree)
	if err != nil {
		return nil, steps, err
	}
	if !ok {
		return nil, steps, &HTTPError{URL: treeURL, Status: http.StatusNotFound,
			Message: "branch or commit " + r.ref + " not found in " + r.owner + "/" + r.name + "; check the /tree/<ref> part of the URL"}
	}
	r.files = make(map[string]bool, len(tree.Tree))
	for _, e := range tree.Tree {
		if e.Type == "blob" {
			r.files[e.Path] = true
		}
	}
	r.truncated = tree.Truncated
	detail := "repository " + r.owner + "/" + r.name + " at " + r.ref + ", " + plural(len(r.files), "file")
	if r.info.Archived {
		detail += " (archived: it may be unmaintained)"
	}
	if r.truncated {
		detail += " (listing truncated by GitHub: only well-known paths are tried beyond it)"
	}
	steps = append(steps, Step{Step: StepRepository, Source: in.RepoURL(), Found: true, Detail: detail})
	if in.Subdir != "" && !r.hasDir(in.Subdir) {
		return nil, steps, &HTTPError{URL: in.String(), Status: http.StatusNotFound,
			Message: "folder " + in.Subdir + " not found in " + r.owner + "/" + r.name + " at " + r.ref}
	}
	return r, steps, nil
}

// has reports whether the listing holds p. With a truncated listing the
// answer is "maybe" (true) for paths the caller asks about by name.
func (r *repo) has(p string) bool { return r.files[p] || (r.truncated && !strings.Contains(p, "*")) }

func (r *repo) hasDir(dir string) bool {
	if r.truncated {
		return true
	}
	prefix := strings.TrimSuffix(dir, "/") + "/"
	for p := range r.files {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}

// find returns the listed paths for which match is true, sorted by depth
// then name, so that a root file comes before a nested one.
func (r *repo) find(match func(p string) bool) []string {
	var out []string
	for p := range r.files {
		if match(p) {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		di, dj := strings.Count(out[i], "/"), strings.Count(out[j], "/")
		if di != dj {
			return di < dj
		}
		return out[i] < out[j]
	})
	return out
}

func (r *repo) rawURL(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return r.rawBase + "/" + url.PathEscape(r.owner) + "/" + url.PathEscape(r.name) + "/" + url.PathEscape(r.ref) + "/" + strings.Join(segs, "/")
}

// webURL is where a person would look at p.
func (r *repo) webURL(p string) string {
	return "https://github.com/" + r.owner + "/" + r.name + "/blob/" + r.ref + "/" + p
}

// treeURL is where a person would look at folder dir.
func (r *repo) treeURL(dir string) string {
	return "https://github.com/" + r.owner + "/" + r.name + "/tree/" + r.ref + "/" + dir
}

// read fetches one file through the raw host. A missing file is (nil, false, nil).
func (r *repo) read(ctx context.Context, p string) ([]byte, bool, error) {
	if !r.has(p) {
		return nil, false, nil
	}
	resp, err := r.f.get(ctx, r.rawURL(p), "")
	if err != nil {
		return nil, false, err
	}
	if resp.status == http.StatusNotFound {
		return nil, false, nil
	}
	return resp.body, true, nil
}

// readmeIn returns the README of dir ("" for the root), matched without
// regard to case, preferring Markdown.
func (r *repo) readmeIn(dir string) string {
	prefix := ""
	if dir != "" {
		prefix = strings.TrimSuffix(dir, "/") + "/"
	}
	best := ""
	for p := range r.files {
		if !strings.HasPrefix(p, prefix) || strings.Contains(p[len(prefix):], "/") {
			continue
		}
		base := strings.ToLower(path.Base(p))
		if base == "readme.md" || base == "readme.markdown" || base == "readme" || base == "readme.rst" || base == "readme.txt" {
			if best == "" || strings.HasSuffix(base, ".md") && !strings.HasSuffix(strings.ToLower(best), ".md") {
				best = p
			}
		}
	}
	if best == "" && r.truncated {
		best = prefix + "README.md"
	}
	return best
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
