package main

import "github.com/urfave/cli/v3"

func (a *App) addCommand() *cli.Command { return notYet("add", "add a server to the store") }
