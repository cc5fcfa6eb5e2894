package main

import "github.com/urfave/cli/v3"

func (a *App) removeCommand() *cli.Command { return notYet("remove", "remove a server from the store") }
