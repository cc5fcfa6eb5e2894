package resolve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// registryEntry is one server as the registry lists it: the server.json
// plus registry-managed metadata (status). Older deployments inline the
// server.json fields at the top level; both shapes are read.
type registryEntry struct {
	Server json.RawMessage `json:"server"`
	Meta   struct {
		Official *struct {
			Status   string `json:"status"`
			IsLatest bool   `json:"isLatest"`
		} `json:"io.modelcontextprotocol.registry/official"`
	} `json:"_meta"`
	Status string `json:"status"` // pre-2025-09-29 copies kept status in the server itself
}

type serverList struct {
	Servers  []json.RawMessage `json:"servers"`
	Metadata struct {
		NextCursor      string `json:"nextCursor"`
		NextCursorSnake string `json:"next_cursor"`
	} `json:"metadata"`
}

// regServer is a registry entry read and checked.
type regServer struct {
	json   *ServerJSON
	status string // active, deprecated, deleted ("" when the registry does not say)
	source string // URL it was read from
	warns  []string
}

func (s regServer) active() bool { return s.status == "" || strings.EqualFold(s.status, "active") }

// registry reads the official MCP registry's REST API (/v0.1).
type registry struct {
	f    *fetcher
	base string
}

// maxSearchPages bounds paging through search results.
const maxSearchPages = 5

func parseRegistryEntry(raw json.RawMessage, source string) (regServer, error) {
	var e registryEntry
	if err := json.Unmarshal(raw, &e); err != nil {
		return regServer{}, fmt.Errorf("%s: not a registry entry: %v", source, err)
	}
	body := []byte(e.Server)
	if len(bytes.TrimSpace(body)) == 0 || string(body) == "null" {
		body = raw // older shape: the server.json fields at the top level
	}
	sj, warns, err := ParseServerJSON(body)
	if err != nil {
		return regServer{}, fmt.Errorf("%s: %v", source, err)
	}
	rs := regServer{json: sj, source: source, warns: warns, status: e.Status}
	if e.Meta.Official != nil && e.Meta.Official.Status != "" {
		rs.status = e.Meta.Official.Status
	}
	return rs, nil
}

// latest fetches the newest version of the named server. found is false
// when the registry does not know the name.
func (r *registry) latest(ctx context.Context, name string) (regServer, bool, error) {
	u := r.base + "/v0.1/servers/" + url.PathEscape(name) + "/versions/latest"
	resp, err := r.f.get(ctx, u, "application/json")
	if err != nil {
		return regServer{}, false, err
	}
	if resp.status == http.StatusNotFound {
		return regServer{}, false, nil
	}
	rs, err := parseRegistryEntry(resp.body, u)
	if err != nil {
		return regServer{}, false, err
	}
	return rs, true, nil
}

// search lists the latest version of every server whose name contains term.
func (r *registry) search(ctx context.Context, term string) ([]regServer, string, error) {
	var out []regServer
	first := ""
	cursor := ""
	for page := 0; page < maxSearchPages; page++ {
		q := url.Values{"search": {term}, "version": {"latest"}, "limit": {"100"}}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		u := r.base + "/v0.1/servers?" + q.Encode()
		if first == "" {
			first = u
		}
		var list serverList
		ok, err := r.f.getJSON(ctx, u, &list)
		if err != nil {
			return nil, first, err
		}
		if !ok {
			return nil, first, &HTTPError{URL: u, Status: http.StatusNotFound,
				Message: "no registry API at this address; check --registry (it should serve /v0.1/servers)"}
		}
		for _, raw := range list.Servers {
			rs, err := parseRegistryEntry(raw, u)
			if err != nil {
				continue // one broken entry does not hide the others
			}
			out = append(out, rs)
		}
		cursor = firstNonEmpty(list.Metadata.NextCursor, list.Metadata.NextCursorSnake)
		if cursor == "" {
			break
		}
	}
	return out, first, nil
}

// normalizeRepoURL makes repository URLs comparable: scheme, case, a
// trailing slash and .git do not matter.
func normalizeRepoURL(u string) string {
	u = strings.ToLower(strings.TrimSpace(u))
	u = strings.TrimPrefix(u, "git+")
	u = strings.TrimPrefix(u, "https://")
	u = strings.TrimPrefix(u, "http://")
	u = strings.TrimPrefix(u, "www.")
	u = strings.TrimSuffix(u, "/")
	u = strings.TrimSuffix(u, ".git")
	return u
}

func (s regServer) repoURL() string {
	if s.json.Repository == nil {
		return ""
	}
	return s.json.Repository.URL
}

func (s regServer) subfolder() string {
	if s.json.Repository == nil {
		return ""
	}
	return strings.Trim(s.json.Repository.Subfolder, "/")
}
