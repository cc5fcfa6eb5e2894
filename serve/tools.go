package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/internal/secrets"
	"github.com/mcpsync/mcpsync/paste"
	"github.com/mcpsync/mcpsync/probe"
	"github.com/mcpsync/mcpsync/render"
	"github.com/mcpsync/mcpsync/resolve"
	"github.com/mcpsync/mcpsync/store"
)

// The arguments of each tool. A field without omitempty is required.

type scopeArgs struct {
	Scope string `json:"scope,omitempty" jsonschema:"which store: user (the default) or project (mcpsync.hcl at the repository root)"`
}

type showArgs struct {
	Name  string `json:"name" jsonschema:"the server's name"`
	Scope string `json:"scope,omitempty" jsonschema:"user (the default) or project"`
}

type addArgs struct {
	Config  any      `json:"config,omitempty" jsonschema:"a pasted configuration in any client's shape: a JSON object (mcpServers or servers or mcp or context_servers) or the text of a JSON or TOML or YAML file"`
	Name    string   `json:"name,omitempty" jsonschema:"the server's name: needed with command or url; renames a single pasted server"`
	Command []string `json:"command,omitempty" jsonschema:"a command line that starts the server: the program and its arguments"`
	URL     string   `json:"url,omitempty" jsonschema:"a remote server's URL (streamable HTTP unless transport is sse)"`
	Env     []string `json:"env,omitempty" jsonschema:"environment variables for the command as NAME=value; write secrets as references such as NAME=${NAME}"`
	Headers []string `json:"headers,omitempty" jsonschema:"HTTP headers for the url as 'Name: value'; write secrets as references"`
	// Transport is http or sse, for url.
	Transport string   `json:"transport,omitempty" jsonschema:"http or sse (for url)"`
	Resolve   string   `json:"resolve,omitempty" jsonschema:"where the server is published: a GitHub URL or owner/repo or a registry name or a package (npm: pypi: oci:); mcpsync reads its server.json or README"`
	Pick      string   `json:"pick,omitempty" jsonschema:"with resolve: which of several servers or ways to run one"`
	Remote    bool     `json:"remote,omitempty" jsonschema:"with resolve: prefer the hosted endpoint"`
	To        []string `json:"to,omitempty" jsonschema:"also write the server into these clients' files (client ids or all)"`
	Force     bool     `json:"force,omitempty" jsonschema:"replace a server of the same name"`
	Scope     string   `json:"scope,omitempty" jsonschema:"user (the default) or project"`
	PlanID    string   `json:"plan_id,omitempty" jsonschema:"the plan_id a call without it returned: add only if the plan is still the same"`
}

type probeArgs struct {
	Names        []string `json:"names,omitempty" jsonschema:"the servers to probe (default: every enabled server)"`
	Strict       bool     `json:"strict,omitempty" jsonschema:"report ok false when any server is not ready"`
	RequireTools []string `json:"require_tools,omitempty" jsonschema:"for each: a server name then = then its tools separated by commas (github=create_issue,search_code): the server must offer these tools"`
	Scope        string   `json:"scope,omitempty" jsonschema:"user (the default) or project"`
	PlanID       string   `json:"plan_id,omitempty" jsonschema:"the plan_id a call without it returned: start the servers only if they are still the same"`
}

type exportArgs struct {
	Clients []string `json:"clients,omitempty" jsonschema:"client ids or all (the default: every client installed here)"`
	Servers []string `json:"servers,omitempty" jsonschema:"only these servers of the store"`
	Scope   string   `json:"scope,omitempty" jsonschema:"user (the default) or project or local"`
	Prune   bool     `json:"prune,omitempty" jsonschema:"also remove entries mcpsync wrote that the store no longer has"`
	Force   bool     `json:"force,omitempty" jsonschema:"replace entries mcpsync did not write"`
	PlanID  string   `json:"plan_id,omitempty" jsonschema:"(export only) the plan_id diff returned: write only if the plan is still the same"`
}

type syncArgs struct {
	Only   []string `json:"only,omitempty" jsonschema:"the clients taking part (default: every client whose file exists)"`
	Scope  string   `json:"scope,omitempty" jsonschema:"user (the default) or project"`
	PlanID string   `json:"plan_id,omitempty" jsonschema:"the plan_id a call without it returned: write only if the plan is still the same"`
}

type doctorArgs struct {
	Clients []string `json:"clients,omitempty" jsonschema:"only these clients"`
}

type restoreArgs struct {
	Files  []string `json:"files,omitempty" jsonschema:"absolute paths of the files to restore (or list)"`
	All    bool     `json:"all,omitempty" jsonschema:"restore every file the chosen write changed"`
	At     string   `json:"at,omitempty" jsonschema:"a backup id or a time or a duration ago such as 2h (default: before the last write)"`
	List   bool     `json:"list,omitempty" jsonschema:"list the backups instead of restoring"`
	PlanID string   `json:"plan_id,omitempty" jsonschema:"the plan_id a call without it returned: restore only if the plan is still the same"`
}

func (h *handlers) addTools(s *server.MCPServer) {
	ro := mcp.WithReadOnlyHintAnnotation(true)
	s.AddTool(mcp.NewTool("list_servers", mcp.WithDescription("List the servers in mcpsync's store, with the clients each goes to."),
		mcp.WithInputSchema[scopeArgs](), ro), tool(h.listServers))
	s.AddTool(mcp.NewTool("show_server", mcp.WithDescription("Show one server of the store: its whole definition (secrets masked)."),
		mcp.WithInputSchema[showArgs](), ro), tool(h.showServer))
	s.AddTool(mcp.NewTool("list_clients", mcp.WithDescription("List the AI clients mcpsync knows, whether each is installed here, its files and how many servers each holds."),
		mcp.WithInputSchema[struct{}](), ro), tool(h.listClients))
	s.AddTool(mcp.NewTool("add_server", mcp.WithDescription("Add a server to the store (and with to, to clients' files): "+
		"from a pasted config, a command line, a URL, or where it is published (resolve). Two steps: without plan_id it returns the store diff and a plan_id."),
		mcp.WithInputSchema[addArgs](), mcp.WithDestructiveHintAnnotation(false)), tool(h.addServer))
	s.AddTool(mcp.NewTool("probe", mcp.WithDescription("Start servers of the store and list their tools, to prove they work. "+
		"Two steps: without plan_id it returns the command lines that would start and a plan_id."),
		mcp.WithInputSchema[probeArgs]()), tool(h.probe))
	s.AddTool(mcp.NewTool("diff", mcp.WithDescription("What export would change in each client's file, as a unified diff, with the plan_id export takes."),
		mcp.WithInputSchema[exportArgs](), ro), tool(h.diff))
	s.AddTool(mcp.NewTool("export", mcp.WithDescription("Write the store's servers into clients' files. Writes only with the plan_id of a diff (or of an earlier export call) whose plan is unchanged; otherwise returns the new diff."),
		mcp.WithInputSchema[exportArgs]()), tool(h.export))
	s.AddTool(mcp.NewTool("sync_status", mcp.WithDescription("The store, its team sources, the servers pending approval, and which client files mcpsync manages."),
		mcp.WithInputSchema[struct{}](), ro), tool(h.syncStatus))
	s.AddTool(mcp.NewTool("sync", mcp.WithDescription("Two-way sync of the store and the clients' files (an edit in any of them goes everywhere). Two steps: without plan_id it returns the plan."),
		mcp.WithInputSchema[syncArgs]()), tool(h.sync))
	s.AddTool(mcp.NewTool("doctor", mcp.WithDescription("Check every client's MCP files for problems: shapes a client rejects, servers that cannot start, shadowed entries, secrets in shared files."),
		mcp.WithInputSchema[doctorArgs](), ro), tool(h.doctor))
	s.AddTool(mcp.NewTool("restore", mcp.WithDescription("List mcpsync's backups, or bring files back from them. Two steps: without plan_id it returns the diff."),
		mcp.WithInputSchema[restoreArgs]()), tool(h.restore))
}

func scopeOf(s string) canonical.Scope {
	if s == "" {
		return canonical.ScopeUser
	}
	return canonical.Scope(s)
}

func checkStoreScope(s string) error {
	switch s {
	case "", string(canonical.ScopeUser), string(canonical.ScopeProject):
		return nil
	}
	return fmt.Errorf("scope %q: use user or project", s)
}

func (h *handlers) listServers(_ context.Context, a scopeArgs) (any, error) {
	if err := checkStoreScope(a.Scope); err != nil {
		return nil, err
	}
	l, err := h.engine().List(scopeOf(a.Scope))
	if err != nil {
		return nil, err
	}
	out := render.ListOf(l)
	out.Notes, out.Warnings = l.Notes, l.Diags
	return out, nil
}

func (h *handlers) showServer(_ context.Context, a showArgs) (any, error) {
	if err := checkStoreScope(a.Scope); err != nil {
		return nil, err
	}
	e := h.engine()
	l, err := e.List(scopeOf(a.Scope))
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(l.Servers, func(ls engine.ListedServer) bool { return ls.Name == a.Name })
	if i < 0 {
		names := make([]string, len(l.Servers))
		for i, ls := range l.Servers {
			names[i] = ls.Name
		}
		msg := fmt.Sprintf("server %q is not in %s", a.Name, e.StoreDisplay(l.Store.Path))
		if s := store.Suggest(a.Name, names); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		return nil, fmt.Errorf("%s; list_servers lists them", msg)
	}
	ls := l.Servers[i]
	ls.Server = secrets.MaskServer(ls.Server)
	return ls, nil
}

func (h *handlers) listClients(context.Context, struct{}) (any, error) {
	e := h.engine()
	return map[string]any{"clients": e.Clients("", "")}, nil
}

func (h *handlers) syncStatus(context.Context, struct{}) (any, error) {
	_, out, err := h.engine().Status()
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (h *handlers) doctor(_ context.Context, a doctorArgs) (any, error) {
	res, err := h.engine().Doctor(engine.DoctorOptions{Clients: a.Clients})
	if err != nil {
		return nil, err
	}
	return render.Doctor(res, false), nil
}

// exportOptions are the engine's options for diff and export.
func exportOptions(a exportArgs, dryRun bool) engine.ExportOptions {
	to := a.Clients
	if len(to) == 0 {
		to = []string{"all"}
	}
	return engine.ExportOptions{To: to, Servers: a.Servers, Scope: scopeOf(a.Scope), Prune: a.Prune, Force: a.Force, DryRun: dryRun}
}

// planExport plans an export and returns its --json shape (with the
// masked diff), the run, and the plan's id.
func (h *handlers) planExport(e *engine.Engine, a exportArgs, dryRun bool) (render.PlanJSON, *engine.ExportRun, string, error) {
	run, err := e.Export(exportOptions(a, dryRun))
	if err != nil {
		return render.PlanJSON{}, nil, "", err
	}
	p := run.Plan
	diff := emitters.DiffOptions{Base: e.ProjectRoot(), Mask: p.SecretMask()}
	out := render.Export(run, true, paths(e), &diff)
	a.PlanID = ""
	id := planID("export", a, p.Fingerprint()+skippedText(run.Skipped))
	if len(run.Diags) > 0 && out.Warnings == nil {
		out.Warnings = run.Diags
	}
	return out, run, id, nil
}

func skippedText(skipped []engine.Skip) string {
	var b strings.Builder
	for _, s := range skipped {
		fmt.Fprintf(&b, "%v\n", s)
	}
	return b.String()
}

// exportPlan is diff's and export's result before anything is written.
type exportPlan struct {
	render.PlanJSON
	PlanID string `json:"plan_id"`
}

func (h *handlers) diff(_ context.Context, a exportArgs) (any, error) {
	out, run, id, err := h.planExport(h.engine(), a, true)
	if err != nil {
		return nil, err
	}
	run.Close()
	return exportPlan{PlanJSON: out, PlanID: id}, nil
}

func (h *handlers) export(_ context.Context, a exportArgs) (any, error) {
	e := h.engine()
	given := a.PlanID
	out, run, id, err := h.planExport(e, a, false)
	if err != nil {
		return nil, err
	}
	defer run.Close()
	if p := confirm(given, id, out, "write these files"); p != nil {
		return p, nil
	}
	if err := run.Plan.Err(); err != nil {
		return nil, &engine.ProblemsError{Diags: run.Plan.Diags.Errors(), Msg: "no file was written"}
	}
	res, err := run.Apply()
	if err != nil {
		return nil, err
	}
	written := render.Export(run, false, paths(e), nil)
	written.Result = res
	return map[string]any{"done": true, "plan_id": id, "export": written, "restart": engine.RestartNote(run.Plan)}, nil
}

func (h *handlers) sync(_ context.Context, a syncArgs) (any, error) {
	if err := checkStoreScope(a.Scope); err != nil {
		return nil, err
	}
	e := h.engine()
	given := a.PlanID
	a.PlanID = ""
	run, err := e.Sync(engine.SyncOptions{Scope: scopeOf(a.Scope), Only: a.Only})
	if err != nil {
		return nil, err
	}
	defer run.Close()
	p := run.Result.Plan
	diff := emitters.DiffOptions{Base: e.ProjectRoot(), Mask: p.SecretMask()}
	plan := render.Sync(run, true, nil, paths(e), &diff)
	id := planID("sync", a, p.Fingerprint()+fmt.Sprint(run.Result.Outcomes, run.Result.Conflicts))
	if c := confirm(given, id, plan, "sync"); c != nil {
		return c, nil
	}
	res, err := run.Apply(nil)
	if err != nil {
		return nil, err
	}
	return map[string]any{"done": true, "plan_id": id, "sync": render.Sync(run, false, res, paths(e), nil)}, nil
}

// probePlan is what probe would start.
type probePlan struct {
	Servers []probeTarget `json:"servers"`
}

type probeTarget struct {
	Name      string              `json:"name"`
	Transport canonical.Transport `json:"transport"`
	// Runs is the command line (stdio) or the URL it connects to.
	Runs string `json:"runs"`
}

func (h *handlers) probe(ctx context.Context, a probeArgs) (any, error) {
	if err := checkStoreScope(a.Scope); err != nil {
		return nil, err
	}
	e := h.engine()
	given := a.PlanID
	a.PlanID = ""
	require, err := probe.ParseRequirements(a.RequireTools)
	if err != nil {
		return nil, err
	}
	l, err := e.List(scopeOf(a.Scope))
	if err != nil {
		return nil, err
	}
	var plan probePlan
	for _, ls := range l.Servers {
		if len(a.Names) > 0 && !slices.Contains(a.Names, ls.Name) || len(a.Names) == 0 && ls.Disabled {
			continue
		}
		srv := secrets.MaskServer(ls.Server)
		runs := srv.URL
		if srv.Transport == canonical.Stdio {
			runs = resolve.CommandLine(srv)
		}
		plan.Servers = append(plan.Servers, probeTarget{Name: ls.Name, Transport: ls.Transport, Runs: runs})
	}
	for _, n := range a.Names {
		if !slices.ContainsFunc(plan.Servers, func(t probeTarget) bool { return t.Name == n }) {
			return nil, fmt.Errorf("server %q is not in %s; list_servers lists them", n, e.StoreDisplay(l.Store.Path))
		}
	}
	// The fingerprint is every definition in full: a changed secret or
	// argument is a new plan, though it shows masked.
	var fp strings.Builder
	for _, t := range plan.Servers {
		srv, _ := l.Store.Servers.Get(t.Name)
		fmt.Fprintf(&fp, "%#v\n", srv)
	}
	id := planID("probe", a, fp.String())
	if c := confirm(given, id, plan, "start these servers"); c != nil {
		return c, nil
	}
	res, err := e.Probe(ctx, engine.ProbeOptions{Names: a.Names, Scope: scopeOf(a.Scope), Probe: probe.Options{RequireTools: require}})
	if err != nil {
		return nil, err
	}
	rep := res.Report
	return map[string]any{"done": true, "plan_id": id, "ok": !a.Strict || rep.AllReady(), "report": rep}, nil
}

func (h *handlers) restore(_ context.Context, a restoreArgs) (any, error) {
	e := h.engine()
	if a.List {
		files, err := e.Backups(a.Files)
		if err != nil {
			return nil, err
		}
		return map[string]any{"backupDir": e.BackupDir(), "files": files}, nil
	}
	given := a.PlanID
	a.PlanID = ""
	run, err := e.Restore(engine.RestoreOptions{Paths: a.Files, All: a.All, At: a.At})
	if err != nil {
		return nil, err
	}
	defer run.Close()
	p := run.Plan
	diff := emitters.DiffOptions{Base: e.ProjectRoot(), Mask: emitters.MaskSecrets}
	plan := render.Restore(p, true, nil, paths(e), diff)
	id := planID("restore", a, p.Fingerprint())
	if c := confirm(given, id, plan, "restore these files"); c != nil {
		return c, nil
	}
	if err := p.Err(); err != nil {
		return nil, &engine.ProblemsError{Diags: p.Diags.Errors(), Msg: "no file was restored"}
	}
	res, err := run.Apply()
	if err != nil {
		return nil, err
	}
	return map[string]any{"done": true, "plan_id": id, "restore": render.Restore(p, false, res, paths(e), diff)}, nil
}

// addPlan is add_server's plan: the servers, the store diff, and with to
// the clients' diffs.
type addPlan struct {
	Servers  []canonical.Server    `json:"servers"`
	Outcomes []engine.AddOutcome   `json:"outcomes"`
	Diff     string                `json:"diff"`
	Export   *render.PlanJSON      `json:"export,omitempty"`
	Warnings canonical.Diagnostics `json:"warnings,omitempty"`
	// Source says where a resolved server came from.
	Source string `json:"source,omitempty"`
}

func (h *handlers) addServer(ctx context.Context, a addArgs) (any, error) {
	if err := checkStoreScope(a.Scope); err != nil {
		return nil, err
	}
	e := h.engine()
	given := a.PlanID
	a.PlanID = ""
	servers, ds, source, err := h.serversToAdd(ctx, e, a)
	if err != nil {
		return nil, err
	}
	if ds.HasErrors() {
		return nil, &engine.ProblemsError{Diags: ds, Msg: "nothing was added"}
	}
	o := engine.AddOptions{Scope: scopeOf(a.Scope), Servers: servers, Force: a.Force, To: a.To, DryRun: true}
	plan, id, err := h.planAdd(e, o, a, ds, source)
	if err != nil {
		return nil, err
	}
	if c := confirm(given, id, plan, "add"); c != nil {
		return c, nil
	}
	o.DryRun = false
	run, err := e.Add(o)
	if err != nil {
		return nil, err
	}
	defer run.Close()
	if run.Export != nil && run.Export.Plan.Diags.HasErrors() {
		return nil, &engine.ProblemsError{Diags: run.Export.Plan.Diags.Errors(), Msg: "nothing was added"}
	}
	res, err := run.Apply()
	if err != nil {
		return nil, err
	}
	out := map[string]any{"done": true, "plan_id": id, "store": run.Store.Path, "servers": run.Outcomes}
	if run.Export != nil {
		x := render.Export(run.Export, false, paths(e), nil)
		x.Result = res
		out["export"] = x
	}
	return out, nil
}

// planAdd plans an add (a dry run) and returns the plan and its id.
func (h *handlers) planAdd(e *engine.Engine, o engine.AddOptions, a addArgs, ds canonical.Diagnostics, source string) (*addPlan, string, error) {
	run, err := e.Add(o)
	if err != nil {
		return nil, "", err
	}
	defer run.Close()
	plan := &addPlan{Outcomes: run.Outcomes, Diff: e.StoreDiff(run.Store), Warnings: append(ds, run.Diags...), Source: source}
	for _, s := range o.Servers {
		plan.Servers = append(plan.Servers, secrets.MaskServer(s))
	}
	fp := string(run.Store.Bytes())
	if run.Export != nil {
		p := run.Export.Plan
		diff := emitters.DiffOptions{Base: e.ProjectRoot(), Mask: p.SecretMask()}
		x := render.Export(run.Export, true, paths(e), &diff)
		plan.Export = &x
		fp += p.Fingerprint()
	}
	return plan, planID("add_server", a, fp), nil
}

// serversToAdd reads the servers add_server is given: exactly one of
// config, command, url or resolve.
func (h *handlers) serversToAdd(ctx context.Context, e *engine.Engine, a addArgs) ([]canonical.Server, canonical.Diagnostics, string, error) {
	given := 0
	config, err := configText(a.Config)
	if err != nil {
		return nil, nil, "", err
	}
	for _, set := range []bool{config != "", len(a.Command) > 0, a.URL != "", a.Resolve != ""} {
		if set {
			given++
		}
	}
	if given != 1 {
		return nil, nil, "", fmt.Errorf("give exactly one of config (a pasted configuration), command (with name), url (with name) or resolve")
	}
	switch {
	case config != "":
		set, ds := paste.Parse([]byte(config), paste.Options{File: "<config>", Name: a.Name, ExampleValues: true})
		return set.Servers, ds, "", nil
	case a.Resolve != "":
		f, err := e.Find(ctx, engine.FindOptions{Input: a.Resolve, Scope: scopeOf(a.Scope), Remote: a.Remote, Pick: a.Pick, Name: a.Name,
			GitHubAPI: or(e.Getenv(resolve.EnvGitHubAPI), resolve.DefaultGitHubAPI), GitHubRaw: or(e.Getenv(resolve.EnvGitHubRaw), resolve.DefaultGitHubRaw),
			Registry: or(e.Getenv(resolve.EnvRegistry), resolve.DefaultRegistry), UserAgent: "mcpsync/" + h.o.Version})
		if err != nil {
			return nil, nil, "", err
		}
		if err := f.CheckRunner(false); err != nil {
			return nil, nil, "", err
		}
		ds := f.Diags
		if len(f.Missing) > 0 {
			ds = append(ds, canonical.Warnf("set %s before a client starts %s", engine.DescribeInputs(f.Missing), f.Result.Server.Name))
		}
		return []canonical.Server{f.Result.Server}, ds, f.Result.Source, nil
	}
	if a.Name == "" {
		return nil, nil, "", fmt.Errorf("name the server (name) when you give a command or a url")
	}
	srv, ds := paste.FromFlags(a.Name, a.Command, paste.Flags{URL: a.URL, Transport: a.Transport, Headers: a.Headers, Env: a.Env})
	return []canonical.Server{srv}, ds, "", nil
}

func or(v, def string) string {
	if v != "" {
		return v
	}
	return def
}

// configText is add_server's config as text: a string as it is, an
// object as its JSON.
func configText(v any) (string, error) {
	switch c := v.(type) {
	case nil:
		return "", nil
	case string:
		return c, nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("config: %w", err)
	}
	return string(data), nil
}
