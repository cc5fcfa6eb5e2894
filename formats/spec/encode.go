package spec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/jsonedit"
	"github.com/mcpsync/mcpsync/internal/lazyre"
	"github.com/mcpsync/mcpsync/internal/mapkeys"
	"github.com/mcpsync/mcpsync/internal/winshim"
)

// A field is one key of an entry as the client spells it.
type field struct {
	key   string
	kind  fieldKind
	value any
}

// Encode implements formats.Adapter.
//
// An entry that already decodes to the wanted server (its Extra for this
// client included) is not touched. A changed entry is edited key by key:
// only the parts of the model that changed are rewritten, in place, and
// keys the user wrote that mcpsync does not know stay unless the wanted
// server's Extra for this client says otherwise. Entries the file has and
// the set does not are removed, except entries the client itself would skip,
// which mcpsync never read and so leaves alone. New entries are appended in
// the set's order. Nothing is written (data is returned unchanged) when
// there is an error.
func (a *Adapter) Encode(loc formats.Location, data []byte, want canonical.Set, opts formats.EncodeOptions) ([]byte, canonical.Diagnostics) {
	t, d := a.resolve(loc)
	if d != nil {
		return data, canonical.Diagnostics{d}
	}
	if loc.ReadOnly {
		d := canonical.Errorf("%s is read-only for mcpsync", loc.Path)
		d.Detail = loc.Note
		return data, canonical.Diagnostics{d.At(canonical.Pos{File: loc.Path})}
	}
	doc, diags := a.parse(t, data)
	if diags.HasErrors() {
		return data, diags
	}
	if opts.OS == "" {
		opts.OS = targetOS(formats.Env{})
	}
	c := &Context{Spec: a.spec, Loc: loc, Servers: t.servers, Options: opts, Original: data}
	entries, _, ds := a.readEntries(c, t, doc)
	if ds.HasErrors() {
		return data, append(diags, ds.Errors()...)
	}
	// The set is the caller's, shared with the other clients' encodings:
	// nothing of it is changed here. A hook that changes a server gives
	// want a list of its own first and clones the server (see
	// Hooks.PrepareEncode), and each server is normalised as a copy
	// (normalized). Cloning the whole set up front was a tenth of encoding
	// 10,000 servers; cloning its list for every client, 2.7 MB each.
	diags = append(diags, a.hooks.PrepareEncode(c, &want)...)

	e := &encoder{a: a, t: t, doc: doc, opts: opts}
	existing := make(map[string]*entry, len(entries))
	for i := range entries {
		existing[entries[i].name] = &entries[i]
	}
	wanted := make(map[string]bool, len(want.Servers))
	var fresh []jsonedit.Field
	for _, s := range want.Servers {
		if wanted[s.Name] {
			d := canonical.Errorf("server %q is wanted twice", s.Name)
			d.Server = s.Name
			e.diags = append(e.diags, d)
			continue
		}
		wanted[s.Name] = true
		old, has := existing[s.Name]
		if has && old.ok && canonical.Equal(*old.srv, s, a.spec.ID) {
			continue
		}
		s = normalized(s)
		fields, bridged, ok := e.render(s, has)
		if !ok {
			continue
		}
		replace := false
		if ee, ok := a.hooks.(EntryEncoder); ok {
			var oldNode jsonedit.Node
			var oldSrv *canonical.Server
			if has {
				oldNode, oldSrv = old.node, old.srv
			}
			fields, replace = e.hookEntry(ee, c, s, oldNode, oldSrv, fields)
		}
		c.Written = append(c.Written, s.Name)
		switch {
		case has && replace:
			e.fail(doc.Set(append(slices.Clone(t.servers), s.Name), object(fields)))
		case has:
			e.editEntry(old, s, fields, bridged)
		default:
			fresh = append(fresh, jsonedit.Field{Key: s.Name, Value: object(fields)})
		}
	}
	for _, en := range entries {
		if en.ok && !wanted[en.name] {
			_, err := doc.Delete(append(slices.Clone(t.servers), en.name))
			e.fail(err)
		}
	}
	if len(fresh) > 0 {
		if doc.IsEmpty() {
			doc.SetNewFileStyle(a.spec.NewFile.Indent, a.spec.NewFile.FinalNewline)
			if a.spec.NewFile.Schema != "" {
				e.fail(doc.Set([]string{"$schema"}, a.spec.NewFile.Schema))
			}
		}
		e.fail(doc.Append(t.servers, fresh...))
	}
	if !e.diags.HasErrors() {
		e.diags = append(e.diags, a.hooks.FinishEncode(c, doc)...)
	}
	diags = append(diags, e.diags...)
	if diags.HasErrors() {
		return data, diags.WithFile(loc.Path)
	}
	out, err := doc.Bytes()
	if err != nil {
		return data, append(diags, canonical.Errorf("%s: %v", loc.Path, err))
	}
	if bytes.Equal(out, data) {
		return data, diags.WithFile(loc.Path)
	}
	doc.HandOver() // the plan reads out back next
	return out, diags.WithFile(loc.Path)
}

// CannotHold implements formats.HoldChecker: Encode of srv alone into a
// new file takes the same steps up to render (the client's hooks'
// PrepareEncode, normalized), and render's verdict that the client cannot
// hold it is what leaves it out of the file. Nothing is built or decoded.
func (a *Adapter) CannotHold(loc formats.Location, srv canonical.Server, opts formats.EncodeOptions) bool {
	t, d := a.resolve(loc)
	if d != nil || loc.ReadOnly {
		return true // Encode fails
	}
	if opts.OS == "" {
		opts.OS = targetOS(formats.Env{})
	}
	c := &Context{Spec: a.spec, Loc: loc, Servers: t.servers, Options: opts}
	want := canonical.Set{Servers: []canonical.Server{srv}}
	if a.hooks.PrepareEncode(c, &want).HasErrors() || len(want.Servers) != 1 {
		return false // let Encode say
	}
	e := &encoder{a: a, t: t, opts: opts}
	_, _, ok := e.render(normalized(want.Servers[0]), false)
	return !ok
}

// normalized is s normalised without writing into what it shares with
// the caller's set: Normalize folds a bearer token variable into the
// headers, drops an OAuth block's empty scopes and a client's empty
// extras, in place; a server with any of those is cloned first.
func normalized(s canonical.Server) canonical.Server {
	if s.Auth.BearerTokenEnv != "" || s.Auth.OAuth != nil || len(s.Extra) > 0 {
		s = s.Clone()
	}
	s.Normalize()
	return s
}

// hookEntry lets the client's EntryEncoder adjust an entry; the keys it
// returns are classified again by the spec's fields.
func (e *encoder) hookEntry(ee EntryEncoder, c *Context, s canonical.Server, old jsonedit.Node, oldSrv *canonical.Server, fields []field) ([]field, bool) {
	en := &EncodedEntry{Fields: object(fields), Old: oldSrv}
	e.diags = append(e.diags, ee.EncodeEntry(c, s, old, en)...)
	out := make([]field, len(en.Fields))
	for i, f := range en.Fields {
		out[i] = field{key: f.Key, kind: e.a.keys[f.Key], value: f.Value}
	}
	return out, en.Replace
}

// encoder carries one Encode.
type encoder struct {
	a     *Adapter
	t     target
	doc   *jsonedit.Doc
	opts  formats.EncodeOptions
	diags canonical.Diagnostics
	// details holds one copy of each warning's detail text: most name
	// no server (what the client reads an sse entry as, which transports
	// it has), and a file of 10,000 servers held one copy per server.
	details map[string]string
	// refs renders each value with a reference once (refMemo).
	refs refMemo
}

func (e *encoder) fail(err error) {
	if err != nil {
		d := canonical.Errorf("cannot edit %s: %v", e.t.loc.Path, err)
		d.Detail = "the file is left as it is"
		e.diags = append(e.diags, d)
	}
}

func (e *encoder) warn(s canonical.Server, field, detail, format string, args ...any) {
	d := canonical.Warnf(format, args...)
	d.Server, d.Field, d.Detail = s.Name, field, e.shared(detail)
	e.diags = append(e.diags, d)
}

// shared returns the one copy of text that this encoding's warnings hold.
func (e *encoder) shared(text string) string {
	if t, ok := e.details[text]; ok {
		return t
	}
	if e.details == nil {
		e.details = map[string]string{}
	}
	e.details[text] = text
	return text
}

func object(fields []field) jsonedit.Object {
	o := make(jsonedit.Object, len(fields))
	for i, f := range fields {
		o[i] = jsonedit.Field{Key: f.key, Value: f.value}
	}
	return o
}

// str spells a canonical string in the client's placeholder syntax; what
// the client cannot express is a warning naming the server and field.
func (e *encoder) str(s canonical.Server, field, v string) string {
	expands := e.a.spec.expands(field, e.t.loc.Scope)
	if e.a.spec.dialect(expands).BareDollar {
		e.bareDollar(s, field, v)
	}
	r := e.rendered(expands, v)
	for _, p := range r.probs {
		e.warn(s, field, "", "%s: %s", p.Ref.Text, p.Reason)
	}
	out := r.out
	if c := e.a.spec.Commands; c != nil && strings.HasPrefix(out, c.Prefix) && e.a.spec.commandField(field) {
		out = c.Literal + out[len(c.Prefix):] // else the client would run the rest as a command
	}
	return out
}

// rendered is v, a canonical value, in the client's spelling for a field
// where the client expands references or not (Spec.expands), with what
// the spelling cannot say: each value once per encode (refMemo).
func (e *encoder) rendered(expands bool, v string) refResult {
	if !strings.ContainsAny(v, "${") {
		return refResult{out: v} // no reference in any dialect; most values (every url) are such, and the memo keeps none of them
	}
	return e.refs.get(expands, v, func() refResult {
		t := canonical.Parse(v, canonical.DialectCanonical)
		if !t.HasRefs() {
			return refResult{out: v}
		}
		out, probs := t.Render(e.a.spec.dialect(expands))
		return refResult{out: out, probs: probs}
	})
}

// bareName is a $NAME that a client expanding bare dollars (Gemini CLI,
// Qwen Code) replaces when it loads the file.
var bareName = lazyre.New(`\$[A-Za-z_][A-Za-z0-9_]*`)

// bareDollar warns of a $NAME in the literal text of v for a client that
// expands $NAME itself when it loads its file: a shell line in an argument
// (bash -lc 'cd $HOME && …') then gets the value from the client's own
// environment, before the shell sees it, and an empty string where the
// client's environment has no such variable.
func (e *encoder) bareDollar(s canonical.Server, field, v string) {
	var names []string
	for _, seg := range canonical.Parse(v, canonical.DialectCanonical) {
		if seg.Kind == canonical.Literal {
			for _, m := range bareName.Get().FindAllString(seg.Text, -1) {
				if !slices.Contains(names, m) {
					names = append(names, m)
				}
			}
		}
	}
	if len(names) > 0 {
		e.warn(s, field, "to keep a $ for the server's own shell, move the line into a script the command runs",
			"%s replaces %s in %s with the value from its own environment when it loads the file, before the server or its shell sees it",
			e.a.spec.DisplayName, strings.Join(names, ", "), field)
	}
}

func (e *encoder) strs(s canonical.Server, field string, vs []string) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		if e.asItIs(v) {
			out[i] = v
			continue
		}
		out[i] = e.str(s, fmt.Sprintf("%s[%d]", field, i), v)
	}
	return out
}

func (e *encoder) strMap(s canonical.Server, field string, m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	var render []string // the keys whose values may warn, rendered in key order
	for k, v := range m {
		if e.asItIs(v) {
			out[k] = v
			continue
		}
		render = append(render, k)
	}
	// In the order of the keys, so that the warnings come the same every
	// run: in map order, two exports of one store printed them in turns.
	slices.Sort(render)
	for _, k := range render {
		out[k] = e.str(s, field+"."+k, m[k])
	}
	return out
}

// asItIs reports whether str would return v as it is, whatever the field,
// without naming the field: v holds no reference in any dialect, no
// dollar for a client that expands $NAME, and does not start with the
// client's command prefix. Most values are such, and naming each field
// ("args[2]") was a fifth of what rendering a server cost.
func (e *encoder) asItIs(v string) bool {
	if strings.ContainsAny(v, "${") {
		return false
	}
	c := e.a.spec.Commands
	return c == nil || !strings.HasPrefix(v, c.Prefix)
}

// unexpanded finds the first field of s that the client would pass to the
// server with a reference in it left as text (it expands no references, or
// not that builtin): such an entry cannot work, so it is not written. Only
// the fields the client's entry holds count; a dropped field is warned
// about on its own.
func (e *encoder) unexpanded(s canonical.Server) (field string, problem canonical.RenderProblem, found bool) {
	f := e.a.spec.Fields
	// check takes the field's name in parts, and names it only for a
	// value with a reference.
	check := func(v, base string, index int, key string) bool {
		if found || !strings.ContainsAny(v, "${") { // no reference in any dialect
			return found
		}
		for _, p := range e.rendered(e.a.spec.expands(base, e.t.loc.Scope), v).probs {
			if p.Unexpanded {
				name := base
				switch {
				case index >= 0:
					name = fmt.Sprintf("%s[%d]", base, index)
				case key != "":
					name = base + "." + key
				}
				field, problem, found = name, p, true
				return true
			}
		}
		return false
	}
	if s.Transport == canonical.Stdio {
		check(s.Command, "command", -1, "")
		for i, a := range s.Args {
			check(a, "args", i, "")
		}
		if f.Env != "" && anyRef(s.Env) {
			for _, k := range mapkeys.Sorted(s.Env) {
				check(s.Env[k], "env", -1, k)
			}
		}
		if f.Cwd != "" {
			check(s.Cwd, "cwd", -1, "")
		}
		return field, problem, found
	}
	check(s.URL, "url", -1, "")
	if f.Headers != "" && anyRef(s.Headers) {
		for _, k := range mapkeys.Sorted(s.Headers) {
			check(s.Headers[k], "headers", -1, k)
		}
	}
	return field, problem, found
}

// anyRef reports whether a value of m may hold a reference (in any
// dialect), so that its keys are worth sorting.
func anyRef(m map[string]string) bool {
	for _, v := range m {
		if strings.ContainsAny(v, "${") {
			return true
		}
	}
	return false
}

// unexpandedAdvice says what to do about a server whose reference a client
// would not expand.
func unexpandedAdvice(client, id, server string) string {
	return "add the server in " + client + " by hand with the real value (mcpsync leaves an entry it did not write alone), " +
		"or keep it out of " + client + " with 'mcpsync disable " + server + " --client " + id + "'; mcpsync never expands a reference into a file"
}

// render spells s as the client's entry. It reports ok == false, with a
// warning, when the client cannot run the server at all, and bridged when
// a remote server is written as an mcp-remote command.
func (e *encoder) render(s canonical.Server, exists bool) (fields []field, bridged, ok bool) {
	a, sp, f := e.a, e.a.spec, e.a.spec.Fields
	left := ""
	if exists {
		left = "; the entry already in the file is left as it is"
	}
	if nr := sp.Names; nr != nil && !nr.Pattern.MatchString(s.Name) {
		e.warn(s, "name", "rename it in mcpsync to a name of "+nr.Rule+left,
			"server %q is not written: %s accepts only server names of %s", s.Name, sp.DisplayName, nr.Rule)
		return nil, false, false
	}
	tr, supported := sp.Transport(s.Transport)
	if !supported {
		switch {
		case s.Transport.IsRemote() && a.stdioOnly() && e.opts.BridgeRemote:
			bridged = true
			tr, _ = sp.Transport(canonical.Stdio)
		case s.Transport.IsRemote() && a.stdioOnly():
			e.warn(s, "transport", "pass --bridge-remote to reach it through npx mcp-remote, or add it in the app"+left,
				"server %q is not written: %s only runs local (stdio) servers", s.Name, sp.DisplayName)
			return nil, false, false
		default:
			e.warn(s, "transport", "the client supports "+transportList(a.caps.Transports)+left,
				"server %q is not written: %s cannot use %s servers", s.Name, sp.DisplayName, s.Transport)
			return nil, false, false
		}
	}
	if s.Disabled && !a.caps.Disabled {
		e.warn(s, "disabled", "writing it would turn it on; enable it in mcpsync, or disable it in the client's own settings"+left,
			"server %q is not written: it is disabled and %s has no way to say so in its file", s.Name, sp.DisplayName)
		return nil, false, false
	}
	if !bridged {
		if field, ref, found := e.unexpanded(s); found {
			why := sp.DisplayName + " expands no references"
			if len(sp.PlaceholderFields) > 0 {
				why = sp.DisplayName + " expands references only in " + strings.Join(sp.PlaceholderFields, " and ")
			}
			if len(sp.PlaceholderScopes) > 0 && !slices.Contains(sp.PlaceholderScopes, string(e.t.loc.Scope)) {
				why = sp.DisplayName + " ignores a " + string(e.t.loc.Scope) + " file that holds a reference"
			}
			if ref.Ref.Kind == canonical.Builtin {
				why = sp.DisplayName + " does not expand " + ref.Ref.Text
			}
			if len(sp.PlaceholderScopes) > 0 && !slices.Contains(sp.PlaceholderScopes, string(e.t.loc.Scope)) {
				e.warn(s, field, unexpandedAdvice(sp.DisplayName, sp.ID, s.Name)+left,
					"server %q is not written: %s, so %s (%s) would make %s drop the whole file", s.Name, why, field, ref.Ref.Text, sp.DisplayName)
				return nil, false, false
			}
			e.warn(s, field, unexpandedAdvice(sp.DisplayName, sp.ID, s.Name)+left,
				"server %q is not written: %s, so %s would reach the server as the text %s", s.Name, why, field, ref.Ref.Text)
			return nil, false, false
		}
	}
	add := func(key string, kind fieldKind, v any) { fields = append(fields, field{key, kind, v}) }
	if f.Type != "" && tr.WriteType {
		add(f.Type, fType, tr.Type)
	}
	if !bridged {
		if back := a.readBack(tr); back != s.Transport {
			detail := sp.DisplayName + " reads it as " + string(back)
			if sp.URLWithoutType == "auto" && s.Transport == canonical.SSE {
				// The client tries streamable HTTP first and falls back to
				// SSE: the server works; only the file no longer says sse.
				detail = sp.DisplayName + " finds the transport itself (streamable HTTP, then SSE), so the server works; read back, the entry is " + string(back)
			}
			e.warn(s, "transport", detail,
				"%s has no spelling of its own for %s; server %q is written as a %s entry", sp.DisplayName, s.Transport, s.Name, back)
		}
	}
	switch {
	case bridged:
		args := bridgeArgs(s, e.opts.OS == "windows", func(field, msg string) { e.warn(s, field, "", "%s", msg) })
		e.addCommand(s, "npx", args, add)
		if len(s.Env) > 0 {
			e.warn(s, "env", "", "the env of a remote server is dropped")
		}
	case s.Transport == canonical.Stdio:
		e.addCommand(s, e.str(s, "command", s.Command), e.strs(s, "args", s.Args), add)
		if len(s.Env) > 0 {
			if f.Env == "" {
				e.warn(s, "env", "", "%s has no env for a server; it is dropped", sp.DisplayName)
			} else {
				add(f.Env, fEnv, e.strMap(s, "env", s.Env))
			}
		}
		if s.Cwd != "" {
			if f.Cwd == "" {
				e.warn(s, "cwd", sp.DisplayName+" starts servers in its own directory", "%s has no cwd; %q is dropped", sp.DisplayName, s.Cwd)
			} else {
				add(f.Cwd, fCwd, e.str(s, "cwd", s.Cwd))
			}
		}
	default:
		key := tr.URLKey
		if key == "" {
			key = f.URL
		}
		add(key, fURL, e.str(s, "url", s.URL))
		if len(s.Headers) > 0 {
			if f.Headers == "" {
				e.warn(s, "headers", "the server may refuse the client without them", "%s cannot send headers; they are dropped", sp.DisplayName)
			} else {
				add(f.Headers, fHeaders, e.strMap(s, "headers", s.Headers))
			}
		}
		if o := s.Auth.OAuth; !o.IsZero() {
			if sp.OAuth == nil {
				e.warn(s, "oauth", "the client will run its own OAuth discovery", "%s has no OAuth client settings; they are dropped", sp.DisplayName)
			} else {
				add(sp.OAuth.Key, fOAuth, e.oauth(s, o))
			}
		}
	}
	if s.Disabled {
		if f.Enabled != "" {
			add(f.Enabled, fEnabled, false)
		} else {
			add(f.Disabled, fDisabled, true)
		}
	}
	for _, tf := range []struct {
		key, name string
		kind      fieldKind
		v         []string
	}{{f.ToolsAllow, "toolsAllow", fToolsAllow, s.ToolsAllow}, {f.ToolsDeny, "toolsDeny", fToolsDeny, s.ToolsDeny}} {
		if len(tf.v) == 0 {
			continue
		}
		if tf.key == "" {
			e.warn(s, tf.name, "the client offers every tool of the server", "%s cannot filter tools; %s %v is dropped", sp.DisplayName, tf.name, tf.v)
			continue
		}
		add(tf.key, tf.kind, tf.v)
	}
	for _, to := range []struct {
		key, name string
		kind      fieldKind
		v         time.Duration
	}{{f.StartupTimeout, "startupTimeout", fStartupTimeout, s.StartupTimeout}, {f.ToolTimeout, "toolTimeout", fToolTimeout, s.ToolTimeout}} {
		if to.v == 0 {
			continue
		}
		if to.key == "" {
			e.warn(s, to.name, "the client's default applies", "%s has no %s setting; %s is dropped", sp.DisplayName, to.name, to.v)
			continue
		}
		add(to.key, to.kind, a.timeoutValue(to.v))
	}
	written := map[string]bool{}
	for _, fl := range fields {
		written[fl.key] = true
	}
	extra := s.Extra[sp.ID]
	for _, k := range mapkeys.Sorted(extra) {
		if !written[k] && a.keys[k] == fUnknown { // a model key comes from the model only
			fields = append(fields, field{k, fUnknown, json.RawMessage(extra[k])})
		}
	}
	a.order(fields)
	return fields, bridged, true
}

// addCommand writes the command, wrapped in cmd /c for a Windows target when
// the client spawns without a shell.
func (e *encoder) addCommand(s canonical.Server, command string, args []string, add func(string, fieldKind, any)) {
	f := e.a.spec.Fields
	if e.opts.OS == "windows" && e.a.spec.WindowsCmd {
		var wrapped bool
		if command, args, wrapped = winshim.Wrap(command, args); wrapped {
			if bad := winshim.Unsafe(args); len(bad) > 0 {
				e.warn(s, "args", "", "%s on Windows starts %s through cmd /c, which reads %q as its own syntax (& | < > ^ %% \"): "+
					"the server would get a different argument; put that value in an environment variable instead", e.a.spec.DisplayName, args[1], bad[0])
			}
		}
	}
	if f.CommandArray {
		add(f.Command, fCommand, append([]string{command}, args...))
		return
	}
	add(f.Command, fCommand, command)
	if len(args) > 0 {
		if f.Args == "" {
			e.warn(s, "args", "", "%s has no args; %v is dropped", e.a.spec.DisplayName, args)
			return
		}
		add(f.Args, fArgs, args)
	}
}

func (e *encoder) oauth(s canonical.Server, o *canonical.OAuth) jsonedit.Object {
	m := e.a.spec.OAuth
	var out jsonedit.Object
	put := func(key, name string, set bool, v any) {
		if !set {
			return
		}
		if key == "" {
			e.warn(s, "oauth."+name, "", "%s has no OAuth %s; it is dropped", e.a.spec.DisplayName, name)
			return
		}
		out = append(out, jsonedit.Field{Key: key, Value: v})
	}
	put(m.ClientID, "clientId", o.ClientID != "", e.str(s, "oauth.clientId", o.ClientID))
	put(m.ClientSecret, "clientSecret", o.ClientSecret != "", e.str(s, "oauth.clientSecret", o.ClientSecret))
	if m.ScopesString {
		put(m.Scopes, "scopes", len(o.Scopes) > 0, strings.Join(o.Scopes, " "))
	} else {
		put(m.Scopes, "scopes", len(o.Scopes) > 0, o.Scopes)
	}
	put(m.CallbackPort, "callbackPort", o.CallbackPort != 0, o.CallbackPort)
	put(m.RedirectURI, "redirectUri", o.RedirectURI != "", o.RedirectURI)
	put(m.AuthServerMetadataURL, "authServerMetadataUrl", o.AuthServerMetadataURL != "", o.AuthServerMetadataURL)
	put(m.Resource, "resource", o.Resource != "", o.Resource)
	return out
}

// timeoutValue writes d in the client's unit, as an integer when it is one.
func (a *Adapter) timeoutValue(d time.Duration) any {
	unit := time.Millisecond
	if a.spec.Fields.TimeoutUnit == "s" {
		unit = time.Second
	}
	if d%unit == 0 {
		return int64(d / unit)
	}
	return json.Number(strconv.FormatFloat(float64(d)/float64(unit), 'f', -1, 64))
}

// impliedTransport is what the client reads from fields without their type.
func (a *Adapter) impliedTransport(fields []field) canonical.Transport {
	for _, f := range fields {
		switch {
		case f.kind == fCommand:
			return canonical.Stdio
		case f.kind == fURL && a.urlTransport[f.key] != "":
			return a.urlTransport[f.key]
		case f.kind == fURL:
			switch a.spec.URLWithoutType {
			case "http", "auto":
				return canonical.HTTP
			case "sse":
				return canonical.SSE
			}
			return ""
		}
	}
	return ""
}

// readBack is the transport the client reads from the entry written for tr.
func (a *Adapter) readBack(tr Transport) canonical.Transport {
	if tr.Name == canonical.Stdio {
		return canonical.Stdio
	}
	if tr.URLKey != "" && tr.URLKey != a.spec.Fields.URL {
		return tr.Name
	}
	if tr.WriteType {
		t, _ := a.transportOf(tr.Type)
		return t
	}
	switch a.spec.URLWithoutType {
	case "sse":
		return canonical.SSE
	case "invalid":
		return tr.Name // the spec must write a type then; nothing better to say
	}
	return canonical.HTTP
}

func (a *Adapter) stdioOnly() bool {
	return !a.caps.Supports(canonical.HTTP) && !a.caps.Supports(canonical.SSE)
}

func transportList(ts []canonical.Transport) string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = string(t)
	}
	return strings.Join(out, ", ")
}

// order sorts new keys: the spec's key order first, then the model's fields
// in their usual order, then unknown keys.
func (a *Adapter) order(fields []field) {
	rank := func(f field) int {
		if i := slices.Index(a.spec.KeyOrder, f.key); i >= 0 {
			return i
		}
		if f.kind == fUnknown {
			return 1 << 20
		}
		return len(a.spec.KeyOrder) + int(f.kind)
	}
	sort.SliceStable(fields, func(i, j int) bool { return rank(fields[i]) < rank(fields[j]) })
}

// group is a part of the model that is compared and rewritten as one.
type group int

const (
	gEndpoint group = iota
	gEnv
	gCwd
	gHeaders
	gEnabled
	gTools
	gTimeouts
	gOAuth
)

func groupOf(k fieldKind) group {
	switch k {
	case fEnv:
		return gEnv
	case fCwd:
		return gCwd
	case fHeaders:
		return gHeaders
	case fEnabled, fDisabled:
		return gEnabled
	case fToolsAllow, fToolsDeny:
		return gTools
	case fStartupTimeout, fToolTimeout:
		return gTimeouts
	case fOAuth:
		return gOAuth
	}
	return gEndpoint
}

func groupEqual(g group, o, s canonical.Server, bridged bool) bool {
	switch g {
	case gEndpoint:
		return o.Transport == s.Transport && o.Command == s.Command && slices.Equal(o.Args, s.Args) && o.URL == s.URL &&
			(!bridged || maps.Equal(o.Headers, s.Headers))
	case gEnv:
		return maps.Equal(o.Env, s.Env)
	case gCwd:
		return o.Cwd == s.Cwd
	case gHeaders:
		return maps.Equal(o.Headers, s.Headers)
	case gEnabled:
		return o.Disabled == s.Disabled
	case gTools:
		return slices.Equal(o.ToolsAllow, s.ToolsAllow) && slices.Equal(o.ToolsDeny, s.ToolsDeny)
	case gTimeouts:
		return o.StartupTimeout == s.StartupTimeout && o.ToolTimeout == s.ToolTimeout
	case gOAuth:
		return reflect.DeepEqual(o.Auth.OAuth, s.Auth.OAuth)
	}
	return false
}

// editEntry rewrites an existing entry key by key so that it holds s.
func (e *encoder) editEntry(old *entry, s canonical.Server, fields []field, bridged bool) {
	a, doc := e.a, e.doc
	path := append(slices.Clone(e.t.servers), old.name)
	at := func(k string) []string { return append(slices.Clone(path), k) }
	if old.node.Kind() != jsonedit.KindObject {
		e.fail(doc.Set(path, object(fields)))
		return
	}
	o := *old.srv
	oldExtra := o.Extra[a.spec.ID]
	members := old.node.Members()
	wantKeys := map[string]bool{}
	for _, f := range fields {
		wantKeys[f.key] = true
	}
	writtenTransport := s.Transport
	if bridged {
		writtenTransport = canonical.Stdio
	}
	var appendList []jsonedit.Field
	for g := gEndpoint; g <= gOAuth; g++ {
		if old.ok && groupEqual(g, o, s, bridged) {
			continue
		}
		for _, m := range members {
			kind := a.keys[m.Name]
			if kind == fUnknown || groupOf(kind) != g || wantKeys[m.Name] {
				continue
			}
			if _, aside := oldExtra[m.Name]; aside {
				continue
			}
			if kind == fType {
				if sp, ok := m.Value.Text(); ok {
					if t, ok := a.transportOf(sp); ok && t == writtenTransport {
						continue // an optional type that still says the right thing
					}
				}
			}
			_, err := doc.Delete(at(m.Name))
			e.fail(err)
		}
		for _, f := range fields {
			if f.kind == fUnknown || groupOf(f.kind) != g {
				continue
			}
			node := old.node.Get(f.key)
			switch {
			case !node.Valid() && f.kind == fType && !a.spec.TypeRequired && a.impliedTransport(fields) == writtenTransport:
				// the entry says it without a type, as the user wrote it
			case !node.Valid():
				appendList = append(appendList, jsonedit.Field{Key: f.key, Value: f.value})
			case (f.kind == fEnv || f.kind == fHeaders) && node.Kind() == jsonedit.KindObject:
				oldMap, wantMap := o.Env, s.Env
				if f.kind == fHeaders {
					oldMap, wantMap = o.Headers, s.Headers
				}
				e.syncMap(at(f.key), node, oldMap, wantMap, f.value.(map[string]string), old.ok)
			case f.kind == fOAuth && e.hasUnmodelled(node):
				e.syncOAuth(at(f.key), node, f.value.(jsonedit.Object))
			default:
				e.fail(doc.Set(at(f.key), f.value))
			}
		}
	}
	if wantExtra, ok := s.Extra[a.spec.ID]; ok {
		for _, m := range members {
			if _, aside := oldExtra[m.Name]; aside && !wantKeys[m.Name] {
				if _, still := wantExtra[m.Name]; !still {
					_, err := doc.Delete(at(m.Name))
					e.fail(err)
				}
			}
		}
		for _, f := range fields {
			if f.kind != fUnknown {
				continue
			}
			if old.node.Get(f.key).Valid() {
				e.fail(doc.Set(at(f.key), f.value))
			} else {
				appendList = append(appendList, jsonedit.Field{Key: f.key, Value: f.value})
			}
		}
	}
	e.fail(doc.Append(path, appendList...))
}

// syncMap edits env or headers name by name: values that mean the same stay
// as written, changed ones are replaced in place, gone ones removed, new
// ones added after the others.
func (e *encoder) syncMap(path []string, node jsonedit.Node, oldMap, wantMap, rendered map[string]string, trusted bool) {
	at := func(k string) []string { return append(slices.Clone(path), k) }
	seen := map[string]bool{}
	for _, m := range node.Members() {
		if seen[m.Name] {
			continue
		}
		seen[m.Name] = true
		w, ok := wantMap[m.Name]
		switch {
		case !ok:
			_, err := e.doc.Delete(at(m.Name))
			e.fail(err)
		case !trusted || oldMap[m.Name] != w:
			e.fail(e.doc.Set(at(m.Name), rendered[m.Name]))
		}
	}
	var fresh []jsonedit.Field
	for _, k := range mapkeys.Sorted(wantMap) {
		if !seen[k] {
			fresh = append(fresh, jsonedit.Field{Key: k, Value: rendered[k]})
		}
	}
	e.fail(e.doc.Append(path, fresh...))
}

// hasUnmodelled reports whether an OAuth object holds a key of the client's
// that mcpsync does not model; such an object is edited key by key, others
// are written whole.
func (e *encoder) hasUnmodelled(node jsonedit.Node) bool {
	if node.Kind() != jsonedit.KindObject {
		return false
	}
	o := e.a.spec.OAuth
	for _, m := range node.Members() {
		switch m.Name {
		case o.ClientID, o.ClientSecret, o.Scopes, o.CallbackPort, o.RedirectURI, o.AuthServerMetadataURL, o.Resource:
		default:
			return true
		}
	}
	return false
}

// syncOAuth edits the OAuth object key by key: the client's own keys that
// mcpsync does not model (Gemini's and Qwen's "enabled") stay, a setting
// that did not change stays as written.
func (e *encoder) syncOAuth(path []string, node jsonedit.Node, want jsonedit.Object) {
	o := e.a.spec.OAuth
	at := func(k string) []string { return append(slices.Clone(path), k) }
	wanted := map[string]any{}
	for _, f := range want {
		wanted[f.Key] = f.Value
	}
	modelled := map[string]bool{}
	for _, k := range []string{o.ClientID, o.ClientSecret, o.Scopes, o.CallbackPort, o.RedirectURI, o.AuthServerMetadataURL, o.Resource} {
		if k != "" {
			modelled[k] = true
		}
	}
	seen := map[string]bool{}
	for _, m := range node.Members() {
		if !modelled[m.Name] || seen[m.Name] {
			continue
		}
		seen[m.Name] = true
		v, ok := wanted[m.Name]
		if !ok {
			_, err := e.doc.Delete(at(m.Name))
			e.fail(err)
			continue
		}
		if b, err := json.Marshal(v); err != nil || !jsonSame(m.Value.JSON(), b) {
			e.fail(e.doc.Set(at(m.Name), v))
		}
	}
	var fresh []jsonedit.Field
	for _, f := range want {
		if !seen[f.Key] {
			fresh = append(fresh, f)
		}
	}
	e.fail(e.doc.Append(path, fresh...))
}

// jsonSame compares two JSON texts by value.
func jsonSame(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}
