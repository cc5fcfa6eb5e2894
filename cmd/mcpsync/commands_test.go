package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/internal/cliargs"
	"github.com/urfave/cli/v3"
)

// TestCommandTableNames holds commandTable's names to what each command
// says its names are: a run builds only the command whose name it finds
// there, so a name missing from the table would leave that spelling
// building every command, and a wrong one would run the wrong command.
func TestCommandTableNames(t *testing.T) {
	a := &App{}
	seen := map[string]bool{}
	for _, c := range a.commandTable() {
		built := c.build()
		if got := built.Names(); !slices.Equal(got, c.names) {
			t.Errorf("commandTable has %q for the command whose names are %q", c.names, got)
		}
		for _, n := range c.names {
			if seen[n] {
				t.Errorf("the name %q is in commandTable twice", n)
			}
			seen[n] = true
		}
	}
}

// TestValueFlagsAreTheRootsFlags holds cliargs.ValueFlags to the root
// command's flags that take a value: a global flag's value left out there
// would be taken for the command.
func TestValueFlagsAreTheRootsFlags(t *testing.T) {
	a := &App{}
	var want []string
	for _, f := range a.rootCommand(nil).Flags {
		if _, isBool := f.(*cli.BoolFlag); isBool {
			continue
		}
		for _, n := range f.Names() {
			want = append(want, "-"+n, "--"+n)
		}
	}
	slices.Sort(want)
	got := slices.Sorted(slices.Values(cliargs.ValueFlags))
	if !slices.Equal(got, want) {
		t.Errorf("cliargs.ValueFlags = %q; the root's flags that take a value are %q", got, want)
	}
}

// TestOneCommandRunsAsWithAll runs command lines twice, in-process: as
// mcpsync runs them (only the command they name is built) and with every
// command built, and wants the same output and exit code. The lines cover
// what picks the command: aliases, global flags and their values before
// it, a typo, help, a group and its subcommands, no command at all.
func TestOneCommandRunsAsWithAll(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "s.hcl")
	if err := os.WriteFile(store, []byte("server \"fs\" {\n  command = \"npx\"\n}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	lines := []string{
		"version",
		"--version",
		"list",
		"ls --json",
		"--store " + store + " list",
		"--store=" + store + " ls",
		"-C " + dir + " --store " + store + " show fs",
		"--json --store " + store + " show nope",
		"lst",
		"list --nope",
		"",
		"--json",
		"list --help",
		"help list",
		"source",
		"source lst",
		"policy --help",
		"export --to nope --store " + store,
		"-- list",
		"rm",
		"completion bash",
		"list " + completionFlag,
		"export --to " + completionFlag,
	}
	for _, line := range lines {
		args := strings.Fields(line)
		run := func(commands func([]string) []*cli.Command, a *App) (string, string, int) {
			var stdout, stderr bytes.Buffer
			a.Stdout, a.Stderr = &stdout, &stderr
			code := a.run(context.Background(), args, commands)
			return stdout.String(), stderr.String(), code
		}
		one := newTestApp(dir, nil, nil)
		all := newTestApp(dir, nil, nil)
		out1, err1, code1 := run(one.commandsFor, one)
		outAll, errAll, codeAll := run(func([]string) []*cli.Command { return all.commands() }, all)
		if out1 != outAll || err1 != errAll || code1 != codeAll {
			t.Errorf("mcpsync %s:\nwith one command: exit %d\n%s%s\nwith all: exit %d\n%s%s", line, code1, out1, err1, codeAll, outAll, errAll)
		}
	}
}

// TestCommandsForBuildsOne holds that a run that names a command builds
// that one alone, and that help and completion build all.
func TestCommandsForBuildsOne(t *testing.T) {
	a := &App{}
	total := len(a.commandTable())
	for line, want := range map[string]int{
		"list":                     1,
		"--store x.hcl ls --json":  1,
		"export --to cursor":       1,
		"source add team https://": 1,
		"list --help":              total,
		"help":                     total,
		"":                         total,
		"lst":                      total,
		"export " + completionFlag: total,
	} {
		if got := len(a.commandsFor(strings.Fields(line))); got != want {
			t.Errorf("commandsFor(%q) built %d commands, want %d", line, got, want)
		}
	}
}
