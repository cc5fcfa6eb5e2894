package registry

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
)

func TestHandler(t *testing.T) {
	dir := t.TempDir()
	var rs []ServerResponse
	for _, n := range []string{"weather", "maps", "wiki"} {
		sj, err := ServerJSON(canonical.Server{Name: n, Transport: canonical.Stdio, Command: "uvx", Args: []string{n + "-mcp"}}, Name("com.example", n), "2.0.0")
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, Response(sj, time.Unix(0, 0).UTC()))
	}
	if err := Write(dir, Files(rs)); err != nil {
		t.Fatal(err)
	}
	h, err := Handler(dir)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	get := func(path string) (int, string, http.Header) {
		t.Helper()
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}
	for _, tc := range []struct {
		path, want string
		code       int
	}{
		{"/v0.1/servers", `"count": 3`, 200},
		{"/v0.1/servers?search=WEA", `"name": "com.example/weather"`, 200},
		{"/v0.1/servers?search=nothing", `"count": 0`, 200},
		{"/v0.1/servers?limit=2", `"nextCursor": "com.example/weather"`, 200},
		{"/v0.1/servers?limit=2&cursor=com.example/weather", `"name": "com.example/wiki"`, 200},
		{"/v0.1/servers/com.example%2Fmaps/versions/latest", `"identifier": "maps-mcp"`, 200},
		{"/v0.1/servers/com.example/maps/versions/2.0.0", `"isLatest": true`, 200},
		{"/v0/servers/com.example%2Fmaps/versions", `"count": 1`, 200},
		{"/v0.1/servers/com.example%2Fnone/versions/latest", `Server not found`, 404},
		{"/v0.1/servers/com.example%2Fmaps/versions/9.9.9", `version not found`, 404},
	} {
		code, body, hdr := get(tc.path)
		if code != tc.code || !strings.Contains(body, strings.ReplaceAll(tc.want, `": `, `":`)) {
			t.Errorf("GET %s: %d %s, want %d with %s", tc.path, code, body, tc.code, tc.want)
		}
		if hdr.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("GET %s: no CORS header", tc.path)
		}
	}
	req, _ := http.NewRequest(http.MethodOptions, srv.URL+"/v0.1/servers", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Methods") == "" {
		t.Errorf("CORS preflight: %v %v", resp, err)
	}
}
