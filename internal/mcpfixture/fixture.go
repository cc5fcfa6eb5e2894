// Package mcpfixture is a configurable MCP server for tests: it answers over
// stdio, streamable HTTP or SSE, and can misbehave on purpose (hang, exit at
// once with a message on stderr, start slowly, ignore unknown methods, demand
// a bearer token) so that the probe and the command-line scripts can prove
// every outcome without network access or third-party binaries.
//
// Import exception: package probe is the only production importer of
// mark3labs/mcp-go. This package imports mcp-go's server package too, but it
// is test support only: it is linked into test binaries (probe tests and the
// cmd/mcpsync testscript command "mcp-fixture"), never into mcpsync itself.
//
// Run it with Main and flags (see ParseArgs), or build a Config and call
// Config.Server / Config.Handler in-process.
package mcpfixture

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Modes the fixture can run in.
const (
	// ModeReady is a well-behaved server.
	ModeReady = "ready"
	// ModeHang reads stdin (or accepts connections) and never answers.
	ModeHang = "hang"
	// ModeExit writes its Stderr lines and exits at once with ExitCode.
	ModeExit = "exit"
	// ModeSilent is a pre-2026 server that ignores methods it does not know
	// (server/discover included) instead of answering MethodNotFound. stdio only.
	ModeSilent = "silent"
	// ModeBadProtocol answers initialize with a protocol version no client
	// knows. stdio only.
	ModeBadProtocol = "bad-protocol"
	// ModeModernOnly speaks protocol 2026-07-28 only: it answers
	// server/discover and rejects initialize with MethodNotFound. stdio only.
	ModeModernOnly = "modern-only"
)

// Transports the fixture can serve.
const (
	TransportStdio = "stdio"
	TransportHTTP  = "http"
	TransportSSE   = "sse"
)

// Config selects what the fixture does.
type Config struct {
	Mode      string
	Transport string
	// Name and Version are the serverInfo the fixture reports.
	Name, Version string
	// Tools are the tool names it offers. echo and add work; any other name
	// is a tool that answers with its own name.
	Tools []string
	// InitDelay delays start-up: over stdio the server sleeps before reading
	// anything (as a slow npx start does); over HTTP it delays the answer to
	// initialize and server/discover.
	InitDelay time.Duration
	// DiscoverDelay delays the answer to server/discover in ModeModernOnly
	// (a server on a loaded machine).
	DiscoverDelay time.Duration
	// Token, when set, makes HTTP and SSE requests without
	// "Authorization: Bearer <Token>" fail with 401.
	Token string
	// ExitCode and Stderr are used by ModeExit. Stderr lines are also
	// written at start-up in every other mode.
	ExitCode int
	Stderr   []string
	// PIDFile receives the fixture's pid (and the child's, with SpawnChild),
	// one per line, so tests can check that the process group is gone.
	PIDFile string
	// SpawnChild starts "sleep 300" in the fixture's process group, the way
	// npx and uvx leave children behind.
	SpawnChild bool
	// CwdFile receives the working directory the fixture was started in.
	CwdFile string
	// EnvFile receives the fixture's environment, one NAME=value a line.
	EnvFile string
	// RequestLog receives "<id> <method>" for each request the fixture is
	// sent, a line each (ModeModernOnly), so a test can check the ids.
	RequestLog string
	// StderrEnv writes the environment to stderr at start-up, as a server
	// that dumps it when it fails does.
	StderrEnv bool
	// Addr is where HTTP and SSE listen (default 127.0.0.1:0); URLFile
	// receives the URL to connect to once listening.
	Addr    string
	URLFile string
}

// ParseArgs reads a Config from command-line flags. MCP_FIXTURE_MODE and
// MCP_FIXTURE_TOKEN (read through getenv) give defaults for -mode and
// -token, so a test can configure the fixture through a server's env.
func ParseArgs(args []string, getenv func(string) string) (Config, error) {
	c := Config{}
	fs := flag.NewFlagSet("mcp-fixture", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	mode := getenv("MCP_FIXTURE_MODE")
	if mode == "" {
		mode = ModeReady
	}
	fs.StringVar(&c.Mode, "mode", mode, "ready | hang | exit | silent | bad-protocol | modern-only")
	fs.StringVar(&c.Transport, "transport", TransportStdio, "stdio | http | sse")
	fs.StringVar(&c.Name, "name", "mcp-fixture", "serverInfo name")
	fs.StringVar(&c.Version, "version", "1.0.0", "serverInfo version")
	tools := fs.String("tools", "echo,add", "comma-separated tool names (empty: none)")
	toolsEnv := fs.String("tools-env", "", "read the tool names from this environment variable instead")
	fs.DurationVar(&c.InitDelay, "init-delay", 0, "delay before the server answers")
	fs.DurationVar(&c.DiscoverDelay, "discover-delay", 0, "delay before the answer to server/discover (-mode modern-only)")
	fs.StringVar(&c.Token, "token", getenv("MCP_FIXTURE_TOKEN"), "bearer token HTTP and SSE require")
	fs.IntVar(&c.ExitCode, "exit-code", 3, "exit code in -mode exit")
	fs.Func("stderr", "a line to write to stderr (repeatable)", func(s string) error {
		c.Stderr = append(c.Stderr, s)
		return nil
	})
	fs.StringVar(&c.PIDFile, "pid-file", "", "write the pids here")
	fs.BoolVar(&c.SpawnChild, "spawn-child", false, "start `sleep 300` in the same process group")
	fs.StringVar(&c.CwdFile, "cwd-file", "", "write the working directory here")
	fs.StringVar(&c.RequestLog, "request-log", "", "write each request's id and method here (-mode modern-only)")
	fs.StringVar(&c.EnvFile, "env-file", "", "write the environment here")
	fs.BoolVar(&c.StderrEnv, "stderr-env", false, "write the environment to stderr at start-up")
	fs.StringVar(&c.Addr, "addr", "127.0.0.1:0", "HTTP/SSE listen address")
	fs.StringVar(&c.URLFile, "url-file", "", "write the URL here once listening")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	list := *tools
	if *toolsEnv != "" {
		list = getenv(*toolsEnv)
	}
	c.Tools = splitList(list)
	switch c.Mode {
	case ModeReady, ModeHang, ModeExit:
	case ModeSilent, ModeBadProtocol, ModeModernOnly:
		if c.Transport != TransportStdio {
			return c, fmt.Errorf("-mode %s works over stdio only", c.Mode)
		}
	default:
		return c, fmt.Errorf("unknown -mode %q", c.Mode)
	}
	switch c.Transport {
	case TransportStdio, TransportHTTP, TransportSSE:
	default:
		return c, fmt.Errorf("unknown -transport %q", c.Transport)
	}
	return c, nil
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// Main runs the fixture as a program with the process's streams and returns
// its exit code.
func Main(args []string) int {
	c, err := ParseArgs(args, os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcp-fixture:", err)
		return 2
	}
	if err := c.Run(os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "mcp-fixture:", err)
		return 1
	}
	if c.Mode == ModeExit {
		return c.ExitCode
	}
	return 0
}

// Run serves until stdin ends (stdio) or the process is signalled (HTTP, SSE).
func (c Config) Run(stdin io.Reader, stdout, stderr io.Writer) error {
	for _, l := range c.Stderr {
		fmt.Fprintln(stderr, l)
	}
	if c.StderrEnv {
		env := os.Environ()
		sort.Strings(env)
		for _, kv := range env {
			fmt.Fprintln(stderr, kv)
		}
	}
	if err := c.writeFiles(); err != nil {
		return err
	}
	if c.Mode == ModeExit {
		return nil
	}
	if c.Transport != TransportStdio {
		return c.serveHTTP(stdout)
	}
	if c.InitDelay > 0 {
		time.Sleep(c.InitDelay)
	}
	switch c.Mode {
	case ModeHang:
		_, err := io.Copy(io.Discard, stdin)
		return err
	case ModeSilent, ModeBadProtocol:
		return c.serveRaw(stdin, stdout)
	case ModeModernOnly:
		return c.serveModernOnly(stdin, stdout)
	}
	return server.NewStdioServer(c.Server()).Listen(context.Background(), stdin, stdout)
}

// writeFiles records the pid (and the child's) and the working directory.
func (c Config) writeFiles() error {
	if c.CwdFile != "" {
		wd, _ := os.Getwd()
		if err := os.WriteFile(c.CwdFile, []byte(wd+"\n"), 0o644); err != nil {
			return err
		}
	}
	if c.EnvFile != "" {
		env := os.Environ()
		sort.Strings(env)
		if err := os.WriteFile(c.EnvFile, []byte(strings.Join(env, "\n")+"\n"), 0o644); err != nil {
			return err
		}
	}
	pids := []int{os.Getpid()}
	if c.SpawnChild {
		child := exec.Command("sleep", "300")
		if err := child.Start(); err != nil {
			return fmt.Errorf("spawn child: %w", err)
		}
		pids = append(pids, child.Process.Pid)
	}
	if c.PIDFile != "" {
		var b strings.Builder
		for _, p := range pids {
			b.WriteString(strconv.Itoa(p) + "\n")
		}
		if err := os.WriteFile(c.PIDFile, []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Server builds the mcp-go server with the configured tools.
func (c Config) Server() *server.MCPServer {
	hooks := &server.Hooks{}
	if c.InitDelay > 0 && c.Transport != TransportStdio {
		hooks.AddBeforeInitialize(func(context.Context, any, *mcp.InitializeRequest) { time.Sleep(c.InitDelay) })
		hooks.AddBeforeDiscover(func(context.Context, any, *mcp.DiscoverRequest) { time.Sleep(c.InitDelay) })
	}
	name, version := c.Name, c.Version
	if name == "" {
		name = "mcp-fixture"
	}
	if version == "" {
		version = "1.0.0"
	}
	s := server.NewMCPServer(name, version, server.WithToolCapabilities(false), server.WithHooks(hooks))
	for _, t := range c.Tools {
		switch t {
		case "echo":
			s.AddTool(mcp.NewTool("echo", mcp.WithDescription("echo the text back"), mcp.WithString("text", mcp.Required())),
				func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return mcp.NewToolResultText(r.GetString("text", "")), nil
				})
		case "add":
			s.AddTool(mcp.NewTool("add", mcp.WithDescription("add two numbers"),
				mcp.WithNumber("a", mcp.Required()), mcp.WithNumber("b", mcp.Required())),
				func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return mcp.NewToolResultText(strconv.FormatFloat(r.GetFloat("a", 0)+r.GetFloat("b", 0), 'g', -1, 64)), nil
				})
		default:
			s.AddTool(mcp.NewTool(t, mcp.WithDescription("fixture tool "+t)),
				func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return mcp.NewToolResultText(t), nil
				})
		}
	}
	return s
}

// Handler serves the fixture over HTTP: streamable HTTP at /mcp, or SSE at
// /sse and /message. With a Token, requests without the right bearer get
// 401; in ModeHang every request blocks until the client gives up.
func (c Config) Handler() http.Handler {
	mux := http.NewServeMux()
	switch c.Transport {
	case TransportSSE:
		sse := server.NewSSEServer(c.Server(), server.WithKeepAlive(false))
		mux.Handle("/sse", sse)
		mux.Handle("/message", sse)
	default:
		mux.Handle("/mcp", server.NewStreamableHTTPServer(c.Server()))
	}
	var h http.Handler = mux
	if c.Mode == ModeHang {
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			// Reading the body first lets net/http notice when the client
			// hangs up, which ends the request context.
			_, _ = io.Copy(io.Discard, r.Body)
			<-r.Context().Done()
		})
	}
	if c.Token == "" {
		return h
	}
	want := "Bearer " + c.Token
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != want {
			w.Header().Set("WWW-Authenticate", `Bearer realm="mcp-fixture"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// Path is where a client connects for the configured transport.
func (c Config) Path() string {
	if c.Transport == TransportSSE {
		return "/sse"
	}
	return "/mcp"
}

func (c Config) serveHTTP(stdout io.Writer) error {
	addr := c.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	url := "http://" + ln.Addr().String() + c.Path()
	if c.URLFile != "" {
		// Write then rename, so a reader polling for the file never sees half a URL.
		tmp := c.URLFile + ".tmp"
		if err := os.WriteFile(tmp, []byte(url+"\n"), 0o644); err != nil {
			return err
		}
		if err := os.Rename(tmp, c.URLFile); err != nil {
			return err
		}
	}
	fmt.Fprintln(stdout, url)
	srv := &http.Server{Handler: c.Handler(), ReadHeaderTimeout: 10 * time.Second}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, os.Interrupt)
	go func() {
		<-stop
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// serveRaw is a minimal JSON-RPC loop for the misbehaving modes that the
// mcp-go server cannot be made to imitate.
func (c Config) serveRaw(stdin io.Reader, stdout io.Writer) error {
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 64*1024), 4<<20)
	enc := json.NewEncoder(stdout)
	for sc.Scan() {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) != nil || len(msg.ID) == 0 || string(msg.ID) == "null" {
			continue // notifications and garbage get no answer
		}
		var result any
		switch msg.Method {
		case "initialize":
			version := msg.Params.ProtocolVersion
			if c.Mode == ModeBadProtocol {
				version = "1999-01-01"
			}
			result = map[string]any{
				"protocolVersion": version,
				"capabilities":    map[string]any{"tools": map[string]any{}},
				"serverInfo":      map[string]any{"name": c.Name, "version": c.Version},
			}
		case "tools/list":
			tools := []map[string]any{}
			for _, t := range c.Tools {
				tools = append(tools, map[string]any{"name": t, "inputSchema": map[string]any{"type": "object"}})
			}
			result = map[string]any{"tools": tools}
		case "ping":
			result = map[string]any{}
		default:
			if c.Mode == ModeSilent {
				continue // the behaviour under test: no answer at all
			}
			_ = enc.Encode(map[string]any{"jsonrpc": "2.0", "id": msg.ID,
				"error": map[string]any{"code": -32601, "message": "method not found"}})
			continue
		}
		if err := enc.Encode(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": result}); err != nil {
			return err
		}
	}
	return sc.Err()
}

// serveModernOnly runs the mcp-go server behind a filter that answers
// initialize with MethodNotFound, as a server without the pre-2026
// handshake does.
func (c Config) serveModernOnly(stdin io.Reader, stdout io.Writer) error {
	out := &lockedWriter{w: stdout}
	var requests io.Writer = io.Discard
	if c.RequestLog != "" {
		f, err := os.Create(c.RequestLog)
		if err != nil {
			return err
		}
		defer f.Close()
		requests = f
	}
	pr, pw := io.Pipe()
	go func() {
		sc := bufio.NewScanner(stdin)
		sc.Buffer(make([]byte, 64*1024), 4<<20)
		for sc.Scan() {
			var msg struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal(sc.Bytes(), &msg) == nil && msg.Method != "" && len(msg.ID) > 0 {
				fmt.Fprintf(requests, "%s %s\n", msg.ID, msg.Method)
			}
			if msg.Method == "initialize" && len(msg.ID) > 0 {
				b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": msg.ID,
					"error": map[string]any{"code": -32601, "message": "method not found: initialize"}})
				_, _ = out.Write(append(b, '\n'))
				continue
			}
			if msg.Method == "server/discover" && c.DiscoverDelay > 0 {
				time.Sleep(c.DiscoverDelay)
			}
			if _, err := pw.Write(append(sc.Bytes(), '\n')); err != nil {
				break
			}
		}
		pw.Close()
	}()
	return server.NewStdioServer(c.Server()).Listen(context.Background(), pr, out)
}

// lockedWriter keeps whole messages from two writers from interleaving.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
