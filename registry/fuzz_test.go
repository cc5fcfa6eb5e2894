package registry

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
)

// FuzzHandlerPath: any request path gets an answer, never a panic, and
// only the registry's own routes get a 200.
func FuzzHandlerPath(f *testing.F) {
	dir := f.TempDir()
	sj, _ := ServerJSON(canonical.Server{Name: "w", Transport: canonical.Stdio, Command: "uvx", Args: []string{"w"}}, "com.example/w", "1.0.0")
	if err := Write(dir, Files([]ServerResponse{Response(sj, time.Unix(0, 0))})); err != nil {
		f.Fatal(err)
	}
	h, err := Handler(dir)
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range []string{"/v0.1/servers", "/v0.1/servers/com.example%2Fw/versions/latest", "/v0/servers/a/b/c/versions/x/y", "/v0.1/servers/%zz/versions", "/"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		req, err := http.NewRequest(http.MethodGet, "http://x"+p, nil)
		if err != nil || req.URL.Host != "x" {
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK && rec.Code != http.StatusNotFound {
			t.Fatalf("GET %q: %d", p, rec.Code)
		}
	})
}
