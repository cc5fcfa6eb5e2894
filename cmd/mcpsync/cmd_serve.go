package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/render"
	"github.com/mcpsync/mcpsync/serve"
	"github.com/urfave/cli/v3"
)

func (a *App) serveCommand() *cli.Command {
	return &cli.Command{
		Name:        "serve",
		Usage:       "be an MCP server, so that an agent can list, add, probe, export and sync servers for every client",
		UsageText:   "mcpsync serve [--http 127.0.0.1:PORT [--token-file FILE] [--allow-remote]] | mcpsync serve --install [--to CLIENT,…|all]",
		Description: help("serve"),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "http", Usage: "speak streamable HTTP on `HOST:PORT` instead of stdio (loopback only unless --allow-remote)"},
			&cli.StringFlag{Name: "token-file", TakesFile: true, Usage: "with --http: read the bearer token from `FILE` instead of making one up and printing it"},
			&cli.BoolFlag{Name: "allow-remote", Usage: "with --http: listen on an address other machines can reach"},
			&cli.BoolFlag{Name: "install", Usage: "add mcpsync itself to the store as the server \"mcpsync\" and write it into clients' files (--to, default all)"},
			&cli.StringSliceFlag{Name: "to", Usage: "with --install: the clients, `CLIENT`[,CLIENT…] or all"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return usagef("serve takes no arguments (got %q)", cmd.Args().First())
			}
			if cmd.Bool("install") {
				if cmd.String("http") != "" {
					return usagef("--install registers the stdio server; give --http when you run it yourself")
				}
				return a.installSelf(clientList(cmd.StringSlice("to")))
			}
			if cmd.String("http") == "" && (cmd.String("token-file") != "" || cmd.Bool("allow-remote")) {
				return usagef("--token-file and --allow-remote go with --http")
			}
			s := serve.New(serve.Options{Engine: a.newEngine, Version: version})
			if addr := cmd.String("http"); addr != "" {
				return a.serveHTTP(ctx, s, addr, cmd.String("token-file"), cmd.Bool("allow-remote"))
			}
			return a.serveStdio(ctx, s)
		},
	}
}

// serveStdio speaks MCP on stdin and stdout. The protocol goes to the
// stream itself: every result is masked by serve already, and the
// terminal escaping of render.SafeWriter would not be JSON-RPC.
func (a *App) serveStdio(ctx context.Context, s *server.MCPServer) error {
	out := a.Stdout
	if sw, ok := out.(*render.SafeWriter); ok {
		out = sw.W
	}
	stdio := server.NewStdioServer(s)
	stdio.SetErrorLogger(log.New(a.Stderr, "mcpsync serve: ", 0))
	err := stdio.Listen(ctx, a.Stdin, out)
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

func (a *App) serveHTTP(ctx context.Context, s *server.MCPServer, addr, tokenFile string, allowRemote bool) error {
	if err := serve.CheckBind(addr, allowRemote); err != nil {
		return usageError{Err: err}
	}
	token := serve.NewToken()
	if tokenFile != "" {
		data, err := os.ReadFile(filepath.Join(a.Cwd, tokenFile))
		if filepath.IsAbs(tokenFile) {
			data, err = os.ReadFile(tokenFile)
		}
		if err != nil {
			return fmt.Errorf("--token-file: %w", err)
		}
		if token = strings.TrimSpace(string(data)); len(token) < 16 {
			return fmt.Errorf("--token-file %s: the token is shorter than 16 characters; use a long random one", tokenFile)
		}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: serve.HTTPHandler(s, token, allowRemote), ReadHeaderTimeout: 10 * time.Second}
	url := "http://" + ln.Addr().String() + "/mcp"
	// The token goes to the terminal that started serve, never through
	// the masking (it is the one secret the user must see).
	errOut := a.Stderr
	if sw, ok := errOut.(*render.SafeWriter); ok {
		errOut = sw.W
	}
	if tokenFile == "" {
		fmt.Fprintf(errOut, "mcpsync serve: listening on %s\n  token: %s\n  clients send: Authorization: Bearer %s\nCtrl-C stops\n", url, token, token)
	} else {
		fmt.Fprintf(errOut, "mcpsync serve: listening on %s (token from %s); Ctrl-C stops\n", url, tokenFile)
	}
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

// installSelf adds mcpsync itself as the server "mcpsync" (mcpsync serve)
// and writes it into the clients' files.
func (a *App) installSelf(to []string) error {
	if len(to) == 0 {
		to = []string{"all"}
	}
	exe := os.Args[0]
	if !strings.ContainsRune(exe, filepath.Separator) {
		if p, err := exec.LookPath(exe); err == nil {
			exe = p
		}
	}
	if abs, err := filepath.Abs(exe); err == nil {
		exe = abs
	}
	srv := canonical.Server{Name: "mcpsync", Transport: canonical.Stdio, Command: exe, Args: []string{"serve"}}
	return a.storeServers(canonical.ScopeUser, []canonical.Server{srv}, true, false, to)
}

// newEngine is a new engine with this run's environment: serve makes one
// per tool call, so that each reads the files as they are then.
func (a *App) newEngine() *engine.Engine {
	return engine.New(a.engineEnv())
}
