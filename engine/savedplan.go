package engine

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/ledger"
)

// A saved plan is an export or a sync planned now and applied later, by
// an MDM job or CI step with no one to answer a prompt: terraform's saved
// plan. It records the options and, for every file the plan writes, the
// hash of the bytes it read and of the bytes it will write; never the
// contents, so it holds no secret. Applying it plans again with the same
// options and refuses, naming the file, when any file changed since the
// plan was made or would now get other bytes (the store or a team source
// changed): what is written is exactly what was reviewed.

// SavedPlanVersion is the version of the plan file's format.
const SavedPlanVersion = 1

// SavedPlan is the plan file (mcpsync plan --out FILE).
type SavedPlan struct {
	Version int       `json:"version"`
	Verb    string    `json:"verb"` // export or sync
	Created time.Time `json:"created"`
	// Export or Sync holds the options the plan was made with.
	Export *SavedExport `json:"export,omitempty"`
	Sync   *SavedSync   `json:"sync,omitempty"`
	Files  []SavedFile  `json:"files"`
	// Diff is the plan's unified diff with secrets masked, for review.
	Diff string `json:"diff"`
}

// SavedExport is the export options a plan keeps.
type SavedExport struct {
	To           []string        `json:"to"`
	Scope        canonical.Scope `json:"scope"`
	GOOS         string          `json:"os,omitempty"`
	Home         string          `json:"home,omitempty"`
	Prune        bool            `json:"prune,omitempty"`
	Force        bool            `json:"force,omitempty"`
	BridgeRemote bool            `json:"bridgeRemote,omitempty"`
	PromptInputs bool            `json:"promptInputs,omitempty"`
	Servers      []string        `json:"servers,omitempty"`
}

// SavedSync is the sync options a plan keeps.
type SavedSync struct {
	Scope canonical.Scope `json:"scope"`
	Only  []string        `json:"only,omitempty"`
}

// SavedFile is one file the plan changes: the hash of what was there
// ("" when it did not exist) and of what the plan writes ("" to delete).
type SavedFile struct {
	Path       string `json:"path"`
	Change     string `json:"change"`
	BeforeHash string `json:"before"`
	AfterHash  string `json:"after"`
}

// StalePlanError says that a saved plan no longer holds: File changed
// since it was made, or would now be written differently.
type StalePlanError struct {
	File, Why string
}

func (e *StalePlanError) Error() string {
	return fmt.Sprintf("the plan is stale: %s %s; nothing was written. Make a new plan (mcpsync plan …) and review it", e.File, e.Why)
}

// PlanExport plans an export to save (a dry run: no lock, nothing written).
func (e *Engine) PlanExport(o ExportOptions) (*ExportRun, *SavedPlan, error) {
	o.DryRun = true
	run, err := e.Export(o)
	if err != nil {
		return nil, nil, err
	}
	sp := &SavedPlan{Verb: "export", Export: &SavedExport{To: o.To, Scope: orUser(o.Scope), GOOS: o.GOOS, Home: o.Home,
		Prune: o.Prune, Force: o.Force, BridgeRemote: o.BridgeRemote, PromptInputs: o.PromptInputs, Servers: o.Servers}}
	e.fillSaved(sp, run.Plan)
	return run, sp, nil
}

// PlanSyncSaved plans a sync to save.
func (e *Engine) PlanSyncSaved(o SyncOptions) (*SyncRun, *SavedPlan, error) {
	o.DryRun = true
	run, err := e.Sync(o)
	if err != nil {
		return nil, nil, err
	}
	scope := o.Scope
	if scope == "" {
		scope = canonical.ScopeUser
	}
	sp := &SavedPlan{Verb: "sync", Sync: &SavedSync{Scope: scope, Only: o.Only}}
	e.fillSaved(sp, run.Result.Plan)
	return run, sp, nil
}

func (e *Engine) fillSaved(sp *SavedPlan, p *emitters.Plan) {
	sp.Version, sp.Created, sp.Files = SavedPlanVersion, time.Now().UTC().Truncate(time.Second), []SavedFile{}
	for _, f := range p.Changes() {
		sp.Files = append(sp.Files, savedFile(f))
	}
	sp.Diff = p.Diff(emitters.DiffOptions{Mask: p.SecretMask(), Base: e.ProjectRoot()}) // masked: the file may be shared
}

func savedFile(f *emitters.FileChange) SavedFile {
	sf := SavedFile{Path: f.Path, Change: string(f.Kind)}
	if f.Before != nil {
		sf.BeforeHash = ledger.HashBytes(f.Before)
	}
	if f.After != nil {
		sf.AfterHash = ledger.HashBytes(f.After)
	}
	return sf
}

// ReadSavedPlan reads a plan file, with a clear error for anything else.
func ReadSavedPlan(path string) (*SavedPlan, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var sp SavedPlan
	if err := json.Unmarshal(data, &sp); err != nil {
		return nil, fmt.Errorf("%s is not an mcpsync plan: %v", path, err)
	}
	switch {
	case sp.Version == 0 || sp.Verb != "export" && sp.Verb != "sync":
		return nil, fmt.Errorf("%s is not an mcpsync plan: it plans no export or sync (make one with 'mcpsync plan … --out FILE')", path)
	case sp.Version != SavedPlanVersion:
		return nil, fmt.Errorf("%s is a plan of version %d; this mcpsync applies version %d plans: make the plan again with this mcpsync",
			path, sp.Version, SavedPlanVersion)
	case sp.Verb == "export" && sp.Export == nil, sp.Verb == "sync" && sp.Sync == nil:
		return nil, fmt.Errorf("%s is not an mcpsync plan: it has no %s options", path, sp.Verb)
	}
	return &sp, nil
}

// AppliedPlan is the outcome of applying a saved plan.
type AppliedPlan struct {
	Result *emitters.Result
	Plan   *emitters.Plan
	Sync   *SyncRun // set for a sync plan (its outcomes)
}

// ApplySaved plans again, under the lock, with the saved options, checks
// that every file is as the plan found it and gets the bytes the plan
// promised, and applies. A stale plan is a *StalePlanError: nothing is
// written.
func (e *Engine) ApplySaved(sp *SavedPlan) (*AppliedPlan, error) {
	var (
		plan  *emitters.Plan
		apply func() (*emitters.Result, error)
		out   = &AppliedPlan{}
	)
	switch sp.Verb {
	case "export":
		x := sp.Export
		run, err := e.Export(ExportOptions{To: x.To, Scope: x.Scope, GOOS: x.GOOS, Home: x.Home, Prune: x.Prune, Force: x.Force,
			BridgeRemote: x.BridgeRemote, PromptInputs: x.PromptInputs, Servers: x.Servers})
		if err != nil {
			return nil, err
		}
		defer run.Close()
		plan, apply = run.Plan, run.Apply
	case "sync":
		run, err := e.Sync(SyncOptions{Scope: sp.Sync.Scope, Only: sp.Sync.Only})
		if err != nil {
			return nil, err
		}
		defer run.Close()
		plan, out.Sync = run.Result.Plan, run
		apply = func() (*emitters.Result, error) { return run.Apply(nil) }
	}
	out.Plan = plan
	if err := problems(plan.Diags, "no file was written"); err != nil {
		return nil, err
	}
	if err := e.checkSaved(sp, plan); err != nil {
		return nil, err
	}
	res, err := apply()
	if err != nil {
		return nil, ApplyError(err)
	}
	out.Result = res
	return out, nil
}

// checkSaved compares the plan made now with the saved one, file by file.
func (e *Engine) checkSaved(sp *SavedPlan, now *emitters.Plan) error {
	saved := map[string]SavedFile{}
	for _, f := range sp.Files {
		saved[f.Path] = f
	}
	current := map[string]SavedFile{}
	for _, f := range now.Changes() {
		current[f.Path] = savedFile(f)
	}
	paths := make([]string, 0, len(saved)+len(current))
	for p := range saved {
		paths = append(paths, p)
	}
	for p := range current {
		if _, ok := saved[p]; !ok {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		s, inSaved := saved[p]
		c, inNow := current[p]
		d := e.Display(p)
		switch {
		case !inNow:
			// Nothing to write now: the file already holds what the plan
			// would write, or it changed.
			if cur := hashOf(p); cur != s.AfterHash {
				return &StalePlanError{File: d, Why: "changed since the plan was made at " + sp.Created.Format(time.RFC3339)}
			}
		case !inSaved:
			return &StalePlanError{File: d, Why: "would be written now but is not in the plan (the store, a team source or the file changed)"}
		case c.BeforeHash != s.BeforeHash:
			return &StalePlanError{File: d, Why: "changed since the plan was made at " + sp.Created.Format(time.RFC3339)}
		case c.AfterHash != s.AfterHash:
			return &StalePlanError{File: d, Why: "would now get other contents than the plan shows (the store or a team source changed)"}
		}
	}
	return nil
}

// hashOf is the hash of a file's bytes, "" when it does not exist.
func hashOf(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return ledger.HashBytes(data)
}

// PlanSummary is one line per file of a saved plan: "created ~/.cursor/mcp.json".
func (e *Engine) PlanSummary(sp *SavedPlan) []string {
	var out []string
	for _, f := range sp.Files {
		out = append(out, strings.TrimSpace(f.Change+" "+e.Display(f.Path)))
	}
	return out
}
