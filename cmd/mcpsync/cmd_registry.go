package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/registry"
	"github.com/urfave/cli/v3"
)

// registry build|serve: a team's servers as a static MCP registry.
func (a *App) registryCommand() *cli.Command {
	return &cli.Command{
		Name:        "registry",
		Usage:       "publish servers as a static MCP registry (the v0.1 API as plain files), and serve one",
		UsageText:   "mcpsync registry build --namespace com.example --out DIR [--source NAME]\n   mcpsync registry serve DIR [--addr 127.0.0.1:8719]",
		Description: help("registry"),
		Commands: []*cli.Command{
			{
				Name:        "build",
				Usage:       "write the registry's files under --out for any static web host",
				Description: help("registry-build"),
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "namespace", Required: true, Usage: "the reverse-DNS prefix of every server name: `NS` (com.example → com.example/weather)"},
					&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Required: true, Usage: "write the files under `DIR`"},
					&cli.StringFlag{Name: "source", Usage: "publish only team source `NAME`'s approved servers"},
					&cli.StringFlag{Name: "version", Value: "1.0.0", Usage: "every server's `VERSION`"},
				},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					b, err := a.engine().BuildRegistry(engine.RegistryBuildOptions{Source: cmd.String("source"),
						Namespace: cmd.String("namespace"), Version: cmd.String("version")})
					if err != nil {
						return err
					}
					out := cmd.String("out")
					if err := registry.Write(out, b.Files); err != nil {
						return err
					}
					if a.JSON {
						return a.printJSON(map[string]any{"out": out, "published": b.Published, "skipped": b.Skipped})
					}
					for _, n := range b.Published {
						fmt.Fprintf(a.Stdout, "published %s\n", n)
					}
					for _, s := range b.Skipped {
						fmt.Fprintf(a.Stderr, "warning: %s\n", s)
					}
					fmt.Fprintf(a.Stderr, "wrote %s under %s: serve it from any static host (CORS in _headers), or try it with 'mcpsync registry serve %s'\n",
						engine.CountOf(len(b.Published), "server"), out, out)
					return nil
				},
			},
			{
				Name:        "serve",
				Usage:       "serve a built registry over HTTP, with search and paging (for local use and tests)",
				Description: help("registry-serve"),
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "addr", Value: "127.0.0.1:8719", Usage: "listen on `HOST:PORT` (loopback unless --allow-remote)"},
					&cli.BoolFlag{Name: "allow-remote", Usage: "listen on an address other machines reach"},
				},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					if cmd.Args().Len() != 1 {
						return usagef("registry serve takes the directory 'mcpsync registry build' wrote")
					}
					addr := cmd.String("addr")
					if host, _, err := net.SplitHostPort(addr); err != nil {
						return usagef("--addr %q: give HOST:PORT, for example 127.0.0.1:8719", addr)
					} else if ip := net.ParseIP(host); !cmd.Bool("allow-remote") && host != "localhost" && (ip == nil || !ip.IsLoopback()) {
						return usagef("--addr %s is not a loopback address: add --allow-remote to serve other machines", addr)
					}
					h, err := registry.Handler(cmd.Args().First())
					if err != nil {
						if errors.Is(err, os.ErrNotExist) {
							return fmt.Errorf("%s holds no registry (no v0.1/servers/index.json): build one with 'mcpsync registry build'", cmd.Args().First())
						}
						return err
					}
					ln, err := net.Listen("tcp", addr)
					if err != nil {
						return err
					}
					srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
					fmt.Fprintf(a.Stderr, "serving %s at http://%s (use it with MCPSYNC_REGISTRY=http://%s)\n", cmd.Args().First(), ln.Addr(), ln.Addr())
					go func() {
						<-ctx.Done()
						shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
						defer cancel()
						srv.Shutdown(shut) //nolint:errcheck // exiting anyway
					}()
					if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
						return err
					}
					return nil
				},
			},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return usagef("registry what? use 'mcpsync registry build …' or 'mcpsync registry serve DIR'")
		},
	}
}
