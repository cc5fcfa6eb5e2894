package mcpfixture

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

func TestParseArgs(t *testing.T) {
	env := map[string]string{"MCP_FIXTURE_MODE": "hang", "MCP_FIXTURE_TOKEN": "tok", "LIST": "a, b"}
	c, err := ParseArgs([]string{"-tools-env", "LIST", "-stderr", "one", "-stderr", "two"}, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if c.Mode != ModeHang || c.Token != "tok" || !slices.Equal(c.Tools, []string{"a", "b"}) || !slices.Equal(c.Stderr, []string{"one", "two"}) {
		t.Errorf("config %+v", c)
	}
	for _, bad := range [][]string{{"-mode", "nap"}, {"-transport", "ws"}, {"-mode", "silent", "-transport", "http"}, {"-nope"}} {
		if _, err := ParseArgs(bad, func(string) string { return "" }); err == nil {
			t.Errorf("ParseArgs(%q) accepted", bad)
		}
	}
}

func TestHandlerRequiresToken(t *testing.T) {
	srv := httptest.NewServer(Config{Transport: TransportHTTP, Token: "right"}.Handler())
	defer srv.Close()
	for _, c := range []struct {
		auth string
		want int
	}{{"", 401}, {"Bearer wrong", 401}, {"Bearer right", 200}} {
		req, _ := http.NewRequest("POST", srv.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if c.auth != "" {
			req.Header.Set("Authorization", c.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if (c.want == 401) != (resp.StatusCode == 401) {
			t.Errorf("Authorization %q: status %d, want %d", c.auth, resp.StatusCode, c.want)
		}
	}
}
