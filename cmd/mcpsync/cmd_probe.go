package main

import (
	"context"
	"fmt"

	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/render"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/probe"
	"github.com/urfave/cli/v3"
)

func (a *App) probeCommand() *cli.Command {
	return &cli.Command{
		Name:        "probe",
		Usage:       "start each server and list its tools",
		UsageText:   "mcpsync probe [NAME...] [--from CLIENT | --file F] [--strict] [--require-tools NAME=tool1,tool2] [--timeout D] [--parallel N]",
		Description: help("probe"),
		// --require-tools values hold commas of their own.
		DisableSliceFlagSeparator: true,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "from", Usage: "probe the servers in `CLIENT`'s files (see 'mcpsync clients') instead of the store"},
			&cli.StringFlag{Name: "file", Usage: "probe the servers in `FILE` (- for stdin): with --from in that client's shape, else any pasted snippet", TakesFile: true},
			scopeFlag("which store (`user` or project), or with --from which of the client's files (user, project or local)"),
			&cli.DurationFlag{Name: "timeout", Value: probe.DefaultTimeout, Usage: "give each server `D` to start and list its tools (its own startup_timeout wins)"},
			&cli.IntFlag{Name: "parallel", Value: probe.DefaultParallel, Usage: "probe `N` servers at a time"},
			&cli.IntFlag{Name: "retries", Value: 2, Usage: "retry a remote server `N` times after a transient failure (connection refused, 5xx), with backoff"},
			inheritEnvFlag(),
			&cli.BoolFlag{Name: "strict", Usage: "exit 1 when any enabled server is not ready"},
			&cli.StringSliceFlag{Name: "require-tools", Usage: "server NAME must offer the comma-separated `NAME=TOOLS`, else it is degraded (repeatable)"},
			&cli.StringSliceFlag{Name: "transport", Usage: "probe only servers of `T` (stdio, http, sse; repeatable or comma-separated); others are skipped"},
		},
		ShellComplete: a.completeServerNames,
		Action: func(ctx context.Context, cmd *cli.Command) error {
			opts, err := a.probeOptions(cmd)
			if err != nil {
				return err
			}
			return a.runProbe(ctx, cmd, opts)
		},
	}
}

// probeRun is what the probe command was asked to do.
type probeRun struct {
	engine.ProbeOptions
	strict bool
}

func (a *App) probeOptions(cmd *cli.Command) (probeRun, error) {
	scope, err := parseScope(cmd)
	if err != nil {
		return probeRun{}, err
	}
	r := probeRun{ProbeOptions: engine.ProbeOptions{Names: cmd.Args().Slice(), From: cmd.String("from"), File: cmd.String("file"), Scope: scope},
		strict: cmd.Bool("strict")}
	if cmd.Duration("timeout") <= 0 {
		return r, usagef("--timeout must be positive, for example 30s or 2m")
	}
	if cmd.Int("parallel") < 1 {
		return r, usagef("--parallel must be at least 1")
	}
	if cmd.Int("retries") < 0 {
		return r, usagef("--retries must be 0 or more")
	}
	require, err := probe.ParseRequirements(cmd.StringSlice("require-tools"))
	if err != nil {
		return r, usageError{Err: err}
	}
	var transports []canonical.Transport
	for _, t := range clientList(cmd.StringSlice("transport")) {
		tr := canonical.Transport(t)
		if !tr.Valid() {
			return r, usagef("--transport %q: use stdio, http or sse", t)
		}
		transports = append(transports, tr)
	}
	r.Probe = probe.Options{
		InheritEnv:    cmd.Bool("inherit-env"),
		Timeout:       cmd.Duration("timeout"),
		Parallel:      int(cmd.Int("parallel")),
		Retries:       int(cmd.Int("retries")),
		RequireTools:  require,
		Transports:    transports,
		ClientVersion: version,
	}
	return r, nil
}

func (a *App) runProbe(ctx context.Context, cmd *cli.Command, r probeRun) error {
	if r.From != "" {
		a.registry()
	}
	if r.File != "" && r.From == "" {
		data, name, err := a.readInput(r.File, "")
		if err != nil {
			return err
		}
		r.Data, r.DataName = data, name
	}
	stop := a.probeProgress(&r.Probe)
	res, err := a.engine().Probe(ctx, r.ProbeOptions)
	stop()
	if err != nil {
		return err
	}
	a.report(res.Diags, res.Notes)
	rep := res.Report
	if len(res.Servers) == 0 && !a.JSON {
		fmt.Fprintf(a.Stderr, "no servers to probe in %s\n", res.Source)
		return nil
	}
	// Interrupted, the servers finished so far are still reported.
	if a.JSON {
		if err := a.printJSON(rep); err != nil {
			return err
		}
	} else {
		render.ProbeReport(a.Stdout, rep, res.Servers, a.paths())
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if r.strict && !rep.AllReady() {
		bad := rep.Summary.Failed + rep.Summary.Degraded
		return exitCodeError{code: exitError, msg: fmt.Sprintf("strict: %d of %d server%s not ready", bad, rep.Summary.Total-rep.Summary.Skipped, pluralS(rep.Summary.Total-rep.Summary.Skipped))}
	}
	return nil
}

func pluralS(n int) string {
	if n == 1 {
		return " is"
	}
	return "s are"
}

// probeProgress shows a live line on stderr while probes run, only when
// stderr is a terminal (render.Progress).
func (a *App) probeProgress(opts *probe.Options) (stop func()) {
	if !a.stderrTTY {
		return func() {}
	}
	return render.Progress(a.Stderr, a.color(true), opts)
}

// inheritEnvFlag is --inherit-env, for probe and add.
func inheritEnvFlag() cli.Flag {
	return &cli.BoolFlag{Name: "inherit-env",
		Usage: "start stdio servers with your whole environment (by default they get only the variables their config names, plus PATH, HOME, the locale and proxy settings)"}
}
