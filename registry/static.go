package registry

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"

	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/resolve"
)

// OfficialMeta is the registry-managed part of a ServerResponse.
type OfficialMeta struct {
	Status      string    `json:"status"`
	PublishedAt time.Time `json:"publishedAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
	IsLatest    bool      `json:"isLatest"`
}

// ServerResponse is one server version as the v0.1 API answers it.
type ServerResponse struct {
	Server *resolve.ServerJSON `json:"server"`
	Meta   struct {
		Official OfficialMeta `json:"io.modelcontextprotocol.registry/official"`
	} `json:"_meta"`
}

// ServerList is a list answer: servers, versions of one server.
type ServerList struct {
	Servers  []ServerResponse `json:"servers"`
	Metadata struct {
		NextCursor string `json:"nextCursor,omitempty"`
		Count      int    `json:"count"`
	} `json:"metadata"`
}

// Response wraps a server.json as the latest, active version.
func Response(sj *resolve.ServerJSON, at time.Time) ServerResponse {
	r := ServerResponse{Server: sj}
	r.Meta.Official = OfficialMeta{Status: "active", PublishedAt: at, UpdatedAt: at, IsLatest: true}
	return r
}

func list(rs []ServerResponse) ServerList {
	l := ServerList{Servers: rs}
	if l.Servers == nil {
		l.Servers = []ServerResponse{}
	}
	l.Metadata.Count = len(l.Servers)
	return l
}

// Files lays a registry out as static files (relative path → bytes):
//
//	v0.1/servers/index.json                        the list (also index.html,
//	                                               which static hosts serve for v0.1/servers/)
//	v0.1/servers/NAME/versions/latest              NAME URL-encoded (io.example%2Fweather),
//	v0.1/servers/NAME/versions/VERSION             and again under the decoded path for hosts
//	v0.1/servers/NAME/versions/index.json          that decode %2F before they look a file up
//	_headers                                       CORS and JSON content type (Netlify, Cloudflare Pages)
//
// A static host cannot filter: ?search= gets the whole list, which
// registry clients filter themselves (mcpsync's resolver matches entries
// on their own fields).
func Files(rs []ServerResponse) map[string][]byte {
	sort.Slice(rs, func(i, j int) bool { return rs[i].Server.Name < rs[j].Server.Name })
	out := map[string][]byte{}
	put := func(p string, v any) {
		data, _ := json.MarshalIndent(v, "", "  ")
		out[p] = append(data, '\n')
	}
	put("v0.1/servers/index.json", list(rs))
	out["v0.1/servers/index.html"] = out["v0.1/servers/index.json"]
	for _, r := range rs {
		for _, dir := range nameDirs(r.Server.Name) {
			base := "v0.1/servers/" + dir + "/versions/"
			put(base+"latest", r)
			put(base+url.PathEscape(r.Server.Version), r)
			put(base+"index.json", list([]ServerResponse{r}))
			out[base+"index.html"] = out[base+"index.json"]
		}
	}
	out["_headers"] = []byte("/v0.1/*\n  Access-Control-Allow-Origin: *\n  Content-Type: application/json\n")
	return out
}

// nameDirs are the folders a name is laid out in: encoded, and decoded.
func nameDirs(name string) []string {
	enc := url.PathEscape(name)
	if enc == name {
		return []string{name}
	}
	return []string{enc, name}
}

// Write writes the files under dir.
func Write(dir string, files map[string][]byte) error {
	for p, data := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Handler serves a registry built by Files from dir as the v0.1 API does,
// with what a static host cannot do: search (a substring of the name,
// without regard to case), limit and cursor, 404s as JSON, and CORS for
// browser clients. /v0/ answers as /v0.1/.
func Handler(dir string) (http.Handler, error) {
	data, err := os.ReadFile(filepath.Join(dir, "v0.1", "servers", "index.json"))
	if err != nil {
		return nil, err
	}
	var all ServerList
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, err
	}
	byName := map[string]ServerResponse{}
	for _, r := range all.Servers {
		byName[r.Server.Name] = r
	}
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("Access-Control-Allow-Methods", "GET, OPTIONS")
		h.Set("Access-Control-Allow-Headers", "Content-Type, Authorization")
		if req.Method == http.MethodOptions {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		if req.Method != http.MethodGet && req.Method != http.MethodHead {
			writeJSON(w, http.StatusMethodNotAllowed, map[string]string{"error": "this registry is read-only"})
			return
		}
		p := req.URL.EscapedPath()
		rest, ok := strings.CutPrefix(p, "/v0.1/servers")
		if !ok {
			rest, ok = strings.CutPrefix(p, "/v0/servers")
		}
		if !ok {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": "not found"})
			return
		}
		rest = strings.Trim(rest, "/")
		if rest == "" {
			writeJSON(w, http.StatusOK, page(all.Servers, req.URL.Query()))
			return
		}
		segs := strings.Split(rest, "/")
		// NAME (encoded in one segment, or decoded in two) /versions[/VERSION]
		i := len(segs) - 1
		for i >= 0 && segs[i] != "versions" {
			i--
		}
		if i <= 0 || len(segs)-i > 2 {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": "not found"})
			return
		}
		name, err := url.PathUnescape(strings.Join(segs[:i], "/"))
		r, found := byName[name]
		if err != nil || !found {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": "Server not found"})
			return
		}
		if len(segs)-i == 1 {
			writeJSON(w, http.StatusOK, list([]ServerResponse{r}))
			return
		}
		v, err := url.PathUnescape(segs[i+1])
		if err != nil || v != "latest" && v != r.Server.Version {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": "Server version not found"})
			return
		}
		writeJSON(w, http.StatusOK, r)
	}), nil
}

// page filters and pages the list as the official API does; the cursor
// is the name of the last server of the page before.
func page(all []ServerResponse, q url.Values) ServerList {
	search := strings.ToLower(q.Get("search"))
	limit, _ := strconv.Atoi(q.Get("limit"))
	if limit <= 0 || limit > 100 {
		limit = 30
	}
	cursor := q.Get("cursor")
	var picked []ServerResponse
	next := ""
	for _, r := range all {
		if search != "" && !strings.Contains(strings.ToLower(r.Server.Name), search) {
			continue
		}
		if cursor != "" && r.Server.Name <= cursor {
			continue
		}
		if len(picked) == limit {
			next = picked[len(picked)-1].Server.Name
			break
		}
		picked = append(picked, r)
	}
	l := list(picked)
	l.Metadata.NextCursor = next
	return l
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	data, _ := json.Marshal(v)
	w.Write(append(data, '\n')) //nolint:errcheck // the client went away
}
