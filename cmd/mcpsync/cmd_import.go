package main

import "github.com/urfave/cli/v3"

func (a *App) importCommand() *cli.Command {
	return notYet("import", "import servers from a client into the store")
}
