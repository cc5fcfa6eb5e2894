package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"
)

// notYet is a placeholder for a command whose file is being written. Each
// cmd_<name>.go replaces its stub; this file goes when the last one has.
func notYet(name, usage string) *cli.Command {
	return &cli.Command{
		Name:   name,
		Usage:  usage,
		Hidden: true,
		Action: func(context.Context, *cli.Command) error {
			return fmt.Errorf("%s is not implemented yet", name)
		},
	}
}
