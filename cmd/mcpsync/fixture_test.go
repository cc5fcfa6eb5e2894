package main

import (
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpsync/mcpsync/internal/mcpfixture"
	"github.com/rogpeppe/go-internal/testscript"
)

// The probe scripts run the fixture MCP server (internal/mcpfixture):
//
//	mcp-fixture [flags]            the fixture as a program on PATH, for stdio
//	                               servers in a store (see mcpfixture.ParseArgs)
//	fixture-http VAR [flags]       serve the fixture over HTTP in the background
//	                               for the rest of the script and set $VAR to
//	                               its URL (-transport sse for SSE)
//	closed-port VAR                set $VAR to a local port nothing listens on
//	pids-gone FILE                 every pid listed in FILE has exited
//	subst SRC DST                  copy SRC to DST, replacing @@VAR@@ by $VAR
//	                               (a store can then hold a fixture's URL)
func init() {
	if _, ok := testCommands["mcp-fixture"]; !ok {
		testCommands["mcp-fixture"] = func() { os.Exit(mcpfixture.Main(os.Args[1:])) }
	}
	scriptCmds["fixture-http"] = cmdFixtureHTTP
	scriptCmds["closed-port"] = cmdClosedPort
	scriptCmds["http-status"] = cmdHTTPStatus
	scriptCmds["pids-gone"] = cmdPidsGone
	scriptCmds["subst"] = cmdSubst
}

func cmdSubst(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: subst SRC DST")
	}
	text := ts.ReadFile(args[0])
	var b strings.Builder
	for {
		i := strings.Index(text, "@@")
		if i < 0 {
			break
		}
		j := strings.Index(text[i+2:], "@@")
		if j < 0 {
			break
		}
		b.WriteString(text[:i])
		b.WriteString(ts.Getenv(text[i+2 : i+2+j]))
		text = text[i+2+j+2:]
	}
	b.WriteString(text)
	dst := ts.MkAbs(args[1])
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		ts.Fatalf("subst: %v", err)
	}
	if err := os.WriteFile(dst, []byte(b.String()), 0o644); err != nil {
		ts.Fatalf("subst: %v", err)
	}
}

func cmdFixtureHTTP(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: fixture-http VAR [fixture flags]")
	}
	flags := args[1:]
	if !slices.Contains(flags, "-transport") {
		flags = append([]string{"-transport", "http"}, flags...)
	}
	cfg, err := mcpfixture.ParseArgs(flags, ts.Getenv)
	if err != nil {
		ts.Fatalf("fixture-http: %v", err)
	}
	srv := httptest.NewUnstartedServer(cfg.Handler())
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.Start()
	ts.Defer(srv.Close)
	ts.Setenv(args[0], srv.URL+cfg.Path())
}

func cmdClosedPort(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: closed-port VAR")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		ts.Fatalf("closed-port: %v", err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	ts.Setenv(args[0], port)
}

// cmdPidsGone checks that the processes the fixture recorded are gone: not
// running, or zombies waiting for init to reap them (they hold nothing).
func cmdPidsGone(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: pids-gone FILE")
	}
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	if err != nil {
		ts.Fatalf("pids-gone: %v", err)
	}
	pids := strings.Fields(string(data))
	if len(pids) == 0 {
		ts.Fatalf("pids-gone: %s lists no pid", args[0])
	}
	for _, f := range pids {
		pid, err := strconv.Atoi(f)
		if err != nil {
			ts.Fatalf("pids-gone: %q is not a pid", f)
		}
		if !mcpfixture.WaitGone(pid, 3*time.Second) {
			ts.Fatalf("process %d is still running", pid)
		}
	}
}

// cmdHTTPStatus starts a server that answers every request with one HTTP
// status and counts the requests in the file COUNT_FILE: http-status VAR
// CODE COUNT_FILE sets VAR to its /mcp URL.
func cmdHTTPStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: http-status VAR CODE COUNT_FILE")
	}
	code, err := strconv.Atoi(args[1])
	ts.Check(err)
	countFile := ts.MkAbs(args[2])
	var mu sync.Mutex
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// COUNT_FILE counts the tries at the MCP endpoint; the probe's
		// look for a server card (other paths) is not a retry.
		if r.URL.Path == "/mcp" {
			mu.Lock()
			n++
			os.WriteFile(countFile, []byte(strconv.Itoa(n)+"\n"), 0o644)
			mu.Unlock()
		}
		w.WriteHeader(code)
	}))
	ts.Defer(srv.Close)
	ts.Setenv(args[0], srv.URL+"/mcp")
}
