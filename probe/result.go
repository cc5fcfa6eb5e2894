package probe

import (
	"encoding/json"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
)

// SchemaVersion is the version of the JSON report. It changes only when a
// field is renamed or removed or its meaning changes; new fields keep it.
const SchemaVersion = 2

// State is the outcome of one probe.
type State string

const (
	// Ready: the server initialised and listed its tools (and every required tool).
	Ready State = "ready"
	// Degraded: the server works but lacks a required tool.
	Degraded State = "degraded"
	// Failed: the server could not be started, reached or understood.
	Failed State = "failed"
	// Skipped: the server was not probed (disabled, or its transport excluded).
	Skipped State = "skipped"
)

// Category says why a probe did not end ready. The values are stable: scripts
// and CI gates may match on them.
type Category string

const (
	// CommandNotFound: the stdio command is not on PATH or does not exist.
	CommandNotFound Category = "command_not_found"
	// SpawnFailed: the command exists but could not be started (permissions,
	// a missing working directory, ...).
	SpawnFailed Category = "spawn_failed"
	// Exited: the server process ended before the probe finished; ExitCode
	// and StderrTail say how.
	Exited Category = "exited"
	// InitTimeout: no answer to initialize and tools/list within the deadline.
	InitTimeout Category = "init_timeout"
	// AuthFailed: the remote server answered 401 or 403.
	AuthFailed Category = "auth_failed"
	// ConnectionRefused: nothing accepts connections at the URL's host and port.
	ConnectionRefused Category = "connection_refused"
	// HostNotFound: the URL's host name does not resolve.
	HostNotFound Category = "host_not_found"
	// TLSError: the TLS handshake or certificate check failed.
	TLSError Category = "tls_error"
	// ProtocolError: the server answered, but not as an MCP server should
	// (bad JSON-RPC, an unknown protocol version, an unexpected HTTP status).
	ProtocolError Category = "protocol_error"
	// VersionMismatch: the server speaks only MCP protocol revisions the
	// probe does not (an unknown version in its initialize answer, or
	// -32022 UnsupportedProtocolVersion to server/discover).
	VersionMismatch Category = "version_mismatch"
	// UnsupportedTransport: the probe cannot speak the server's transport.
	UnsupportedTransport Category = "unsupported_transport"
	// MissingRequiredTools: the server works but lacks a tool the run requires.
	MissingRequiredTools Category = "missing_required_tools"
	// MissingEnv: a referenced environment variable is not set; the server
	// was not started. MissingEnv lists the variables.
	MissingEnv Category = "missing_env"
	// CwdOutsideProject: the stdio working directory resolves (symlinks
	// included) outside the project root; the server was not started.
	CwdOutsideProject Category = "cwd_outside_project"
	// InvalidConfig: the entry itself is incomplete (no command, a malformed URL).
	InvalidConfig Category = "invalid_config"
	// Canceled: the run was interrupted before this server finished.
	Canceled Category = "canceled"

	// Disabled (skipped): the entry is disabled in its configuration.
	Disabled Category = "disabled"
	// TransportExcluded (skipped): the run excludes the server's transport.
	TransportExcluded Category = "transport_excluded"
)

// ServerInfo is what the server says about itself in its initialize answer.
type ServerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// Attempt is one try at a server. Remote servers may be tried more than once
// (Options.Retries); every try is reported.
type Attempt struct {
	Latency    time.Duration `json:"-"`
	Category   Category      `json:"category,omitempty"`
	Message    string        `json:"message,omitempty"`
	HTTPStatus int           `json:"http_status,omitempty"`
	// Backoff is how long the probe waited before this attempt.
	Backoff time.Duration `json:"-"`
}

// MarshalJSON adds latency_ms and backoff_ms.
func (a Attempt) MarshalJSON() ([]byte, error) {
	type plain Attempt
	return json.Marshal(struct {
		plain
		LatencyMS float64 `json:"latency_ms"`
		BackoffMS float64 `json:"backoff_ms,omitempty"`
	}{plain(a), ms(a.Latency), ms(a.Backoff)})
}

// Result is the outcome of probing one server. Every string in it that
// could carry a secret (Message, Hint, StderrTail, Target) has been scrubbed
// of every expanded environment value, header value and URL credential.
type Result struct {
	Server    string              `json:"server"`
	State     State               `json:"state"`
	Transport canonical.Transport `json:"transport"`
	// Target is the command line or URL that was probed, scrubbed.
	Target string `json:"target,omitempty"`
	// Origin is where the server is defined (file:line:col), when known.
	Origin   string `json:"origin,omitempty"`
	Protocol string `json:"protocol,omitempty"`
	// Stateless says the server speaks the stateless protocol of
	// 2026-07-28 and later (server/discover; no initialize, no session).
	Stateless  bool        `json:"stateless,omitempty"`
	ServerInfo *ServerInfo `json:"server_info,omitempty"`
	// Card is the server card a remote server publishes, when it has one.
	Card     *Card         `json:"card,omitempty"`
	Tools    []string      `json:"tools"`
	Latency  time.Duration `json:"-"`
	Category Category      `json:"category,omitempty"`
	Message  string        `json:"message,omitempty"`
	// Hint says what to do about a failure.
	Hint         string    `json:"hint,omitempty"`
	ExitCode     *int      `json:"exit_code,omitempty"`
	StderrTail   []string  `json:"stderr_tail,omitempty"`
	MissingEnv   []string  `json:"missing_env,omitempty"`
	MissingTools []string  `json:"missing_tools,omitempty"`
	HTTPStatus   int       `json:"http_status,omitempty"`
	Attempts     []Attempt `json:"attempts"`
}

// MarshalJSON adds latency_ms and keeps tools and attempts arrays (never null).
func (r Result) MarshalJSON() ([]byte, error) {
	type plain Result
	p := plain(r)
	if p.Tools == nil {
		p.Tools = []string{}
	}
	if p.Attempts == nil {
		p.Attempts = []Attempt{}
	}
	return json.Marshal(struct {
		plain
		LatencyMS float64 `json:"latency_ms"`
	}{p, ms(r.Latency)})
}

// OK reports whether the result is ready, or skipped (which no gate counts).
func (r Result) OK() bool { return r.State == Ready || r.State == Skipped }

// Summary counts results per state.
type Summary struct {
	Total    int `json:"total"`
	Ready    int `json:"ready"`
	Degraded int `json:"degraded"`
	Failed   int `json:"failed"`
	Skipped  int `json:"skipped"`
}

// Report is the outcome of a run, in the order the servers were given.
type Report struct {
	SchemaVersion int           `json:"schema_version"`
	Results       []Result      `json:"servers"`
	Summary       Summary       `json:"summary"`
	Elapsed       time.Duration `json:"-"`
}

// MarshalJSON adds elapsed_ms and keeps servers an array (never null).
func (r Report) MarshalJSON() ([]byte, error) {
	type plain Report
	p := plain(r)
	if p.Results == nil {
		p.Results = []Result{}
	}
	return json.Marshal(struct {
		plain
		ElapsedMS float64 `json:"elapsed_ms"`
	}{p, ms(r.Elapsed)})
}

// AllReady reports whether every server that was probed is ready: what
// strict mode requires. Skipped servers do not count.
func (r Report) AllReady() bool {
	for _, res := range r.Results {
		if !res.OK() {
			return false
		}
	}
	return true
}

func summarize(results []Result) Summary {
	s := Summary{Total: len(results)}
	for _, r := range results {
		switch r.State {
		case Ready:
			s.Ready++
		case Degraded:
			s.Degraded++
		case Failed:
			s.Failed++
		case Skipped:
			s.Skipped++
		}
	}
	return s
}

// ms renders a duration in milliseconds with microsecond precision.
func ms(d time.Duration) float64 {
	return float64(d.Microseconds()) / 1000
}
