package main

import "github.com/urfave/cli/v3"

func (a *App) convertCommand() *cli.Command {
	return notYet("convert", "convert one client's file to another client's shape")
}
