package main

import "github.com/urfave/cli/v3"

func (a *App) probeCommand() *cli.Command {
	return notYet("probe", "start each server and list its tools")
}
