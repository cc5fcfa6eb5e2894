package main

import "github.com/urfave/cli/v3"

func (a *App) showCommand() *cli.Command { return notYet("show", "show one server") }
