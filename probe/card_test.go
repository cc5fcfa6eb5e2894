package probe

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/mcpfixture"
)

// cardServer serves the fixture and, beside it, a card at cardPath; it
// records the Authorization header of every card request.
func cardServer(t *testing.T, cfg mcpfixture.Config, cardPath, card string) (url string, cardAuth func() []string) {
	t.Helper()
	var mu sync.Mutex
	var auths []string
	mcp := cfg.Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "server-card") || strings.HasPrefix(r.URL.Path, "/.well-known/") {
			mu.Lock()
			auths = append(auths, r.Header.Get("Authorization"))
			mu.Unlock()
			if r.URL.Path == cardPath {
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte(card))
				return
			}
			http.NotFound(w, r)
			return
		}
		mcp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + cfg.Path(), func() []string { mu.Lock(); defer mu.Unlock(); return slices.Clone(auths) }
}

func TestServerCardBothDrafts(t *testing.T) {
	t.Parallel()
	cfg := mcpfixture.Config{Transport: "http", Tools: []string{"echo"}, Token: "tok-card-1234567"}
	for _, tc := range []struct {
		name, path, card string
		want             Card
	}{
		{"SEP-2127 beside the endpoint", cfg.Path() + "/server-card",
			`{"name":"io.example/weather","title":"Weather","version":"1.4.0","description":"Forecasts","supportedProtocolVersions":["2025-11-25","2026-07-28"]}`,
			Card{Name: "io.example/weather", Title: "Weather", Version: "1.4.0", Description: "Forecasts", ProtocolVersions: []string{"2025-11-25", "2026-07-28"}}},
		{"SEP-1649 well-known", "/.well-known/mcp/server-card.json",
			`{"serverInfo":{"name":"weather","version":"1.0"},"protocolVersion":"2025-06-18","transport":{"type":"streamable-http"}}`,
			Card{Name: "weather", Version: "1.0", ProtocolVersions: []string{"2025-06-18"}}},
		{"the older /.well-known/mcp.json", "/.well-known/mcp.json",
			`{"serverInfo":{"name":"old","version":"0.1"}}`, Card{Name: "old", Version: "0.1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			url, auths := cardServer(t, cfg, tc.path, tc.card)
			opts := testOptions(t)
			opts.Getenv = env("FX_TOKEN", "tok-card-1234567")
			r := One(t.Context(), canonical.Server{Name: "w", Transport: canonical.HTTP, URL: url,
				Headers: map[string]string{"Authorization": "Bearer ${FX_TOKEN}"}}, opts)
			wantState(t, r, Ready, "")
			if r.Card == nil {
				t.Fatalf("no card read from %s", tc.path)
			}
			got := *r.Card
			if !strings.HasSuffix(got.URL, tc.path) {
				t.Errorf("card URL %q, want one ending %s", got.URL, tc.path)
			}
			got.URL = ""
			if got.Name != tc.want.Name || got.Version != tc.want.Version || got.Title != tc.want.Title ||
				got.Description != tc.want.Description || !slices.Equal(got.ProtocolVersions, tc.want.ProtocolVersions) {
				t.Errorf("card %+v, want %+v", got, tc.want)
			}
			for _, a := range auths() {
				if a != "" {
					t.Errorf("a card request carried the server's Authorization header %q", a)
				}
			}
			if !strings.Contains(mustJSON(t, r), `"card":`) {
				t.Errorf("--json has no card: %s", mustJSON(t, r))
			}
		})
	}
}

func TestNoServerCard(t *testing.T) {
	t.Parallel()
	cfg := mcpfixture.Config{Transport: "http", Tools: []string{"echo"}}
	// an HTML page where a card would be is no card
	url, _ := cardServer(t, cfg, "/.well-known/mcp.json", "<html>not here</html>")
	r := One(t.Context(), canonical.Server{Name: "w", Transport: canonical.HTTP, URL: url}, testOptions(t))
	wantState(t, r, Ready, "")
	if r.Card != nil {
		t.Errorf("a card was read where none is: %+v", r.Card)
	}
	if strings.Contains(mustJSON(t, r), `"card"`) {
		t.Errorf("--json names a card: %s", mustJSON(t, r))
	}
}

// FuzzParseCard: any bytes give a card with a name or none, never a panic.
func FuzzParseCard(f *testing.F) {
	f.Add([]byte(`{"name":"a","version":"1","supportedProtocolVersions":["x"]}`))
	f.Add([]byte(`{"serverInfo":{"name":"b"},"protocolVersion":"2025-06-18"}`))
	f.Add([]byte(`{"serverInfo":null}`))
	f.Add([]byte(`<html>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, ok := parseCard(data)
		if ok != (c != nil) || (ok && c.Name == "") {
			t.Fatalf("parseCard(%q) = %+v, %v", data, c, ok)
		}
	})
}
