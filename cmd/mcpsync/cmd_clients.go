package main

import (
	"context"
	"fmt"
	"os"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/internal/safefile"
	"github.com/urfave/cli/v3"
)

type clientJSON struct {
	ID           string               `json:"id"`
	Name         string               `json:"name"`
	Origin       formats.Origin       `json:"origin"`
	Capabilities formats.Capabilities `json:"capabilities"`
	Locations    []locationJSON       `json:"locations"`
}

type locationJSON struct {
	formats.Location
	Exists  bool   `json:"exists"`
	Servers *int   `json:"servers,omitempty"`
	Error   string `json:"error,omitempty"`
}

func (a *App) clientsCommand() *cli.Command {
	return &cli.Command{
		Name:        "clients",
		Usage:       "list the clients mcpsync knows and their files",
		UsageText:   "mcpsync clients [--os OS [--home DIR]] [--spec ID]",
		Description: help("clients"),
		Flags: []cli.Flag{
			osFlag(),
			homeFlag(),
			&cli.StringFlag{Name: "spec", Usage: "print the built-in spec of client `ID`"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return usagef("clients takes no arguments (got %q)", cmd.Args().First())
			}
			goos, err := a.targetOS(cmd)
			if err != nil {
				return err
			}
			reg := a.registry()
			if id := cmd.String("spec"); id != "" {
				ad, err := reg.Lookup(id)
				if err != nil {
					return usageError{Err: err}
				}
				src, ok := builtinSpec(ad.ID())
				if !ok {
					return fmt.Errorf("%s has no built-in spec: it is written in Go (a client with quirks a spec cannot describe)", ad.ID())
				}
				return a.printExact(string(src))
			}
			home, err := a.homeOption(cmd)
			if err != nil {
				return err
			}
			list := a.describeClients(reg, a.engine().FormatsEnv(goos, home, nil))
			if a.JSON {
				return a.printJSON(list)
			}
			a.printClients(list)
			return nil
		},
	}
}

// describeClients reads every location of every client (without writing).
func (a *App) describeClients(reg *formats.Registry, env formats.Env) []clientJSON {
	var out []clientJSON
	for _, ad := range reg.All() {
		c := clientJSON{ID: ad.ID(), Name: ad.DisplayName(), Origin: reg.Origin(ad.ID()), Capabilities: ad.Capabilities()}
		for _, loc := range formats.Locate(ad, env) {
			l := locationJSON{Location: loc}
			if env.Exists != nil && !env.Exists(loc.Path) {
				// another machine's paths, only shown
			} else if data, _, err := safefile.ReadFile(loc.Path, loc.Root); err == nil {
				l.Exists = true
				set, ds := ad.Decode(loc, data)
				if errs := ds.WithFile(loc.Path).Errors(); len(errs) > 0 {
					l.Error = errs[0].Error()
				} else {
					n := set.Len()
					l.Servers = &n
				}
			} else if !os.IsNotExist(err) {
				l.Exists = true
				l.Error = err.Error()
			}
			c.Locations = append(c.Locations, l)
		}
		out = append(out, c)
	}
	return out
}

func (a *App) printClients(list []clientJSON) {
	tw := a.newTable()
	fmt.Fprintln(tw, a.paint(false, styleBold, "CLIENT\tNAME\tSCOPE\tFILE\tSTATUS"))
	for _, c := range list {
		name := c.Name
		if !c.Origin.Builtin {
			name += " (plugin " + a.engine().Display(c.Origin.File) + ")"
		}
		for i, l := range c.Locations {
			id, shown := c.ID, name
			if i > 0 {
				id, shown = "", ""
			}
			file := a.engine().Display(l.Path)
			if l.Project != "" && l.Scope == canonical.ScopeLocal {
				project := a.engine().Display(l.Project)
				if l.Project == a.engine().ProjectRoot() {
					project = "this project"
				}
				file += " [" + project + "]"
			}
			status := a.paint(false, styleDim, "missing")
			switch {
			case l.Error != "":
				status = a.paint(false, styleRed, "unreadable: "+l.Error)
			case l.Servers != nil:
				status = fmt.Sprintf("%d server(s)", *l.Servers)
			}
			if l.ReadOnly {
				status += ", read-only"
			}
			if l.Note != "" {
				status += " (" + l.Note + ")"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", id, shown, l.Scope, file, status)
		}
		if len(c.Locations) == 0 {
			fmt.Fprintf(tw, "%s\t%s\t-\t-\tno file on this OS\n", c.ID, name)
		}
	}
	tw.Flush()
}
