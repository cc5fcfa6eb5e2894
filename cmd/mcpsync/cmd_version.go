package main

import (
	"context"
	"fmt"
	"runtime"

	"github.com/urfave/cli/v3"
)

func (a *App) versionCommand() *cli.Command {
	return &cli.Command{
		Name:        "version",
		Usage:       "print the mcpsync version",
		Description: help("version"),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if a.JSON {
				return a.printJSON(map[string]string{"version": version, "go": runtime.Version(), "os": runtime.GOOS, "arch": runtime.GOARCH})
			}
			fmt.Fprintf(a.Stdout, "mcpsync %s (%s, %s/%s)\n", version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return nil
		},
	}
}
