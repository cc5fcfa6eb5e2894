package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/mcpsync/mcpsync/internal/gctune"
)

// testCommands are the programs testscript scripts may exec. Other test
// files add theirs (for example an MCP fixture server) in init functions.
var testCommands = map[string]func(){
	"mcpsync": func() { gctune.Apply(os.LookupEnv); os.Exit(Main(os.Args[1:])) }, // as main runs it
}

func TestMain(m *testing.M) {
	testscript.Main(m, testCommands)
}

// testSetups run for every script after the sandbox is built; other test
// files append to it (for example to start a fake GitHub).
var testSetups []func(env *testscript.Env) error

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") != "",
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, "home")
			env.Setenv("HOME", home)
			env.Setenv("USERPROFILE", home)
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
			env.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
			env.Setenv("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
			env.Setenv("APPDATA", filepath.Join(home, "AppData", "Roaming"))
			env.Setenv("CODEX_HOME", "")
			env.Setenv("COPILOT_HOME", "")
			env.Setenv("MCPSYNC_STORE", "")
			env.Setenv("NO_COLOR", "")
			if shared, err := filepath.Abs("../../../shared"); err == nil {
				env.Setenv("SHARED", shared)
			}
			for _, f := range testSetups {
				if err := f(env); err != nil {
					return err
				}
			}
			return nil
		},
		Cmds:      scriptCmds,
		Condition: scriptCondition,
	})
}

// scriptCmds are custom testscript commands; other test files add to it.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){}
