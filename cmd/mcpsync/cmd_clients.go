package main

import "github.com/urfave/cli/v3"

func (a *App) clientsCommand() *cli.Command {
	return notYet("clients", "list the clients mcpsync knows and their files")
}
