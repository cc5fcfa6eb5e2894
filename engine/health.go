package engine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mcpsync/mcpsync/emitters"
)

// Problem is one reason a machine is not in step, for status --strict.
type Problem struct {
	// Kind is drift, missing, pending or pull-failed.
	Kind string `json:"kind"`
	// Path is the managed file (drift, missing); Clients the clients it
	// belongs to; Server the pending server; Source the team source.
	Path    string   `json:"path,omitempty"`
	Display string   `json:"display,omitempty"`
	Clients []string `json:"clients,omitempty"`
	Server  string   `json:"server,omitempty"`
	Source  string   `json:"source,omitempty"`
	Message string   `json:"message"`
}

// Health is a fleet health check: the files mcpsync manages, each in
// step with the store or not, servers waiting for approval, failed pulls.
type Health struct {
	Healthy      bool      `json:"healthy"`
	ManagedFiles int       `json:"managedFiles"`
	Problems     []Problem `json:"problems"`
}

// Health checks what status --strict checks. Drift is what an export of
// the managed clients would change in their managed files: a hand edit of
// an entry mcpsync wrote, or a store change not yet exported.
func (e *Engine) Health(st *Status) (*Health, error) {
	h := &Health{Problems: []Problem{}, ManagedFiles: len(st.ManagedFiles)}
	clientsOf := map[string][]string{}
	var clients []string
	seen := map[string]bool{}
	for _, f := range st.ManagedFiles {
		for _, en := range f.Entries {
			if en.Client != "" && !contains(clientsOf[f.Path], en.Client) {
				clientsOf[f.Path] = append(clientsOf[f.Path], en.Client)
			}
			if en.Client != "" && !seen[en.Client] {
				seen[en.Client] = true
				clients = append(clients, en.Client)
			}
		}
		if !f.Exists {
			h.Problems = append(h.Problems, Problem{Kind: "missing", Path: f.Path, Display: f.Display, Clients: clientsOf[f.Path],
				Message: fmt.Sprintf("%s (%s) is gone; run 'mcpsync export --to %s'", f.Display, strings.Join(clientsOf[f.Path], ", "), strings.Join(clientsOf[f.Path], ","))})
		}
	}
	if len(clients) > 0 {
		sort.Strings(clients)
		run, err := e.Export(ExportOptions{To: clients, DryRun: true})
		if err != nil {
			return nil, err
		}
		for _, f := range run.Plan.Files {
			cs, managed := clientsOf[f.Path]
			if !managed || f.Before == nil || !f.Changed() && !editedByHand(f) {
				continue // not a file mcpsync wrote, a missing one (above), or in step
			}
			d := e.Display(f.Path)
			h.Problems = append(h.Problems, Problem{Kind: "drift", Path: f.Path, Display: d, Clients: cs,
				Message: fmt.Sprintf("%s (%s) differs from the store; run 'mcpsync sync' or 'mcpsync export --to %s'", d, strings.Join(cs, ", "), strings.Join(cs, ","))})
		}
	}
	for _, src := range st.Sources {
		if src.LastError != nil {
			h.Problems = append(h.Problems, Problem{Kind: "pull-failed", Source: src.Name,
				Message: fmt.Sprintf("source %s: %s", src.Name, src.LastError.Message)})
		}
		for _, s := range src.Servers {
			if s.Pending() {
				h.Problems = append(h.Problems, Problem{Kind: "pending", Server: s.Qualified, Source: src.Name,
					Message: fmt.Sprintf("%s waits for approval; review with 'mcpsync status', then 'mcpsync approve %s'", s.Qualified, s.Qualified)})
			}
		}
	}
	h.Healthy = len(h.Problems) == 0
	return h, nil
}

// editedByHand reports a file where an entry mcpsync wrote was changed
// since: the export leaves it alone, so the file does not change, but it
// is not what the store says.
func editedByHand(f *emitters.FileChange) bool {
	for _, t := range f.Targets {
		for _, en := range t.Entries {
			if en.Action == emitters.Skip && en.Reason == emitters.ReasonEditedByHand {
				return true
			}
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
