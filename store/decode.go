package store

import (
	"encoding/json"
	"fmt"
	"math/big"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/mapkeys"
	"github.com/mcpsync/mcpsync/internal/suggest"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

var rootSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
	{Type: "server", LabelNames: []string{"name"}},
	{Type: "client", LabelNames: []string{"name"}},
	{Type: "resolver", LabelNames: []string{"name"}},
	{Type: "source", LabelNames: []string{"name"}},
}}

var serverSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "command"}, {Name: "args"}, {Name: "env"}, {Name: "cwd"},
		{Name: "url"}, {Name: "transport"}, {Name: "headers"},
		{Name: "disabled"}, {Name: "tools_allow"}, {Name: "tools_deny"},
		{Name: "startup_timeout"}, {Name: "tool_timeout"}, {Name: "project"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "oauth"}, {Type: "extra", LabelNames: []string{"client"}}},
}

var oauthSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "client_id"}, {Name: "client_secret"}, {Name: "scopes"}, {Name: "callback_port"},
	{Name: "redirect_uri"}, {Name: "auth_server_metadata_url"}, {Name: "resource"},
}}

var clientSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "include"}, {Name: "exclude"}, {Name: "file"}, {Name: "os"}}}

var resolverSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "command", Required: true}, {Name: "timeout"}}}

var sourceSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "git", Required: true}, {Name: "ref"}, {Name: "path"}}}

// decoder reads one file and collects every problem in it.
type decoder struct {
	file  string
	diags canonical.Diagnostics
}

func (d *decoder) hcl(ds hcl.Diagnostics) {
	// HCL finds unexpected arguments by walking a map: in file order, the
	// same store reports the same problems the same way every run.
	ds = slices.Clone(ds)
	sort.SliceStable(ds, func(i, j int) bool { return offset(ds[i].Subject) < offset(ds[j].Subject) })
	for _, h := range ds {
		// "value must be known" follows every failed function call; the
		// first diagnostic already says what is wrong.
		if h.Summary == "Unsuitable value" && len(d.diags) > 0 && d.diags.HasErrors() {
			continue
		}
		cd := &canonical.Diagnostic{Severity: canonical.Error, Summary: h.Summary, Detail: h.Detail}
		if fc, ok := h.Expression.(*hclsyntax.FunctionCallExpr); ok && h.Summary == "Call to unknown function" && !strings.Contains(fc.Name, "::") {
			cd.Detail = unknownFunction(fc.Name)
		}
		if h.Severity == hcl.DiagWarning {
			cd.Severity = canonical.Warning
		}
		cd.At(d.pos(h.Subject))
		d.diags = append(d.diags, cd)
	}
}

// unknownFunction is HCL's detail for a call to a function the store does
// not have, its suggestion made the same way every run: HCL suggests the
// first close name in a map's order, so that a call to int() was told
// "Did you mean "env"?" one run and "input" the next
// (FuzzDecodeServersAside). The closest name is suggested; on a tie, the
// first in alphabetical order.
func unknownFunction(name string) string {
	detail := fmt.Sprintf("There is no function named %q.", name)
	if s := suggest.Closest(name, functionNames(), 3); s != "" {
		detail += fmt.Sprintf(" Did you mean %q?", s)
	}
	return detail
}

// functionNames is the names of the store's functions, sorted.
var functionNames = sync.OnceValue(func() []string { return mapkeys.Sorted(evalContext.Functions) })

func offset(r *hcl.Range) int {
	if r == nil {
		return -1
	}
	return r.Start.Byte
}

func (d *decoder) pos(r *hcl.Range) canonical.Pos {
	if r == nil {
		return canonical.Pos{File: d.file, Line: 1, Column: 1}
	}
	return canonical.Pos{File: d.file, Line: max(r.Start.Line, 1), Column: max(r.Start.Column, 1)}
}

func (d *decoder) errorAt(r hcl.Range, server, field, detail, format string, args ...any) {
	cd := canonical.Errorf(format, args...)
	cd.Detail, cd.Server, cd.Field = detail, server, field
	d.diags = append(d.diags, cd.At(d.pos(&r)))
}

// serverBlock is a server as it is in the file: what it means and where its
// pieces are, so that an edit touches only what changed.
type serverBlock struct {
	srv    canonical.Server
	syntax *hclsyntax.Block
}

// decodeFile reads the whole store.
func decodeFile(s *Store, src []byte) canonical.Diagnostics {
	return decodeFileIn(s, src, asideFrom)
}

// decodeFileIn is decodeFile, the servers decoded side by side
// (decodeServersAside) when the store has at least aside server blocks.
func decodeFileIn(s *Store, src []byte, aside int) canonical.Diagnostics {
	d := &decoder{file: s.Path}
	body, diags := parseConfig(src, s.Path)
	d.hcl(diags)
	if diags.HasErrors() {
		return d.diags
	}
	content, diags := body.Content(rootSchema)
	d.hcl(diags)
	var decoded []asideServer // by block, when decoded side by side
	if len(d.diags) == 0 && countServerBlocks(content.Blocks) >= aside {
		decoded = decodeServersAside(s.Path, content.Blocks)
	}

	syntaxAt := map[int]*hclsyntax.Block{}
	for _, b := range body.Blocks {
		syntaxAt[b.TypeRange.Start.Byte] = b
	}
	firstAt := map[string]hcl.Range{}
	dup := func(kind, name string, r hcl.Range) bool {
		key := kind + "\x00" + name
		if prev, ok := firstAt[key]; ok {
			d.errorAt(r, "", "", "first defined at "+d.pos(&prev).String()+"; remove or rename one of them", "duplicate %s %q", kind, name)
			return true
		}
		firstAt[key] = r
		return false
	}
	for i, blk := range content.Blocks {
		name := blk.Labels[0]
		switch blk.Type {
		case "server":
			if dup("server", name, blk.DefRange) {
				continue
			}
			if decoded != nil {
				s.Servers.Servers = append(s.Servers.Servers, decoded[i].srv)
				decoded[i].kept.syntax = syntaxAt[blk.TypeRange.Start.Byte]
				s.blocks[name] = decoded[i].kept
				continue
			}
			srv := d.server(blk)
			s.Servers.Servers = append(s.Servers.Servers, srv)
			s.blocks[name] = &serverBlock{srv: srv.Clone(), syntax: syntaxAt[blk.TypeRange.Start.Byte]}
		case "client":
			if dup("client", name, blk.DefRange) {
				continue
			}
			rule, file := d.client(blk)
			s.Clients[name] = rule
			if file.Path != "" {
				s.ClientFiles[name] = file
			}
		case "resolver":
			if !dup("resolver", name, blk.DefRange) {
				s.Resolvers = append(s.Resolvers, d.resolver(blk))
			}
		case "source":
			if !dup("source", name, blk.DefRange) {
				s.Sources = append(s.Sources, d.source(blk))
			}
		}
	}
	d.diags = append(d.diags, s.Servers.Validate()...)
	d.checkClientRules(s)
	return d.diags
}

// asideFrom is the number of server blocks from which decodeFile decodes
// the servers side by side: 10,000 servers took a serial 190 ms of the
// first run after an edit (a few hundred take a few milliseconds).
const asideFrom = 512

func countServerBlocks(blocks hcl.Blocks) int {
	n := 0
	for _, b := range blocks {
		if b.Type == "server" {
			n++
		}
	}
	return n
}

// asideServer is a server block decoded by decodeServersAside: the server,
// and the copy the store keeps of it (its syntax is set by decodeFile).
type asideServer struct {
	srv  canonical.Server
	kept *serverBlock
}

// decodeServersAside decodes the server blocks among blocks on every
// processor, each with a decoder of its own, and returns each by its
// block's index (zero for other blocks); nil when any of them has a
// problem: decodeFile then decodes them in turn, as ever, so that the
// diagnostics are exactly those (a server's decode depends on the others
// only through its diagnostics: an "Unsuitable value" after an earlier
// error is left out). The value of a block decoded without a diagnostic
// is the same either way. FuzzDecodeServersAside compares the two.
func decodeServersAside(file string, blocks hcl.Blocks) []asideServer {
	out := make([]asideServer, len(blocks))
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			d := &decoder{file: file}
			for !failed.Load() {
				i := int(next.Add(1)) - 1
				if i >= len(blocks) {
					return
				}
				if blocks[i].Type != "server" {
					continue
				}
				srv := d.server(blocks[i])
				if len(d.diags) > 0 {
					failed.Store(true)
					return
				}
				out[i] = asideServer{srv: srv, kept: &serverBlock{srv: srv.Clone()}}
			}
		})
	}
	wg.Wait()
	if failed.Load() {
		return nil
	}
	return out
}

func (d *decoder) server(blk *hcl.Block) canonical.Server {
	name := blk.Labels[0]
	srv := canonical.Server{Name: name, Origin: d.pos(&blk.LabelRanges[0])}
	content, diags := blk.Body.Content(serverSchema)
	d.hcl(diags)
	a := content.Attributes
	srv.Command = d.str(a["command"], name)
	srv.Args = d.strList(a["args"], name)
	srv.Env = d.strMap(a["env"], name)
	srv.Cwd = d.str(a["cwd"], name)
	srv.URL = d.str(a["url"], name)
	srv.Headers = d.strMap(a["headers"], name)
	srv.Disabled = d.boolean(a["disabled"], name)
	srv.ToolsAllow = d.strList(a["tools_allow"], name)
	srv.ToolsDeny = d.strList(a["tools_deny"], name)
	srv.StartupTimeout = d.duration(a["startup_timeout"], name)
	srv.ToolTimeout = d.duration(a["tool_timeout"], name)
	if at := a["project"]; at != nil {
		if p := d.str(at, name); p != "" && !filepath.IsAbs(p) {
			d.errorAt(at.Expr.Range(), name, "project", "give the project's absolute directory, as Claude Code keys its local servers: \"/home/me/code/app\"",
				"project %q is not an absolute directory", p)
		} else {
			srv.Project = filepath.Clean(p)
			if p == "" {
				srv.Project = ""
			}
		}
	}
	if at := a["transport"]; at != nil {
		t := canonical.Transport(d.str(at, name))
		if !t.Valid() && t != "" {
			d.errorAt(at.Expr.Range(), name, "transport", `use "stdio", "http" (streamable HTTP, the default for a url) or "sse"`, "unknown transport %q", t)
		} else {
			srv.Transport = t
		}
	}
	extraSeen := map[string]hcl.Range{}
	for _, b := range content.Blocks {
		switch b.Type {
		case "oauth":
			if srv.Auth.OAuth != nil {
				d.errorAt(b.DefRange, name, "oauth", "keep one oauth block", "more than one oauth block")
				continue
			}
			srv.Auth.OAuth = d.oauth(b, name)
		case "extra":
			client := b.Labels[0]
			if prev, ok := extraSeen[client]; ok {
				d.errorAt(b.DefRange, name, "extra", "first given at "+d.pos(&prev).String()+"; merge them", "duplicate extra %q block", client)
				continue
			}
			extraSeen[client] = b.DefRange
			d.extra(&srv, client, b)
		}
	}
	srv.Normalize()
	return srv
}

func (d *decoder) oauth(b *hcl.Block, server string) *canonical.OAuth {
	content, diags := b.Body.Content(oauthSchema)
	d.hcl(diags)
	a := content.Attributes
	o := &canonical.OAuth{
		ClientID:              d.str(a["client_id"], server),
		ClientSecret:          d.str(a["client_secret"], server),
		Scopes:                d.strList(a["scopes"], server),
		RedirectURI:           d.str(a["redirect_uri"], server),
		AuthServerMetadataURL: d.str(a["auth_server_metadata_url"], server),
		Resource:              d.str(a["resource"], server),
	}
	if at := a["callback_port"]; at != nil {
		if v, ok := d.value(at, cty.Number, server); ok {
			bf := v.AsBigFloat()
			port, acc := bf.Int64()
			if acc != big.Exact || port < 1 || port > 65535 {
				d.errorAt(at.Expr.Range(), server, "oauth", "use a TCP port from 1 to 65535", "callback_port %s is not a port number", bf.Text('g', 10))
			} else {
				o.CallbackPort = int(port)
			}
		}
	}
	return o
}

// extra reads `extra "client" { key = value }` into Server.Extra as JSON.
// Keys that are not HCL identifiers live in one attribute `_ = { "k" = v }`.
func (d *decoder) extra(srv *canonical.Server, client string, b *hcl.Block) {
	attrs, diags := b.Body.JustAttributes()
	d.hcl(diags)
	names := make([]string, 0, len(attrs))
	for k := range attrs {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		at := attrs[k]
		v, diags := at.Expr.Value(evalContext)
		d.hcl(diags)
		if diags.HasErrors() {
			continue
		}
		if k == quotedKeys {
			if !v.Type().IsObjectType() && !v.Type().IsMapType() {
				d.errorAt(at.Expr.Range(), srv.Name, "extra", `write _ = { "key.with.dots" = value }`, "%s must be an object of keys that are not identifiers", quotedKeys)
				continue
			}
			for it := v.ElementIterator(); it.Next(); {
				kv, ev := it.Element()
				d.setExtra(srv, client, kv.AsString(), ev, at)
			}
			continue
		}
		d.setExtra(srv, client, k, v, at)
	}
}

func (d *decoder) setExtra(srv *canonical.Server, client, key string, v cty.Value, at *hcl.Attribute) {
	raw, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		d.errorAt(at.Expr.Range(), srv.Name, "extra", "extra values are JSON values: strings, numbers, booleans, lists and objects", "cannot keep %q: %v", key, err)
		return
	}
	srv.SetExtra(client, key, json.RawMessage(raw))
}

func (d *decoder) client(blk *hcl.Block) (ClientRule, ClientFile) {
	content, diags := blk.Body.Content(clientSchema)
	d.hcl(diags)
	rule := ClientRule{
		Include: d.strList(content.Attributes["include"], ""),
		Exclude: d.strList(content.Attributes["exclude"], ""),
		Pos:     d.pos(&blk.LabelRanges[0]),
	}
	var file ClientFile
	if at := content.Attributes["file"]; at != nil {
		path := d.str(at, "")
		switch {
		case path == "" && d.diags.HasErrors():
		case strings.Contains(path, "${"):
			d.errorAt(at.Expr.Range(), "", "file", "write the path itself; ~/ stands for your home directory",
				"client %q: file is a plain path, not a reference", blk.Labels[0])
		case !strings.HasPrefix(path, "~/") && !filepath.IsAbs(path):
			d.errorAt(at.Expr.Range(), "", "file", `for example file = "~/.vscode-server/data/User/mcp.json"`,
				"client %q: file %q must be an absolute path or start with ~/", blk.Labels[0], path)
		default:
			file = ClientFile{Path: path, Pos: d.pos(&at.NameRange)}
		}
	}
	if at := content.Attributes["os"]; at != nil {
		goos := d.str(at, "")
		switch {
		case goos == "" && d.diags.HasErrors():
		case goos != "windows" && goos != "darwin" && goos != "linux":
			file = ClientFile{}
			d.errorAt(at.Expr.Range(), "", "os", "the OS of the machine whose client reads the file",
				"client %q: os %q must be windows, darwin or linux", blk.Labels[0], goos)
		case content.Attributes["file"] == nil:
			d.errorAt(at.NameRange, "", "os", `give the file too, for example file = "/mnt/c/Users/me/AppData/Roaming/Claude/claude_desktop_config.json"`,
				"client %q: os says which machine reads a moved file", blk.Labels[0])
		default:
			file.OS = goos
		}
	}
	return rule, file
}

func (d *decoder) resolver(blk *hcl.Block) Resolver {
	content, diags := blk.Body.Content(resolverSchema)
	d.hcl(diags)
	r := Resolver{Name: blk.Labels[0], Pos: d.pos(&blk.LabelRanges[0])}
	r.Command = d.strList(content.Attributes["command"], "")
	if at := content.Attributes["command"]; at != nil && len(r.Command) == 0 && !d.diags.HasErrors() {
		d.errorAt(at.Expr.Range(), "", "command", `give the program and its arguments, for example ["claude", "-p"]`, "resolver %q has an empty command", r.Name)
	}
	r.Timeout = d.duration(content.Attributes["timeout"], "")
	return r
}

func (d *decoder) source(blk *hcl.Block) Source {
	content, diags := blk.Body.Content(sourceSchema)
	d.hcl(diags)
	a := content.Attributes
	return Source{Name: blk.Labels[0], Git: d.str(a["git"], ""), Ref: d.str(a["ref"], ""), Path: d.str(a["path"], ""),
		Pos: d.pos(&blk.LabelRanges[0])}
}

// checkClientRules warns about rules naming servers the store does not
// have: a typo would otherwise silently send nothing, or everything.
func (d *decoder) checkClientRules(s *Store) {
	names := s.Servers.Names()
	have := map[string]bool{}
	for _, n := range names {
		have[n] = true
	}
	clients := make([]string, 0, len(s.Clients))
	for c := range s.Clients {
		clients = append(clients, c)
	}
	sort.Strings(clients)
	for _, c := range clients {
		rule := s.Clients[c]
		for _, list := range [][]string{rule.Include, rule.Exclude} {
			for _, n := range list {
				if !have[n] && !fromSource(n, s.Sources) {
					msg := fmt.Sprintf("client %q names the server %q, which the store does not have", c, n)
					if sug := Suggest(n, names); sug != "" {
						msg += fmt.Sprintf(" (did you mean %q?)", sug)
					}
					d.diags = append(d.diags, canonical.Warnf("%s", msg).At(rule.Pos))
				}
			}
		}
	}
}

// fromSource reports whether name may be a team source's server, which
// clients see as SOURCE-NAME (package sources): the store cannot know the
// names a source offers, so a rule naming one is not a typo to warn about.
func fromSource(name string, srcs []Source) bool {
	for _, src := range srcs {
		if strings.HasPrefix(name, src.Name+"-") {
			return true
		}
	}
	return false
}

// value evaluates an attribute and converts it to want, reporting a
// mistyped value at the attribute.
func (d *decoder) value(at *hcl.Attribute, want cty.Type, server string) (cty.Value, bool) {
	v, diags := at.Expr.Value(evalContext)
	d.hcl(diags)
	if diags.HasErrors() {
		return cty.NilVal, false
	}
	if v.IsNull() {
		d.errorAt(at.Expr.Range(), server, at.Name, "leave the attribute out instead", "%s is null", at.Name)
		return cty.NilVal, false
	}
	c, err := convert.Convert(v, want)
	if err != nil {
		d.errorAt(at.Expr.Range(), server, at.Name, "write "+example(want), "%s must be %s, not %s", at.Name, want.FriendlyName(), v.Type().FriendlyName())
		return cty.NilVal, false
	}
	if !c.IsWhollyKnown() {
		return cty.NilVal, false
	}
	return c, true
}

func example(t cty.Type) string {
	switch {
	case t == cty.String:
		return `a quoted string, for example "npx"`
	case t == cty.Bool:
		return "true or false"
	case t == cty.Number:
		return "a number"
	case t.IsListType():
		return `a list, for example ["a", "b"]`
	case t.IsMapType():
		return `an object, for example { NAME = "value" }`
	}
	return t.FriendlyName()
}

func (d *decoder) str(at *hcl.Attribute, server string) string {
	if at == nil {
		return ""
	}
	v, ok := d.value(at, cty.String, server)
	if !ok {
		return ""
	}
	return v.AsString()
}

func (d *decoder) boolean(at *hcl.Attribute, server string) bool {
	if at == nil {
		return false
	}
	v, ok := d.value(at, cty.Bool, server)
	return ok && v.True()
}

func (d *decoder) strList(at *hcl.Attribute, server string) []string {
	if at == nil {
		return nil
	}
	v, ok := d.value(at, cty.List(cty.String), server)
	if !ok {
		return nil
	}
	var out []string
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		if e.IsNull() {
			d.errorAt(at.Expr.Range(), server, at.Name, "remove the null element", "%s holds null", at.Name)
			continue
		}
		out = append(out, e.AsString())
	}
	return out
}

func (d *decoder) strMap(at *hcl.Attribute, server string) map[string]string {
	if at == nil {
		return nil
	}
	v, ok := d.value(at, cty.Map(cty.String), server)
	if !ok {
		return nil
	}
	out := map[string]string{}
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		if e.IsNull() {
			d.errorAt(at.Expr.Range(), server, at.Name, "remove the entry or give a string", "%s.%s is null", at.Name, k.AsString())
			continue
		}
		out[k.AsString()] = e.AsString()
	}
	return out
}

// duration reads "30s", "2m", "1h30m" or a number of seconds.
func (d *decoder) duration(at *hcl.Attribute, server string) time.Duration {
	if at == nil {
		return 0
	}
	v, diags := at.Expr.Value(evalContext)
	d.hcl(diags)
	if diags.HasErrors() {
		return 0
	}
	const help = `write a duration such as "30s", "2m" or "1h30m", or a number of seconds`
	var dur time.Duration
	switch {
	case v.Type() == cty.String && v.IsKnown() && !v.IsNull():
		parsed, err := time.ParseDuration(strings.TrimSpace(v.AsString()))
		if err != nil {
			d.errorAt(at.Expr.Range(), server, at.Name, help, "%s %q is not a duration", at.Name, v.AsString())
			return 0
		}
		dur = parsed
	case v.Type() == cty.Number && v.IsKnown() && !v.IsNull():
		secs, _ := v.AsBigFloat().Float64()
		if secs*float64(time.Second) >= 1<<63 {
			d.errorAt(at.Expr.Range(), server, at.Name, help, "%s is too long", at.Name)
			return 0
		}
		dur = time.Duration(secs * float64(time.Second))
	default:
		d.errorAt(at.Expr.Range(), server, at.Name, help, "%s must be a duration, not %s", at.Name, v.Type().FriendlyName())
		return 0
	}
	if dur <= 0 {
		d.errorAt(at.Expr.Range(), server, at.Name, help, "%s must be longer than zero", at.Name)
		return 0
	}
	return dur
}

// formatDuration writes a duration the way a person would: "30s", "2m",
// "1h30m", "1.5s".
func formatDuration(d time.Duration) string { return canonical.FormatDuration(d) }
