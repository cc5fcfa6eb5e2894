package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	// lstree DIR FILE [SKIP...]: write to FILE every path under DIR,
	// relative and sorted, directories with a trailing slash, leaving out
	// the paths under each SKIP (relative to DIR). Scripts compare two
	// listings with cmp to prove that no file or directory was left behind.
	scriptCmds["lstree"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) < 2 {
			ts.Fatalf("usage: lstree DIR FILE [SKIP...]")
		}
		root := ts.MkAbs(args[0])
		skip := args[2:]
		var paths []string
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			rel = filepath.ToSlash(rel)
			if rel == "." {
				return nil
			}
			for _, s := range skip {
				if rel == s || strings.HasPrefix(rel, s+"/") {
					if d.IsDir() {
						return filepath.SkipDir
					}
					return nil
				}
			}
			if d.IsDir() {
				rel += "/"
			}
			paths = append(paths, rel)
			return nil
		})
		ts.Check(err)
		sort.Strings(paths)
		ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(strings.Join(paths, "\n")+"\n"), 0o644))
	}
}
