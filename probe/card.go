package probe

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Card is what a remote server says about itself in a server card, a
// static document read without a connection: SEP-2127's "<endpoint>/server-card"
// (name, version, ... at the top, as in server.json) or SEP-1649's
// /.well-known/mcp/server-card.json and /.well-known/mcp.json (a
// "serverInfo" object). Both drafts are in use in 2026.
type Card struct {
	// URL is where the card was found.
	URL         string `json:"url"`
	Name        string `json:"name,omitempty"`
	Title       string `json:"title,omitempty"`
	Version     string `json:"version,omitempty"`
	Description string `json:"description,omitempty"`
	// ProtocolVersions are the MCP revisions the card says the server speaks.
	ProtocolVersions []string `json:"protocol_versions,omitempty"`
}

// cardPaths are the places a card may be, in the order they are tried.
func cardURLs(endpoint string) []string {
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil
	}
	u.RawQuery, u.Fragment, u.User = "", "", nil
	own := *u
	own.Path = strings.TrimSuffix(u.Path, "/") + "/server-card"
	root := *u
	root.Path = "/.well-known/mcp/server-card.json"
	legacy := *u
	legacy.Path = "/.well-known/mcp.json"
	return []string{own.String(), root.String(), legacy.String()}
}

// maxCard bounds what is read of a card: it is metadata, not a download.
const maxCard = 256 << 10

// readCard looks for the server's card. It sends no header of the server's
// configuration (a card is public; its credentials stay with the MCP
// endpoint), follows no redirect to another host, and gives up quietly:
// a server without a card is the normal case.
func readCard(ctx context.Context, endpoint string, rt http.RoundTripper) *Card {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	hc := &http.Client{Transport: rt, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) > 3 || req.URL.Host != via[0].URL.Host {
			return errors.New("redirect away from the server")
		}
		return nil
	}}
	for _, u := range cardURLs(endpoint) {
		if ctx.Err() != nil {
			return nil
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			continue
		}
		req.Header.Set("Accept", "application/mcp-server-card+json, application/json")
		resp, err := hc.Do(req)
		if err != nil {
			continue
		}
		data, err := io.ReadAll(io.LimitReader(resp.Body, maxCard+1))
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || len(data) > maxCard {
			continue
		}
		if c, ok := parseCard(data); ok {
			c.URL = u
			return c
		}
	}
	return nil
}

// parseCard reads either draft's shape; ok is false for anything that is
// not a card (an HTML page, an error document, a JSON without a name).
func parseCard(data []byte) (*Card, bool) {
	var raw struct {
		Name        string   `json:"name"`
		Title       string   `json:"title"`
		Version     string   `json:"version"`
		Description string   `json:"description"`
		Supported   []string `json:"supportedProtocolVersions"`
		Protocol    string   `json:"protocolVersion"`
		ServerInfo  *struct {
			Name    string `json:"name"`
			Title   string `json:"title"`
			Version string `json:"version"`
		} `json:"serverInfo"`
	}
	if json.Unmarshal(data, &raw) != nil {
		return nil, false
	}
	c := &Card{Name: raw.Name, Title: raw.Title, Version: raw.Version, Description: raw.Description, ProtocolVersions: raw.Supported}
	if si := raw.ServerInfo; si != nil && c.Name == "" {
		c.Name, c.Title, c.Version = si.Name, si.Title, si.Version
	}
	if len(c.ProtocolVersions) == 0 && raw.Protocol != "" {
		c.ProtocolVersions = []string{raw.Protocol}
	}
	if c.Name == "" {
		return nil, false
	}
	return c, true
}
