package main

import "github.com/urfave/cli/v3"

func (a *App) diffCommand() *cli.Command {
	return notYet("diff", "print the changes export would make")
}
