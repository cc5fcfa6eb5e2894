package probe

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/winshim"
)

// Defaults used where Options leave a field zero.
const (
	DefaultTimeout  = 30 * time.Second
	DefaultParallel = 8
	// DiscoverTimeout bounds the server/discover request of protocol
	// 2026-07-28, when the probe sends it (Options.DiscoverFirst, or as the
	// fallback for a server that rejects initialize). A pre-2026 server
	// that ignores unknown methods would otherwise cost mcp-go's 5 s.
	DiscoverTimeout   = 500 * time.Millisecond
	DefaultBackoff    = 250 * time.Millisecond
	DefaultMaxBackoff = 2 * time.Second
)

// Options control a probe run. The zero value is usable.
type Options struct {
	// Timeout is the deadline per server, covering every attempt; a
	// server's own StartupTimeout wins. Zero means DefaultTimeout.
	Timeout time.Duration
	// Parallel bounds how many servers are probed at once. Zero means DefaultParallel.
	Parallel int
	// Retries is how many more times a remote server is tried after a
	// transient failure (connection refused, 5xx, 429), with exponential
	// backoff from Backoff (zero: DefaultBackoff) capped at MaxBackoff
	// (zero: DefaultMaxBackoff). stdio servers are tried once.
	Retries    int
	Backoff    time.Duration
	MaxBackoff time.Duration
	// RequireTools maps a server name to tools it must offer; a server
	// lacking one is Degraded.
	RequireTools map[string][]string
	// ProjectDir is the project root: stdio servers run there, a relative
	// cwd is resolved against it and a cwd outside it is refused;
	// ${workspaceFolder} expands to it.
	ProjectDir string
	// OwnServer, when set, reports the servers the user wrote themselves
	// (the user store, a user-scope client file): their cwd may be any
	// directory. Every other server came with a project (its store or
	// files, a team source, a pasted snippet) and its cwd is confined to
	// ProjectDir. Nil confines every server.
	OwnServer func(name string) bool
	// WithDefault spells, in the syntax of the file the servers came from,
	// a reference to a variable with a default (the store's env("X",
	// "value"), Claude Code's ${X:-value}), for the hint of a server not
	// started for want of a variable; false when that file has none. Nil
	// uses the canonical ${X:-value}.
	WithDefault func(name string) (string, bool)
	// InheritEnv starts stdio servers with the whole environment of this
	// process; by default they get only the variables their config names
	// and a minimal base (baseEnv): PATH, HOME, the locale, proxies.
	InheritEnv bool
	// Getenv answers references; nil reads the process environment.
	Getenv func(string) (string, bool)
	// Home expands ${userHome}.
	Home string
	// Transports, when not empty, are the only transports probed; other
	// servers are Skipped.
	Transports []canonical.Transport
	// Progress, when set, is called after each server finishes, one call at
	// a time, with the number finished so far.
	Progress func(done, total int, r Result)
	// ClientVersion is sent as clientInfo.version in initialize.
	ClientVersion string
	// DiscoverFirst asks server/discover (protocol 2026-07-28) before the
	// initialize handshake, as mcp-go does by default. The probe's default
	// is initialize first, as the clients in use connect; a server that
	// rejects it is then asked server/discover. BenchmarkProbeStdio and
	// BenchmarkDiscoverSilentServer measure the difference.
	DiscoverFirst bool
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Parallel <= 0 {
		o.Parallel = DefaultParallel
	}
	if o.Retries < 0 {
		o.Retries = 0
	}
	if o.Backoff <= 0 {
		o.Backoff = DefaultBackoff
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = DefaultMaxBackoff
	}
	if o.Getenv == nil {
		o.Getenv = os.LookupEnv
	}
	if o.ClientVersion == "" {
		o.ClientVersion = "dev"
	}
	return o
}

// Run probes every server, at most Options.Parallel at once, and returns
// the results in the order given. It never fails as a whole: each server's
// problem is in its Result. Cancelling ctx ends the run early; servers not
// finished are Failed with category Canceled.
func Run(ctx context.Context, servers []canonical.Server, opts Options) Report {
	start := time.Now()
	opts = opts.withDefaults()
	results := make([]Result, len(servers))
	sem := make(chan struct{}, opts.Parallel)
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		done int
	)
	for i := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
				results[i] = One(ctx, servers[i], opts)
				<-sem
			case <-ctx.Done():
				results[i] = canceled(servers[i])
			}
			mu.Lock()
			defer mu.Unlock()
			done++
			if opts.Progress != nil {
				opts.Progress(done, len(servers), results[i])
			}
		}()
	}
	wg.Wait()
	return Report{SchemaVersion: SchemaVersion, Results: results, Summary: summarize(results), Elapsed: time.Since(start)}
}

func canceled(s canonical.Server) Result {
	return Result{Server: s.Name, State: Failed, Transport: s.Transport, Origin: s.Origin.String(),
		Category: Canceled, Message: "the run was interrupted before this server was probed"}
}

// One probes a single server: start or connect, initialize, list tools,
// and shut it down, within the server's deadline. A resolver can call it to
// verify an entry before storing it.
func One(ctx context.Context, s canonical.Server, opts Options) Result {
	opts = opts.withDefaults()
	s = s.Clone()
	s.Normalize()
	res := Result{Server: s.Name, Transport: s.Transport, Origin: s.Origin.String()}
	switch {
	case s.Disabled:
		res.State, res.Category, res.Message = Skipped, Disabled, "disabled in its configuration"
		return res
	case len(opts.Transports) > 0 && !slices.Contains(opts.Transports, s.Transport):
		res.State, res.Category, res.Message = Skipped, TransportExcluded, fmt.Sprintf("%s servers are excluded from this run", s.Transport)
		return res
	}
	sp, fail := prepare(s, opts)
	res.Target = sp.target
	if fail != nil {
		fail.Server, fail.Transport, fail.Origin, fail.Target = res.Server, res.Transport, res.Origin, res.Target
		return *fail
	}
	if err := ctx.Err(); err != nil {
		return canceled(s)
	}

	ctx, cancel := context.WithTimeout(ctx, sp.timeout)
	defer cancel()
	attempts := 1
	if s.Transport.IsRemote() {
		attempts += opts.Retries
	}
	var out outcome
	backoff := opts.Backoff
	for n := range attempts {
		var waited time.Duration
		if n > 0 {
			if dl, ok := ctx.Deadline(); ok && time.Until(dl) <= backoff {
				break // no time left for another try to mean anything
			}
			select {
			case <-time.After(backoff):
			case <-ctx.Done():
			}
			waited = backoff
			backoff = min(2*backoff, opts.MaxBackoff)
		}
		if ctx.Err() != nil && n > 0 {
			break
		}
		if s.Transport == canonical.Stdio {
			out = probeStdio(ctx, sp, opts)
		} else {
			out = probeRemote(ctx, sp, opts)
		}
		out.attempt.Backoff = waited
		res.Attempts = append(res.Attempts, out.attempt)
		if out.ok || !out.transient {
			break
		}
	}
	if ctx.Err() != nil && errors.Is(context.Cause(ctx), context.Canceled) && !out.ok {
		out.attempt.Category, out.attempt.Message, out.hint = Canceled, "the run was interrupted", ""
	}

	if s.Transport.IsRemote() && ctx.Err() == nil && !unreachable(out.attempt.Category) {
		if c := readCard(ctx, sp.url, http.DefaultTransport); c != nil {
			c.Name, c.Title, c.Version = sp.scrub.scrub(c.Name), sp.scrub.scrub(c.Title), sp.scrub.scrub(c.Version)
			c.Description, c.URL = sp.scrub.scrub(c.Description), sp.scrub.scrub(c.URL)
			res.Card = c
		}
	}
	res.Latency = out.attempt.Latency
	res.Protocol = out.protocol
	res.Stateless = mcp.IsModernProtocol(out.protocol)
	res.ServerInfo = out.info
	res.Tools = out.tools
	res.HTTPStatus = out.attempt.HTTPStatus
	if !out.ok {
		res.State = Failed
		res.Category, res.Message, res.Hint = out.attempt.Category, out.attempt.Message, out.hint
		res.ExitCode, res.StderrTail = out.exitCode, out.stderr
	} else {
		res.State = Ready
		if missing := missingTools(out.tools, opts.RequireTools[s.Name]); len(missing) > 0 {
			res.State, res.Category, res.MissingTools = Degraded, MissingRequiredTools, missing
			res.Message = fmt.Sprintf("required tool%s missing: %s", plural(len(missing)), joinQuoted(missing))
			res.Hint = "the server offers " + orNone(joinQuoted(out.tools)) + "; check its version, or what the run requires"
		}
	}
	res.Message, res.Hint = sp.scrub.scrub(res.Message), sp.scrub.scrub(res.Hint)
	if res.ServerInfo != nil {
		res.ServerInfo.Name, res.ServerInfo.Version = sp.scrub.scrub(res.ServerInfo.Name), sp.scrub.scrub(res.ServerInfo.Version)
	}
	res.StderrTail = sp.scrub.scrubAll(res.StderrTail)
	for i := range res.Attempts {
		res.Attempts[i].Message = sp.scrub.scrub(res.Attempts[i].Message)
	}
	return res
}

// outcome is one attempt's result before it becomes a Result.
type outcome struct {
	attempt   Attempt
	ok        bool
	transient bool
	hint      string
	protocol  string
	info      *ServerInfo
	tools     []string
	exitCode  *int
	stderr    []string
}

// failure is a classified problem.
type failure struct {
	cat       Category
	msg, hint string
	status    int
	transient bool
}

func (o *outcome) fail(f failure) {
	o.attempt.Category, o.attempt.Message, o.attempt.HTTPStatus = f.cat, f.msg, f.status
	o.hint, o.transient = f.hint, f.transient
}

var discardLogger = slog.New(slog.NewTextHandler(io.Discard, nil))

// newClient returns a client for t that starts with the initialize
// handshake (pinned to the newest legacy protocol), or with
// server/discover when modern is set.
func newClient(t transport.Interface, modern bool) *client.Client {
	if modern {
		return modernClient(t, DiscoverTimeout)
	}
	return client.NewClient(t, client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION))
}

// connect starts c and runs the handshake. When the initialize handshake
// is rejected by a server that did answer (a 2026-07-28-only server answers
// MethodNotFound, or over HTTP a 4xx), it tries server/discover on the same
// transport; if that fails too, the first error is the one reported.
// stage names the step that failed.
func connect(ctx context.Context, t transport.Interface, opts Options, out *outcome) (c *client.Client, stage string, err error) {
	c = newClient(t, opts.DiscoverFirst)
	if err := c.Start(ctx); err != nil {
		return c, "connect", err
	}
	stage, err = handshake(ctx, c, opts, out)
	if err == nil || opts.DiscoverFirst || ctx.Err() != nil || !rejectedInitialize(err) {
		return c, stage, err
	}
	// The server answered initialize, so it is there: its server/discover
	// gets the rest of the probe's time. DiscoverTimeout is for a server
	// that may ignore the method altogether, and a loaded machine can
	// take longer than that to answer.
	discover := DiscoverTimeout
	if deadline, ok := ctx.Deadline(); ok {
		discover = max(discover, time.Until(deadline))
	}
	modern := modernClient(ownRequestIDs(t), discover)
	if modern.Start(ctx) != nil {
		return c, stage, err
	}
	var second outcome
	if _, err2 := handshake(ctx, modern, opts, &second); err2 == nil {
		out.protocol, out.info, out.tools = second.protocol, second.info, second.tools
		return modern, "", nil
	}
	return c, stage, err
}

// modernClient returns a client for t that starts with server/discover,
// waiting at most discover for its answer.
func modernClient(t transport.Interface, discover time.Duration) *client.Client {
	return client.NewClient(t, client.WithDiscoverTimeout(discover))
}

// fallbackIDBase starts the request ids of the fallback client, far above
// any the first client used.
const fallbackIDBase = 1 << 32

// ownRequestIDs returns t for a second client on the same connection,
// whose request ids must not repeat the first client's: each client numbers
// its requests from 1, and mcp-go's stdio reader forgets an id only after
// it has handed over that id's answer, so a reader descheduled in between
// forgot the second client's server/discover instead, and the probe waited
// out its whole timeout. (mcp-go's SSE reader holds its lock across both
// steps; streamable HTTP keeps no such table.)
func ownRequestIDs(t transport.Interface) transport.Interface {
	if s, ok := t.(*transport.Stdio); ok {
		return renumberedStdio{s}
	}
	return t
}

// renumberedStdio is a stdio transport whose requests carry ids moved up
// by fallbackIDBase. Embedding the *Stdio keeps every other method, so the
// client sees the same optional interfaces (incoming requests) as before.
type renumberedStdio struct{ *transport.Stdio }

func (r renumberedStdio) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	if id, ok := req.ID.Value().(int64); ok {
		req.ID = mcp.NewRequestId(fallbackIDBase + id)
	}
	return r.Stdio.SendRequest(ctx, req)
}

func rejectedInitialize(err error) bool {
	return errors.Is(err, mcp.ErrMethodNotFound) || errors.Is(err, mcp.ErrInvalidRequest) ||
		errors.Is(err, transport.ErrLegacySSEServer)
}

// handshake runs initialize (or server/discover) and tools/list. stage
// names the step that failed.
func handshake(ctx context.Context, c *client.Client, opts Options, out *outcome) (stage string, err error) {
	req := mcp.InitializeRequest{}
	req.Params.ClientInfo = mcp.Implementation{Name: "mcpsync-probe", Version: opts.ClientVersion}
	init, err := c.Initialize(ctx, req)
	if err != nil {
		return "initialize", err
	}
	out.protocol = init.ProtocolVersion
	if out.protocol == "" {
		out.protocol = c.ProtocolVersion()
	}
	if init.ServerInfo.Name != "" || init.ServerInfo.Version != "" {
		out.info = &ServerInfo{Name: init.ServerInfo.Name, Version: init.ServerInfo.Version}
	}
	list, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		// A server without tools may rightly not implement tools/list.
		if init.Capabilities.Tools == nil && isMethodNotFound(err) {
			out.tools = []string{}
			return "", nil
		}
		return "tools/list", err
	}
	out.tools = make([]string, 0, len(list.Tools))
	for _, t := range list.Tools {
		out.tools = append(out.tools, t.Name)
	}
	return "", nil
}

func isMethodNotFound(err error) bool { return errors.Is(err, mcp.ErrMethodNotFound) }

// probeStdio starts the server in its own process group, talks to it, and
// leaves nothing of it running.
func probeStdio(ctx context.Context, sp *spec, opts Options) outcome {
	var out outcome
	tail := &tailWriter{}
	p := &process{}
	// runCtx is the server's life: cancelling it kills the whole group.
	runCtx, kill := context.WithCancel(ctx)
	defer kill()
	command, args := sp.command, sp.args
	if runtime.GOOS == "windows" {
		// As a Windows client starts it: npx is npx.cmd there, which only
		// cmd /c runs (a file written for Windows says so already).
		command, args, _ = winshim.Wrap(command, args)
	}
	t := transport.NewStdioWithOptions(command, sp.env, args,
		transport.WithCommandFunc(p.commandFunc(sp.dir, baseEnv(opts.InheritEnv), tail)), transport.WithCommandLogger(discardLogger))
	start := time.Now()
	c, stage, err := connect(runCtx, t, opts, &out)
	out.attempt.Latency = time.Since(start)
	if stage == "connect" {
		cat, msg, hint := startFailure(err, sp.command)
		out.fail(failure{cat: cat, msg: msg, hint: hint})
		return out
	}
	timedOut := ctx.Err() != nil
	p.shutdown(c, kill)
	if err == nil {
		out.ok = true
		return out
	}
	out.stderr = tail.Lines()
	exited, code, how := p.exitState()
	switch {
	case timedOut:
		msg := fmt.Sprintf("no answer to %s within %s; the server's process group was killed", stage, sp.timeout)
		out.fail(failure{cat: InitTimeout, msg: msg,
			hint: "raise --timeout (a first npx/uvx run downloads packages), or set the server's startup timeout in its config"})
	case endedByItself(err, exited):
		// The server closed stdout before the probe was done, or stdin
		// before the probe wrote to it: it ended by itself.
		out.exitCode = code
		hint := "run the command by hand to see its whole output"
		if len(out.stderr) > 0 {
			hint = "its last stderr lines are shown; " + hint
		}
		out.fail(failure{cat: Exited, msg: fmt.Sprintf("the server %s before answering %s", how, stage), hint: hint})
	case isVersionMismatch(err):
		out.fail(versionMismatch(err))
	case errors.Is(err, transport.ErrTransportClosed):
		out.fail(failure{cat: ProtocolError, msg: "the server closed its output during " + stage + " but kept running",
			hint: "a stdio server must keep stdout open and write only JSON-RPC messages to it"})
	default:
		out.fail(failure{cat: ProtocolError, msg: fmt.Sprintf("%s: %v", stage, err),
			hint: "the server did not answer as an MCP server should; its last stderr lines may say why"})
	}
	return out
}

// endedByItself reports whether err, the error that stopped a probe of a
// stdio server that has exited (not by the probe's signal), is the
// server's end seen from the probe's side: its stdout closed (the read
// found the end), or its stdin (the write found no reader: EPIPE). Which
// of the two the probe meets first is a race between its first write
// and the server's exit: a server that exits at once was reported as a
// protocol error ("failed to write request: ... broken pipe") whenever
// the probe wrote after it was gone, as on a loaded machine.
func endedByItself(err error, exited bool) bool {
	return exited && (errors.Is(err, transport.ErrTransportClosed) || errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed))
}

// unreachable says a failure left nothing at the URL to ask for a card.
func unreachable(c Category) bool {
	return c == ConnectionRefused || c == HostNotFound || c == TLSError || c == InitTimeout || c == Canceled
}

// probeRemote connects over streamable HTTP or SSE.
func probeRemote(ctx context.Context, sp *spec, opts Options) outcome {
	var out outcome
	base := http.DefaultTransport.(*http.Transport).Clone()
	defer base.CloseIdleConnections()
	rec := &recorder{base: base}
	hc := &http.Client{Transport: rec}
	var (
		t   transport.Interface
		err error
	)
	if sp.transport == "sse" {
		t, err = transport.NewSSE(sp.url, transport.WithHeaders(sp.headers), transport.WithHTTPClient(hc),
			transport.WithSSELogger(discardLogger))
	} else {
		t, err = transport.NewStreamableHTTP(sp.url, transport.WithHTTPHeaders(sp.headers), transport.WithHTTPBasicClient(hc),
			transport.WithHTTPLogger(discardLogger))
	}
	if err != nil {
		out.fail(failure{cat: InvalidConfig, msg: fmt.Sprintf("url: %v", err), hint: "fix the server's url"})
		return out
	}
	// The connection lives in connCtx, so that closing it at the end
	// cannot outlive the probe.
	connCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := time.Now()
	c, stage, err := connect(connCtx, t, opts, &out)
	out.attempt.Latency = time.Since(start)
	timedOut := ctx.Err() != nil
	closeRemote(c, cancel)
	if err == nil {
		out.ok = true
		return out
	}
	out.fail(remoteFailure(err, rec, sp, stage, timedOut))
	return out
}

// closeRemote closes the session (streamable HTTP sends a DELETE), giving
// it closeGrace before the connection is cut.
func closeRemote(c *client.Client, cancel context.CancelFunc) {
	done := make(chan struct{})
	go func() {
		_ = c.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(closeGrace):
		cancel()
		<-done
	}
}

func missingTools(have, want []string) []string {
	var out []string
	for _, w := range want {
		if !slices.Contains(have, w) && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func joinQuoted(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "no tools"
	}
	return s
}

func isVersionMismatch(err error) bool {
	var uv mcp.UnsupportedProtocolVersionError
	return errors.As(err, &uv)
}

// versionMismatch says which protocol revisions the server and the probe
// speak, when they share none.
func versionMismatch(err error) failure {
	var uv mcp.UnsupportedProtocolVersionError
	errors.As(err, &uv)
	ours := mcp.ValidProtocolVersions
	msg := fmt.Sprintf("the server speaks MCP protocol %s, which the probe does not (it speaks %s to %s)",
		firstNonEmptyStr(uv.Version, "of an unknown revision"), ours[len(ours)-1], ours[0])
	if len(uv.Supported) > 0 {
		msg = fmt.Sprintf("the server supports MCP protocol %s only; the probe speaks %s to %s",
			strings.Join(uv.Supported, ", "), ours[len(ours)-1], ours[0])
	}
	return failure{cat: VersionMismatch, msg: msg,
		hint: "update the server (or mcpsync, when the server is newer): clients of this generation cannot talk to it"}
}

func firstNonEmptyStr(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
