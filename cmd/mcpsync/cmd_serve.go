package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/mark3labs/mcp-go/server"
	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/internal/gctune"
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
			gctune.LongRun() // it answers until it is stopped, reusing its heap
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
	return serve.ServeStdio(ctx, s, a.Stdin, rawStream(a.Stdout), a.Stderr)
}

// rawStream is the stream under render.SafeWriter.
func rawStream(w io.Writer) io.Writer {
	if sw, ok := w.(*render.SafeWriter); ok {
		return sw.W
	}
	return w
}

func (a *App) serveHTTP(ctx context.Context, s *server.MCPServer, addr, tokenFile string, allowRemote bool) error {
	if err := serve.CheckBind(addr, allowRemote); err != nil {
		return usageError{Err: err}
	}
	token := serve.NewToken()
	if tokenFile != "" {
		var err error
		if token, err = serve.ReadToken(a.engine().AbsPath(tokenFile)); err != nil {
			return err
		}
	}
	return serve.ListenAndServe(ctx, s, addr, token, allowRemote, func(url string) {
		// The token goes to the terminal that started serve, never through
		// the masking: it is the one secret the user must see.
		if tokenFile == "" {
			fmt.Fprintf(rawStream(a.Stderr), "mcpsync serve: listening on %s\n  token: %s\n  clients send: Authorization: Bearer %s\nCtrl-C stops\n", url, token, token)
		} else {
			fmt.Fprintf(a.Stderr, "mcpsync serve: listening on %s (token from %s); Ctrl-C stops\n", url, tokenFile)
		}
	})
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
