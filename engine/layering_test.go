package engine_test

import (
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// The layers, checked with go list on the packages as built: nothing
// imports the command line, the engine and everything under it stay free
// of CLI libraries (so that serve and a Go program call the same engine),
// and canonical, the model every layer shares, is standard library only.
func TestLayering(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list over the module")
	}
	cmd := exec.Command("go", "list", "-deps=false", "-json", "github.com/mcpsync/mcpsync/...")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	type pkg struct {
		ImportPath string
		Imports    []string
		Deps       []string
		Standard   bool
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 20 {
		t.Fatalf("go list found %d packages; the check would prove nothing", len(pkgs))
	}
	const mod = "github.com/mcpsync/mcpsync/"
	cliLibs := []string{"github.com/urfave/cli", "golang.org/x/term"}
	checked := 0
	for _, p := range pkgs {
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, mod+"cmd/") {
				t.Errorf("%s imports %s: nothing may import the command line", p.ImportPath, imp)
			}
		}
		if strings.HasPrefix(p.ImportPath, mod+"cmd/") {
			continue
		}
		checked++
		for _, dep := range p.Deps {
			for _, lib := range cliLibs {
				if strings.HasPrefix(dep, lib) {
					t.Errorf("%s depends on %s, a command-line library: only cmd/mcpsync may", p.ImportPath, dep)
				}
			}
		}
		if p.ImportPath == mod+"canonical" {
			for _, imp := range p.Imports {
				if strings.Contains(strings.SplitN(imp, "/", 2)[0], ".") {
					t.Errorf("canonical imports %s: it stays standard library only", imp)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no package outside cmd was checked")
	}
}
