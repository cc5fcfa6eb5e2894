package serve

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// NewToken returns a fresh bearer token for the HTTP transport.
func NewToken() string {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		panic("serve: no randomness for a token: " + err.Error())
	}
	return "mcpsync_" + hex.EncodeToString(b)
}

// CheckBind refuses to listen on addr beyond this machine unless
// allowRemote: whoever reaches the port could rewrite every client's
// servers, which is to say run code as the user.
func CheckBind(addr string, allowRemote bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--http %q: give HOST:PORT, for example 127.0.0.1:7331", addr)
	}
	if allowRemote {
		return nil
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("--http %s: %q is not a loopback address; serve listens on this machine only (127.0.0.1, ::1, localhost) "+
		"unless --allow-remote, and then anyone who has the token can change every client's servers", addr, host)
}

// HTTPHandler is the streamable HTTP transport behind a bearer token: a
// request without "Authorization: Bearer TOKEN" gets 401 and reaches
// nothing. remote turns off mcp-go's localhost-only Host check, for
// --allow-remote.
func HTTPHandler(s *server.MCPServer, token string, remote bool) http.Handler {
	mcpHandler := server.NewStreamableHTTPServer(s, server.WithDisableLocalhostProtection(remote))
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := []byte(strings.TrimSpace(r.Header.Get("Authorization")))
		if subtle.ConstantTimeCompare(got, want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="mcpsync"`)
			http.Error(w, "mcpsync serve: a bearer token is required (Authorization: Bearer TOKEN, as printed when serve started)", http.StatusUnauthorized)
			return
		}
		mcpHandler.ServeHTTP(w, r)
	})
}

// ReadToken reads a bearer token from path: one line, at least 16
// characters.
func ReadToken(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("--token-file: %w", err)
	}
	token := strings.TrimSpace(string(data))
	if len(token) < 16 {
		return "", fmt.Errorf("--token-file %s: the token is shorter than 16 characters; use a long random one", path)
	}
	return token, nil
}

// ListenAndServe serves s over streamable HTTP at addr (/mcp) behind the
// token until ctx ends; listening is told the URL once it listens.
func ListenAndServe(ctx context.Context, s *server.MCPServer, addr, token string, remote bool, listening func(url string)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: HTTPHandler(s, token, remote), ReadHeaderTimeout: 10 * time.Second}
	listening("http://" + ln.Addr().String() + "/mcp")
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shut) //nolint:errcheck // stopping
		return nil
	case err := <-done:
		return err
	}
}

// ServeStdio speaks MCP on in and out until in ends or ctx does; protocol
// errors are logged to errs.
func ServeStdio(ctx context.Context, s *server.MCPServer, in io.Reader, out, errs io.Writer) error {
	stdio := server.NewStdioServer(s)
	stdio.SetErrorLogger(log.New(errs, "mcpsync serve: ", 0))
	err := stdio.Listen(ctx, in, out)
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}
