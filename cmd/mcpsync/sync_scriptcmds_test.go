package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

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
