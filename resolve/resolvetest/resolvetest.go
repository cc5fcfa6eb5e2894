// Package resolvetest is a local fake of GitHub (REST API and raw host) and
// of the official MCP registry, for tests of the resolver that must run
// offline. One httptest server answers all three under different path
// prefixes:
//
//	APIURL       /api       GET /repos/{o}/{r}, /repos/{o}/{r}/git/trees/{ref}?recursive=1,
//	                        /repos/{o}/{r}/contents/{path}, /repos/{o}/{r}/readme,
//	                        /repos/{o}/{r}/releases/latest
//	RawURL       /raw       GET /{o}/{r}/{ref}/{path}
//	RegistryURL  /registry  GET /v0.1/servers?search=&cursor=&limit=, /v0.1/servers/{name}/versions/latest
//
// Repositories are built from maps or from directory trees (RepoFromDir);
// registry entries from server.json documents.
package resolvetest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Repo is one fake repository.
type Repo struct {
	Owner, Name   string
	DefaultBranch string // "main" when empty
	Private       bool   // answered only to requests carrying Server.Token
	Archived      bool
	Files         map[string][]byte // repository path → content
	// LatestRelease is the tag of the latest release ("" for none), as
	// GET /repos/{o}/{r}/releases/latest answers it.
	LatestRelease string
}

// Server is the fake. Its fields may be changed between requests.
type Server struct {
	*httptest.Server
	APIURL, RawURL, RegistryURL string

	mu       sync.Mutex
	repos    map[string]*Repo
	registry []entry
	requests []string
	authed   []string
	// RateLimitReset, when not zero, makes every GitHub API request fail
	// with 403 and X-RateLimit-Remaining: 0 until that time.
	rateLimitReset time.Time
	// Token is the token private repositories require.
	Token string
	// PageSize is how many servers one registry page holds (default 100),
	// so tests can make the resolver follow cursors.
	PageSize int
	// RegistryDown makes the registry answer 503.
	RegistryDown bool
}

type entry struct {
	name   string
	server json.RawMessage
	status string
}

// New starts a fake with no repositories and an empty registry. Close it
// when done.
func New() *Server {
	s := &Server{repos: map[string]*Repo{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	s.APIURL = s.URL + "/api"
	s.RawURL = s.URL + "/raw"
	s.RegistryURL = s.URL + "/registry"
	return s
}

// AddRepo adds (or replaces) a repository.
func (s *Server) AddRepo(r Repo) {
	if r.DefaultBranch == "" {
		r.DefaultBranch = "main"
	}
	if r.Files == nil {
		r.Files = map[string][]byte{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.repos[strings.ToLower(r.Owner+"/"+r.Name)] = &r
}

// AddServer publishes a server.json in the registry with a status
// (active, deprecated, deleted; "" means active).
func (s *Server) AddServer(serverJSON []byte, status string) error {
	var head struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(serverJSON, &head); err != nil || head.Name == "" {
		return fmt.Errorf("registry entry is not a server.json with a name: %v", err)
	}
	if status == "" {
		status = "active"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.registry = append(s.registry, entry{name: head.Name, server: append(json.RawMessage(nil), serverJSON...), status: status})
	return nil
}

// RateLimit makes GitHub API requests fail as rate limited until reset.
func (s *Server) RateLimit(reset time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rateLimitReset = reset
}

// Requests returns the request URIs served so far, in order.
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

// AuthorizedRequests returns the request URIs that carried an
// Authorization header.
func (s *Server) AuthorizedRequests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.authed...)
}

// Env returns the environment variables that point mcpsync at the fake.
func (s *Server) Env() map[string]string {
	return map[string]string{
		"MCPSYNC_GITHUB_API": s.APIURL,
		"MCPSYNC_GITHUB_RAW": s.RawURL,
		"MCPSYNC_REGISTRY":   s.RegistryURL,
	}
}

// RepoFromDir builds a repository from the files under dir.
func RepoFromDir(owner, name, dir string) (Repo, error) {
	r := Repo{Owner: owner, Name: name, Files: map[string][]byte{}}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		r.Files[filepath.ToSlash(rel)] = data
		return nil
	})
	return r, err
}

func (s *Server) serve(w http.ResponseWriter, req *http.Request) {
	s.mu.Lock()
	s.requests = append(s.requests, req.URL.RequestURI())
	if req.Header.Get("Authorization") != "" {
		s.authed = append(s.authed, req.URL.RequestURI())
	}
	s.mu.Unlock()
	if req.Method != http.MethodGet {
		http.Error(w, "only GET", http.StatusMethodNotAllowed)
		return
	}
	p := req.URL.EscapedPath()
	switch {
	case strings.HasPrefix(p, "/api/"):
		s.serveAPI(w, req, strings.TrimPrefix(p, "/api"))
	case strings.HasPrefix(p, "/raw/"):
		s.serveRaw(w, req, strings.TrimPrefix(p, "/raw/"))
	case strings.HasPrefix(p, "/registry/"):
		s.serveRegistry(w, req, strings.TrimPrefix(p, "/registry"))
	default:
		http.NotFound(w, req)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v) //nolint:errcheck // a test fake
}

func notFound(w http.ResponseWriter) {
	writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found", "documentation_url": "https://docs.github.com/rest"})
}

// repo finds a repository the request may see.
func (s *Server) repo(req *http.Request, owner, name string) *Repo {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.repos[strings.ToLower(owner+"/"+name)]
	if r == nil {
		return nil
	}
	if r.Private && (s.Token == "" || req.Header.Get("Authorization") != "Bearer "+s.Token) {
		return nil // GitHub hides private repositories behind a 404
	}
	return r
}

func unescapeAll(parts []string) []string {
	out := make([]string, len(parts))
	for i, p := range parts {
		u, err := url.PathUnescape(p)
		if err != nil {
			u = p
		}
		out[i] = u
	}
	return out
}

func (s *Server) serveAPI(w http.ResponseWriter, req *http.Request, p string) {
	s.mu.Lock()
	reset := s.rateLimitReset
	s.mu.Unlock()
	if !reset.IsZero() && time.Now().Before(reset) {
		w.Header().Set("X-RateLimit-Limit", "60")
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(reset.Unix(), 10))
		writeJSON(w, http.StatusForbidden, map[string]string{"message": "API rate limit exceeded for 127.0.0.1."})
		return
	}
	parts := unescapeAll(strings.Split(strings.Trim(p, "/"), "/"))
	if len(parts) < 3 || parts[0] != "repos" {
		notFound(w)
		return
	}
	r := s.repo(req, parts[1], parts[2])
	if r == nil {
		notFound(w)
		return
	}
	rest := parts[3:]
	switch {
	case len(rest) == 0:
		writeJSON(w, http.StatusOK, map[string]any{
			"full_name": r.Owner + "/" + r.Name, "name": r.Name, "default_branch": r.DefaultBranch,
			"private": r.Private, "archived": r.Archived, "html_url": "https://github.com/" + r.Owner + "/" + r.Name,
		})
	case len(rest) >= 3 && rest[0] == "git" && rest[1] == "trees":
		ref := strings.Join(rest[2:], "/")
		if ref != r.DefaultBranch && ref != "HEAD" {
			notFound(w)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"sha": "0000000000000000000000000000000000000000", "tree": treeOf(r), "truncated": false})
	case len(rest) >= 1 && rest[0] == "contents":
		fp := strings.Join(rest[1:], "/")
		data, ok := r.Files[fp]
		if !ok {
			notFound(w)
			return
		}
		writeJSON(w, http.StatusOK, fileObject(r, fp, data))
	case len(rest) == 2 && rest[0] == "releases" && rest[1] == "latest":
		if r.LatestRelease == "" {
			notFound(w)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"tag_name": r.LatestRelease, "name": r.LatestRelease, "draft": false, "prerelease": false})
	case len(rest) == 1 && rest[0] == "readme":
		for _, fp := range sortedPaths(r) {
			if !strings.Contains(fp, "/") && strings.HasPrefix(strings.ToLower(fp), "readme") {
				writeJSON(w, http.StatusOK, fileObject(r, fp, r.Files[fp]))
				return
			}
		}
		notFound(w)
	default:
		notFound(w)
	}
}

func sortedPaths(r *Repo) []string {
	out := make([]string, 0, len(r.Files))
	for p := range r.Files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

func treeOf(r *Repo) []map[string]any {
	dirs := map[string]bool{}
	var out []map[string]any
	for _, p := range sortedPaths(r) {
		for d := path.Dir(p); d != "." && !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
		}
		out = append(out, map[string]any{"path": p, "mode": "100644", "type": "blob", "size": len(r.Files[p])})
	}
	for d := range dirs {
		out = append(out, map[string]any{"path": d, "mode": "040000", "type": "tree"})
	}
	sort.Slice(out, func(i, j int) bool { return out[i]["path"].(string) < out[j]["path"].(string) })
	return out
}

// fileObject is the contents API's answer: base64 with a newline every 60 characters.
func fileObject(r *Repo, fp string, data []byte) map[string]any {
	enc := base64.StdEncoding.EncodeToString(data)
	var b strings.Builder
	for len(enc) > 60 {
		b.WriteString(enc[:60] + "\n")
		enc = enc[60:]
	}
	b.WriteString(enc)
	return map[string]any{"type": "file", "encoding": "base64", "content": b.String(), "size": len(data),
		"name": path.Base(fp), "path": fp, "sha": "0", "download_url": nil}
}

func (s *Server) serveRaw(w http.ResponseWriter, req *http.Request, p string) {
	parts := unescapeAll(strings.Split(p, "/"))
	if len(parts) < 4 {
		http.NotFound(w, req)
		return
	}
	r := s.repo(req, parts[0], parts[1])
	if r == nil || (parts[2] != r.DefaultBranch && parts[2] != "HEAD") {
		http.Error(w, "404: Not Found", http.StatusNotFound)
		return
	}
	data, ok := r.Files[strings.Join(parts[3:], "/")]
	if !ok {
		http.Error(w, "404: Not Found", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Write(data) //nolint:errcheck // a test fake
}

func (s *Server) wrap(e entry) map[string]any {
	return map[string]any{
		"server": e.server,
		"_meta": map[string]any{"io.modelcontextprotocol.registry/official": map[string]any{
			"status": e.status, "publishedAt": "2026-01-01T00:00:00Z", "isLatest": true,
		}},
	}
}

func (s *Server) serveRegistry(w http.ResponseWriter, req *http.Request, p string) {
	s.mu.Lock()
	down := s.RegistryDown
	entries := append([]entry(nil), s.registry...)
	pageSize := s.PageSize
	s.mu.Unlock()
	if down {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"error": "registry unavailable"})
		return
	}
	if pageSize <= 0 {
		pageSize = 100
	}
	if p == "/v0.1/servers" {
		q := req.URL.Query()
		term := strings.ToLower(q.Get("search"))
		var match []entry
		for _, e := range entries {
			if strings.Contains(strings.ToLower(e.name), term) {
				match = append(match, e)
			}
		}
		start, _ := strconv.Atoi(q.Get("cursor"))
		if limit, err := strconv.Atoi(q.Get("limit")); err == nil && limit > 0 && limit < pageSize {
			pageSize = limit
		}
		end := min(start+pageSize, len(match))
		if start > len(match) {
			start = len(match)
		}
		list := []map[string]any{}
		for _, e := range match[start:end] {
			list = append(list, s.wrap(e))
		}
		meta := map[string]any{"count": len(list)}
		if end < len(match) {
			meta["nextCursor"] = strconv.Itoa(end)
		}
		writeJSON(w, http.StatusOK, map[string]any{"servers": list, "metadata": meta})
		return
	}
	const prefix, suffix = "/v0.1/servers/", "/versions/latest"
	if strings.HasPrefix(p, prefix) && strings.HasSuffix(p, suffix) {
		name, err := url.PathUnescape(strings.TrimSuffix(strings.TrimPrefix(p, prefix), suffix))
		if err == nil {
			for i := len(entries) - 1; i >= 0; i-- {
				if entries[i].name == name {
					writeJSON(w, http.StatusOK, s.wrap(entries[i]))
					return
				}
			}
		}
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "Server not found"})
		return
	}
	writeJSON(w, http.StatusNotFound, map[string]string{"error": "Not found"})
}

// Case is one entry of the resolver corpus (../shared/corpus/resolver/index.json):
// a real README or server.json from a repository, with the entry the
// resolver should produce for it.
type Case struct {
	ID        string          `json:"id"`
	Repo      string          `json:"repo"` // owner/name
	Path      string          `json:"path"` // where the file lives in the repository
	File      string          `json:"file"` // the corpus file, relative to the corpus directory
	InputKind string          `json:"input_kind"`
	Expected  json.RawMessage `json:"expected"`
	Tags      []string        `json:"tags"`
	Notes     string          `json:"notes"`

	Data []byte `json:"-"` // the file's content
}

// LoadCorpus reads the corpus index and every file it names.
func LoadCorpus(dir string) ([]Case, error) {
	data, err := os.ReadFile(filepath.Join(dir, "index.json"))
	if err != nil {
		return nil, err
	}
	var idx struct {
		Entries []Case `json:"entries"`
	}
	if err := json.Unmarshal(data, &idx); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, "index.json"), err)
	}
	for i := range idx.Entries {
		c := &idx.Entries[i]
		if c.Data, err = os.ReadFile(filepath.Join(dir, filepath.FromSlash(c.File))); err != nil {
			return nil, err
		}
	}
	return idx.Entries, nil
}

// RepoOf returns a repository holding only the case's file, at its path.
func (c Case) RepoOf() Repo {
	owner, name, _ := strings.Cut(c.Repo, "/")
	return Repo{Owner: owner, Name: name, Files: map[string][]byte{c.Path: c.Data}}
}
