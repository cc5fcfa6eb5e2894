package main

import (
	"fmt"
	"strings"

	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/internal/secrets"
)

// printExports prints the export line of each moved variable. masked
// hides the values (a dry run); otherwise they are printed on stdout, the
// only place mcpsync ever prints them.
func (a *App) printExports(ex engine.ImportSecrets, masked bool) {
	var vars []string
	values := map[string]string{}
	for _, m := range ex.Moved() {
		if _, seen := values[m.Var]; !seen {
			vars = append(vars, m.Var)
			values[m.Var] = m.Value
		}
	}
	var names []string
	for _, f := range ex.Files() {
		names = append(names, a.engine().Display(f))
	}
	verb := "moved"
	if masked {
		verb = "would move"
	}
	fmt.Fprintf(a.Stderr, "%s %d secret(s) out of %s; set them where your clients start (your shell profile, a secret manager):\n",
		verb, len(vars), strings.Join(names, ", "))
	for _, v := range vars {
		note := ""
		if cur, ok := a.LookupEnv(v); ok {
			if cur == values[v] {
				note = "  # already set here"
			} else {
				note = "  # set here to another value, which clients will get"
			}
		}
		if masked {
			fmt.Fprintf(a.Stdout, "export %s=%s%s\n", v, secrets.Mask(values[v]), note)
			continue
		}
		a.showSecrets = true // this line, and only it, carries the value
		fmt.Fprintf(a.Stdout, "export %s=%s%s\n", v, engine.ShellQuote(values[v]), note)
		a.showSecrets = false
	}
}
