package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	// waitfile FILE REGEXP: wait (up to 10s) until FILE matches REGEXP, for
	// scripts that run watch in the background.
	scriptCmds["waitfile"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: waitfile FILE REGEXP")
		}
		re, err := regexp.Compile(args[1])
		ts.Check(err)
		path := ts.MkAbs(args[0])
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
			if data, err := os.ReadFile(path); err == nil && re.Match(data) {
				return
			}
			if time.Now().After(deadline) {
				data, _ := os.ReadFile(path)
				ts.Fatalf("%s does not match %q after 10s:\n%s", args[0], args[1], data)
			}
		}
	}
}

// scriptConds are testscript conditions beyond the built-in ones, by
// prefix: [name:arg]. Other test files may add theirs.
var scriptConds = map[string]func(arg string) (bool, error){
	// [shared:PATH] holds when $SHARED/PATH exists: the shared reference
	// material lives next to the repository, not in it, and scripts that
	// read it skip without it.
	"shared": func(arg string) (bool, error) {
		shared, err := filepath.Abs("../../../shared")
		if err != nil {
			return false, err
		}
		_, err = os.Stat(filepath.Join(shared, arg))
		return err == nil, nil
	},
}

func scriptCondition(cond string) (bool, error) {
	name, arg, _ := strings.Cut(cond, ":")
	if f, ok := scriptConds[name]; ok {
		return f(arg)
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}
