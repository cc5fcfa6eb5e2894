package probe

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync"
	"syscall"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mcpsync/mcpsync/canonical"
)

// recorder is the HTTP transport under mcp-go's remote transports. mcp-go
// folds several HTTP outcomes into one error (a 403 on initialize becomes
// "legacy SSE server", a 401 loses its status on SSE), so the recorder keeps
// what really happened on the wire: the first auth refusal, the last error
// status, and the first network error with its type intact. It never keeps
// a header.
type recorder struct {
	base http.RoundTripper

	mu         sync.Mutex
	authStatus int   // first 401 or 403
	lastStatus int   // last status >= 400
	netErr     error // first error from the network
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.base.RoundTrip(req)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		if r.netErr == nil && req.Context().Err() == nil {
			r.netErr = err
		}
		return resp, err
	}
	if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
		if r.authStatus == 0 {
			r.authStatus = resp.StatusCode
		}
	}
	if resp.StatusCode >= 400 {
		r.lastStatus = resp.StatusCode
	}
	return resp, nil
}

func (r *recorder) snapshot() (auth, last int, netErr error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.authStatus, r.lastStatus, r.netErr
}

// remoteFailure classifies a failed remote attempt. timedOut says the
// per-server deadline ended it.
func remoteFailure(err error, rec *recorder, sp *spec, stage string, timedOut bool) failure {
	auth, last, netErr := rec.snapshot()
	host := hostOf(sp.url)
	if auth != 0 {
		hint := "check the credentials the server expects"
		if sp.authFrom != "" {
			hint = "check " + sp.authFrom
		} else {
			hint += "; none are configured: add an Authorization header, or log in through the client if the server uses OAuth"
		}
		return failure{AuthFailed, fmt.Sprintf("%s answered %d %s", host, auth, http.StatusText(auth)), hint, auth, false}
	}
	cause := netErr
	if cause == nil {
		cause = err
	}
	var dnsErr *net.DNSError
	var certErr *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var invalidCert x509.CertificateInvalidError
	var recordErr tls.RecordHeaderError
	var alert tls.AlertError
	switch {
	case errors.Is(cause, syscall.ECONNREFUSED):
		return failure{ConnectionRefused, fmt.Sprintf("cannot connect to %s: connection refused", host),
			"is the server running? check the host and port in the URL", 0, true}
	case errors.As(cause, &dnsErr):
		return failure{HostNotFound, fmt.Sprintf("host %q cannot be resolved: %s", dnsErr.Name, dnsErr.Err),
			"check the host name in the URL", 0, dnsErr.IsTemporary}
	case errors.As(cause, &certErr), errors.As(cause, &unknownAuth), errors.As(cause, &hostErr),
		errors.As(cause, &invalidCert), errors.As(cause, &alert):
		return failure{TLSError, fmt.Sprintf("TLS with %s failed: %v", host, unwrapAll(cause)),
			"the server's certificate is not trusted here; fix the certificate or add its CA to the system trust store", 0, false}
	case errors.As(cause, &recordErr):
		return failure{TLSError, fmt.Sprintf("%s does not speak TLS", host), "use http:// instead of https:// for this server", 0, false}
	case isVersionMismatch(err):
		return versionMismatch(err)
	case timedOut:
		return failure{InitTimeout, fmt.Sprintf("no answer to %s from %s within %s", stage, host, sp.timeout),
			"raise --timeout, or set the server's startup timeout in its config", last, false}
	case errors.Is(err, transport.ErrLegacySSEServer):
		return failure{ProtocolError, fmt.Sprintf("%s answered %s to an initialize POST: it does not speak streamable HTTP", host, statusText(last)),
			`check the URL's path (streamable HTTP servers usually answer at /mcp); if it is an SSE endpoint, set the transport to "sse"`,
			last, false}
	case notAnEndpoint(last):
		hint := `check the URL's path: streamable HTTP servers usually answer at /mcp, SSE ones at /sse (set the transport to "sse" for those)`
		if sp.transport == canonical.SSE {
			hint = `check the URL's path (SSE servers usually answer at /sse); if the server speaks streamable HTTP, drop transport = "sse"`
		}
		return failure{ProtocolError, fmt.Sprintf("%s answered %s during %s: there is no MCP endpoint at this URL", host, statusText(last), stage),
			hint, last, false}
	case last >= 400:
		hint := "check the URL's path (streamable HTTP servers usually answer at /mcp, SSE at /sse)"
		if transientStatus(last) {
			hint = "the server reports a temporary problem; try again later"
		}
		return failure{ProtocolError, fmt.Sprintf("%s answered %s during %s", host, statusText(last), stage), hint, last, transientStatus(last)}
	case errors.Is(cause, io.EOF) || errors.Is(cause, io.ErrUnexpectedEOF) || errors.Is(cause, syscall.ECONNRESET):
		return failure{ProtocolError, fmt.Sprintf("%s closed the connection during %s", host, stage),
			"the server or a proxy in front of it dropped the connection; try again", 0, true}
	}
	return failure{ProtocolError, fmt.Sprintf("%s: %v", stage, err), "the server did not answer as an MCP server should", last, false}
}

// transientStatus reports whether an HTTP status says "try again". 501
// Not Implemented and 505 say the server will never do it.
func transientStatus(code int) bool {
	return code == http.StatusTooManyRequests || code == http.StatusRequestTimeout ||
		code >= 500 && code != http.StatusNotImplemented && code != http.StatusHTTPVersionNotSupported
}

// notAnEndpoint reports the statuses that say the URL holds no MCP
// endpoint: 404 Not Found, 405 Method Not Allowed (MCP's POST refused) and
// 501 Not Implemented.
func notAnEndpoint(code int) bool {
	return code == http.StatusNotFound || code == http.StatusMethodNotAllowed || code == http.StatusNotImplemented
}

func statusText(code int) string {
	if code == 0 {
		return "an error"
	}
	return fmt.Sprintf("%d %s", code, http.StatusText(code))
}

func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "the server"
	}
	return u.Host
}
