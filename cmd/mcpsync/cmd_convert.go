package main

import (
	"context"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/urfave/cli/v3"
)

func (a *App) convertCommand() *cli.Command {
	return &cli.Command{
		Name:        "convert",
		Usage:       "convert one client's file to another client's shape",
		UsageText:   "mcpsync convert --from A --to B [FILE|-]",
		Description: help("convert"),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "from", Usage: "the `CLIENT` whose shape FILE has", Required: true},
			&cli.StringFlag{Name: "to", Usage: "the `CLIENT` whose shape to print", Required: true},
			scopeFlag("the `SCOPE` of both shapes when a client differs by scope (user, project or local)"),
			osFlag(),
			&cli.BoolFlag{Name: "bridge-remote", Usage: "write remote servers for stdio-only clients through npx -y mcp-remote"},
			&cli.BoolFlag{Name: "prompt-inputs", Usage: "VS Code: ask for secrets with ${input:…} prompts"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 1 {
				return usagef("convert reads one file (or - for stdin); got %d arguments", cmd.Args().Len())
			}
			scope, err := parseScope(cmd)
			if err != nil {
				return err
			}
			goos, err := a.targetOS(cmd)
			if err != nil {
				return err
			}
			for _, id := range []string{cmd.String("from"), cmd.String("to")} {
				if _, err := a.registry().Lookup(id); err != nil {
					return usageError{Err: err} // before stdin is read
				}
			}
			data, name, err := a.readInput(cmd.Args().First(), "")
			if err != nil {
				return err
			}
			c, err := a.engine().Convert(engine.ConvertOptions{From: cmd.String("from"), To: cmd.String("to"), Scope: scope, GOOS: goos,
				Data: data, Name: name, BridgeRemote: cmd.Bool("bridge-remote"), PromptInputs: cmd.Bool("prompt-inputs")})
			if err != nil {
				return err
			}
			a.printDiagnostics(c.Diags)
			if c.Diags.HasErrors() {
				return reportedError{c.Diags.Err()}
			}
			out := c.Data
			a.showSecrets = true // stdout is the converted file itself: data, not a report
			if a.JSON {
				return a.printJSON(convertJSON{Client: c.Client, Path: c.Path, Format: c.Format, Content: string(out), Warnings: c.Diags.Warnings()})
			}
			// The bytes are the client's own (several clients write no final
			// newline); only on a terminal is one added, so that the prompt
			// does not start on the file's last line. A pipe or a redirect
			// gets the file exactly.
			if a.stdoutTTY && len(out) > 0 && out[len(out)-1] != '\n' {
				out = append(out, '\n')
			}
			return a.printExact(string(out))
		},
	}
}

// convertJSON is convert's --json output: the converted file's bytes and
// where that client keeps such a file.
type convertJSON struct {
	Client   string                `json:"client"`
	Path     string                `json:"path"`
	Format   formats.Format        `json:"format"`
	Content  string                `json:"content"`
	Warnings canonical.Diagnostics `json:"warnings,omitempty"`
}
