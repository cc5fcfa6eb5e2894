package main

import "github.com/urfave/cli/v3"

func (a *App) exportCommand() *cli.Command {
	return notYet("export", "write the store's servers into client files")
}
