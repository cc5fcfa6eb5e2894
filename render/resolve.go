package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcpsync/mcpsync/internal/mapkeys"
	"github.com/mcpsync/mcpsync/resolve"
)

// Resolved says what was found and which values it needs.
func Resolved(w io.Writer, res *resolve.Result) {
	fmt.Fprintf(w, "resolved %s via %s (%s)\n", res.Input.String(), res.Step, res.Source)
	fmt.Fprintf(w, "  %s: %s\n", res.Server.Name, resolve.CommandLine(res.Server))
	for _, k := range mapkeys.Sorted(res.Server.Env) {
		fmt.Fprintf(w, "    env %s=%s\n", k, res.Server.Env[k])
	}
	for _, k := range mapkeys.Sorted(res.Server.Headers) {
		fmt.Fprintf(w, "    header %s: %s\n", k, res.Server.Headers[k])
	}
	var optional []string
	for _, in := range res.Inputs {
		if !in.Used {
			optional = append(optional, in.Label)
			continue
		}
		var tags []string
		if in.Required {
			tags = append(tags, "required")
		} else {
			tags = append(tags, "optional")
		}
		if in.Secret {
			tags = append(tags, "secret")
		}
		if in.Provided {
			tags = append(tags, "given")
		}
		line := fmt.Sprintf("  needs ${%s} (%s)", in.Name, strings.Join(tags, ", "))
		if in.Description != "" {
			line += ": " + in.Description
		}
		fmt.Fprintln(w, line)
	}
	if len(optional) > 0 {
		fmt.Fprintf(w, "  optional, not set: %s (pass --input NAME=VALUE to use them)\n", strings.Join(optional, ", "))
	}
	if res.Runner != "remote" {
		for _, c := range res.Candidates {
			if c.Runner == "remote" {
				fmt.Fprintf(w, "  also hosted at %s (add --remote to use it)\n", c.Server.URL)
				break
			}
		}
	}
}

// Explain writes the chain and the candidates of the winning step.
func Explain(w io.Writer, res *resolve.Result, o Paths) {
	Steps(w, res.Input, res.Evidence, o)
	if len(res.Candidates) > 1 {
		fmt.Fprintf(w, "candidates at step %s (%s):\n", res.Step, res.Why)
		idW, cmdW := 0, 0
		for _, c := range res.Candidates {
			idW, cmdW = max(idW, len(c.ID)), max(cmdW, len(resolve.CommandLine(c.Server)))
		}
		for i, c := range res.Candidates {
			mark := " "
			if i == 0 {
				mark = "*"
			}
			line := fmt.Sprintf("  %s %-*s  %-*s  %s", mark, idW, c.ID, cmdW, resolve.CommandLine(c.Server), shortSource(c.Source))
			fmt.Fprintln(w, strings.TrimRight(line, " "))
		}
		fmt.Fprintln(w, "  (--pick chooses another)")
	}
}

// shortSource is a candidate's source as a person finds it in the
// repository: README.md#L16 rather than the whole blob URL.
func shortSource(src string) string {
	if _, rest, ok := strings.Cut(src, "/blob/"); ok {
		if _, p, ok := strings.Cut(rest, "/"); ok {
			return p
		}
	}
	return src
}

func Steps(w io.Writer, in resolve.Input, steps []resolve.Step, o Paths) {
	fmt.Fprintf(w, "resolver chain for %s:\n", in.String())
	for _, s := range steps {
		mark := Style(o.Color).Paint(Dim, "-")
		if s.Found {
			mark = Style(o.Color).Paint(Green, "+")
		}
		line := fmt.Sprintf("  %s %-11s %s", mark, s.Step, s.Detail)
		if s.Source != "" {
			line += Style(o.Color).Paint(Dim, "  ("+s.Source+")")
		}
		fmt.Fprintln(w, line)
	}
}
