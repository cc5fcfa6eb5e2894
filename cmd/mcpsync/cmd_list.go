package main

import "github.com/urfave/cli/v3"

func (a *App) listCommand() *cli.Command { return notYet("list", "list the servers in the store") }
