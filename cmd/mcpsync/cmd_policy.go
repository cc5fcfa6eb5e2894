package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/policy"
	"github.com/urfave/cli/v3"
)

// policy render|check: the vendors' administrator layers from one list.
func (a *App) policyCommand() *cli.Command {
	common := func() []cli.Flag {
		return []cli.Flag{
			&cli.StringFlag{Name: "source", Usage: "list only team source `NAME`'s approved servers (default: the store's and every source's approved ones)"},
			&cli.StringFlag{Name: "mode", Value: "exclusive", Usage: "`exclusive`: only the listed servers exist (Claude Code's managed-mcp.json); allowlist: users add listed servers themselves"},
			&cli.StringSliceFlag{Name: "vendor", Usage: "only these clients' policies: `CLIENT`[,CLIENT…] of " + strings.Join(policy.Vendors, ", ")},
			&cli.StringFlag{Name: "root", Usage: "read this machine's installed policies under `DIR` instead of / (an image, a test)"},
		}
	}
	return &cli.Command{
		Name:        "policy",
		Usage:       "render each client's administrator policy from one list of servers, and check a machine against it",
		UsageText:   "mcpsync policy render --out DIR [--source NAME] [--mode exclusive|allowlist] [--dry-run]\n   mcpsync policy check [--source NAME] [--installed]",
		Description: help("policy"),
		Commands: []*cli.Command{
			{
				Name:        "render",
				Usage:       "write every vendor's policy file, laid out by OS under --out for an MDM or file drop",
				Description: help("policy-render"),
				Flags: append(common(),
					&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "write the files under `DIR`/OS/…"},
					&cli.StringSliceFlag{Name: "os", Usage: "only these machines: `OS`[,OS…] of linux, darwin, windows (default: all)"},
					&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "print the diff from the policies installed here (this machine's OS) and write nothing"},
				),
				Action: func(ctx context.Context, cmd *cli.Command) error {
					o, err := a.policyOptions(cmd)
					if err != nil {
						return err
					}
					out, dry := cmd.String("out"), cmd.Bool("dry-run")
					if out == "" && !dry {
						return usagef("policy render needs --out DIR (or --dry-run to compare with what is installed here)")
					}
					if dry {
						out = ""
					}
					files, err := a.engine().RenderPolicy(o, out)
					if err != nil {
						return err
					}
					if dry {
						return a.printPolicyDryRun(files)
					}
					if err := a.engine().WritePolicy(files, out); err != nil {
						return err
					}
					if a.JSON {
						return a.printJSON(map[string]any{"out": out, "files": files})
					}
					for _, f := range files {
						fmt.Fprintf(a.Stdout, "%-9s %s  (%s on %s: %s)\n", f.Change, f.Layout, f.Vendor, f.OS, f.Path)
					}
					return nil
				},
			},
			{
				Name:        "check",
				Usage:       "say which of this machine's servers each client's policy would block",
				Description: help("policy-check"),
				Flags: append(common(),
					&cli.BoolFlag{Name: "installed", Usage: "check against the policies installed on this machine instead of the rendered ones"},
				),
				Action: func(ctx context.Context, cmd *cli.Command) error {
					o, err := a.policyOptions(cmd)
					if err != nil {
						return err
					}
					e := a.engine()
					var set policy.Set
					what := "the rendered policy"
					if cmd.Bool("installed") {
						var read []string
						if set, read, err = e.InstalledPolicy(o.Root); err != nil {
							return err
						}
						what = "the installed policy (" + strings.Join(read, ", ") + ")"
						if len(read) == 0 {
							what = "no installed policy"
						}
					} else {
						o.OSes = []string{e.GOOS}
						files, err := e.RenderPolicy(o, "")
						if err != nil {
							return err
						}
						if set, err = e.RenderedPolicy(files); err != nil {
							return err
						}
					}
					verdicts, err := e.PolicyVerdicts(set, o.Vendors)
					if err != nil {
						return err
					}
					blocked := slices.ContainsFunc(verdicts, func(v policy.Verdict) bool { return !v.Allowed })
					if a.JSON {
						if err := a.printJSON(map[string]any{"policy": what, "verdicts": verdicts, "blocked": blocked}); err != nil {
							return err
						}
					} else {
						fmt.Fprintf(a.Stdout, "checked against %s:\n", what)
						if len(verdicts) == 0 {
							fmt.Fprintln(a.Stdout, "  no server in the files of "+strings.Join(policy.Vendors, ", ")+" here")
						}
						for _, v := range verdicts {
							mark := "allowed"
							if !v.Allowed {
								mark = "BLOCKED"
							}
							line := fmt.Sprintf("  %-12s %-24s %s", v.Vendor, v.Server, mark)
							if v.Reason != "" {
								line += ": " + v.Reason
							}
							fmt.Fprintln(a.Stdout, line)
						}
					}
					if blocked {
						return exitCodeError{code: exitPending}
					}
					return nil
				},
			},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return usagef("policy what? use 'mcpsync policy render …' or 'mcpsync policy check …'")
		},
	}
}

func (a *App) policyOptions(cmd *cli.Command) (engine.PolicyOptions, error) {
	o := engine.PolicyOptions{Source: cmd.String("source"), Mode: policy.Mode(cmd.String("mode")), Root: cmd.String("root"),
		Vendors: clientList(cmd.StringSlice("vendor"))}
	if o.Mode != policy.Exclusive && o.Mode != policy.Allowlist {
		return o, usagef("--mode %q: use exclusive or allowlist", o.Mode)
	}
	for _, v := range o.Vendors {
		if !slices.Contains(policy.Vendors, v) {
			return o, usagef("--vendor %q: policies are rendered for %s", v, strings.Join(policy.Vendors, ", "))
		}
	}
	if cmd.IsSet("os") {
		for _, s := range clientList(cmd.StringSlice("os")) {
			if !slices.Contains(policy.OSes, s) {
				return o, usagef("--os %q: use linux, darwin or windows", s)
			}
			o.OSes = append(o.OSes, s)
		}
	}
	return o, nil
}

func (a *App) printPolicyDryRun(files []engine.PolicyFile) error {
	if a.JSON {
		return a.printJSON(map[string]any{"dryRun": true, "files": files})
	}
	changed := 0
	for _, f := range files {
		if f.Installed == "" {
			continue
		}
		if f.Change != "unchanged" {
			changed++
		}
		if err := a.printExact(f.Diff); err != nil {
			return err
		}
	}
	fmt.Fprintf(a.Stderr, "dry run: %d of this machine's policy files would change; nothing was written\n", changed)
	return nil
}
