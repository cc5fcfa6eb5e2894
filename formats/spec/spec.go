package spec

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/internal/hcldecode"
	"github.com/mcpsync/mcpsync/internal/lazyre"
)

// fileSchema is one spec file.
type fileSchema struct {
	Clients []clientSchema `hcl:"client,block"`
}

type clientSchema struct {
	ID      string    `hcl:"id,label"`
	IDRange hcl.Range `hcl:"id,label_range"`
	Def     hcl.Range `hcl:",def_range"`

	DisplayName       string         `hcl:"display_name"`
	Format            string         `hcl:"format"`
	FormatRange       hcl.Range      `hcl:"format,attr_value_range"`
	Placeholders      string         `hcl:"placeholders,optional"`
	PlaceholdersRange hcl.Range      `hcl:"placeholders,attr_value_range"`
	PlaceholderFields []string       `hcl:"placeholder_fields,optional"`
	PlaceholderFRange hcl.Range      `hcl:"placeholder_fields,attr_value_range"`
	PlaceholderScopes []string       `hcl:"placeholder_scopes,optional"`
	PlaceholderSRange hcl.Range      `hcl:"placeholder_scopes,attr_value_range"`
	Servers           hcl.Expression `hcl:"servers"`
	Quirks            string         `hcl:"quirks,optional"`
	QuirksRange       hcl.Range      `hcl:"quirks,attr_value_range"`
	WindowsCmd        bool           `hcl:"windows_cmd,optional"`
	URLWithoutType    string         `hcl:"url_without_type,optional"`
	URLWithoutRange   hcl.Range      `hcl:"url_without_type,attr_value_range"`
	TypeRequired      bool           `hcl:"type_required,optional"`
	KeyOrder          []string       `hcl:"key_order,optional"`
	AllowOutsideHome  bool           `hcl:"allow_outside_home,optional"`
	Aliases           []string       `hcl:"aliases,optional"`
	AlsoReadBy        []string       `hcl:"also_read_by,optional"`
	Precedence        []string       `hcl:"precedence,optional"`
	PrecedenceRange   hcl.Range      `hcl:"precedence,attr_value_range"`
	PrecedenceNote    string         `hcl:"precedence_note,optional"`

	Locations  []locationSchema  `hcl:"location,block"`
	Fields     *fieldsSchema     `hcl:"fields,block"`
	Transports []transportSchema `hcl:"transport,block"`
	OAuth      *oauthSchema      `hcl:"oauth,block"`
	NewFile    *newFileSchema    `hcl:"new_file,block"`
	Approved   *approvedSchema   `hcl:"approved_references,block"`
	Commands   *commandsSchema   `hcl:"command_values,block"`
	Names      *namesSchema      `hcl:"server_names,block"`
	Remote     *remoteSchema     `hcl:"replaced_remotely,block"`
}

// remoteSchema names the top-level key whose presence means the client
// replaces the file's servers with ones from elsewhere.
type remoteSchema struct {
	Def hcl.Range `hcl:",def_range"`
	Key string    `hcl:"key"`
	Why string    `hcl:"why"`
}

// namesSchema is the rule the client has for server names (Pi: letters,
// digits, "_" and "-").
type namesSchema struct {
	Pattern      string    `hcl:"pattern"`
	PatternRange hcl.Range `hcl:"pattern,attr_value_range"`
	Rule         string    `hcl:"rule"`
}

// commandsSchema says which values the client runs as a command for the
// value (Pi: a leading "!" in env and headers).
type commandsSchema struct {
	Def         hcl.Range `hcl:",def_range"`
	Prefix      string    `hcl:"prefix"`
	Literal     string    `hcl:"literal"`
	Fields      []string  `hcl:"fields"`
	FieldsRange hcl.Range `hcl:"fields,attr_value_range"`
}

// approvedSchema names the client's own settings file that lists the
// variables it is allowed to expand (Kiro's kiroAgent.mcpApprovedEnvVars).
type approvedSchema struct {
	Def  hcl.Range      `hcl:",def_range"`
	Path hcl.Expression `hcl:"path"`
	Key  string         `hcl:"key"`
	How  string         `hcl:"how,optional"`
}

type locationSchema struct {
	Scope       string         `hcl:"scope,label"`
	ScopeRange  hcl.Range      `hcl:"scope,label_range"`
	Def         hcl.Range      `hcl:",def_range"`
	OS          []string       `hcl:"os,optional"`
	OSRange     hcl.Range      `hcl:"os,attr_value_range"`
	Path        hcl.Expression `hcl:"path"`
	Servers     hcl.Expression `hcl:"servers,optional"`
	Format      string         `hcl:"format,optional"`
	FormatRange hcl.Range      `hcl:"format,attr_value_range"`
	ReadOnly    bool           `hcl:"read_only,optional"`
	Alternative bool           `hcl:"alternative,optional"`
	Note        string         `hcl:"note,optional"`
	ShadowedBy  hcl.Expression `hcl:"shadowed_by,optional"`
	ShadowNote  string         `hcl:"shadow_note,optional"`
}

type fieldsSchema struct {
	Type           string    `hcl:"type,optional"`
	Command        string    `hcl:"command,optional"`
	CommandArray   bool      `hcl:"command_array,optional"`
	Args           string    `hcl:"args,optional"`
	Env            string    `hcl:"env,optional"`
	Cwd            string    `hcl:"cwd,optional"`
	URL            string    `hcl:"url,optional"`
	URLAliases     []string  `hcl:"url_aliases,optional"`
	Headers        string    `hcl:"headers,optional"`
	Enabled        string    `hcl:"enabled,optional"`
	Disabled       string    `hcl:"disabled,optional"`
	DisabledRange  hcl.Range `hcl:"disabled,attr_value_range"`
	ToolsAllow     string    `hcl:"tools_allow,optional"`
	ToolsDeny      string    `hcl:"tools_deny,optional"`
	StartupTimeout string    `hcl:"startup_timeout,optional"`
	ToolTimeout    string    `hcl:"tool_timeout,optional"`
	TimeoutUnit    string    `hcl:"timeout_unit,optional"`
	TimeoutRange   hcl.Range `hcl:"timeout_unit,attr_value_range"`
}

type transportSchema struct {
	Name        string    `hcl:"name,label"`
	NameRange   hcl.Range `hcl:"name,label_range"`
	Type        string    `hcl:"type,optional"`
	WriteType   *bool     `hcl:"write_type,optional"`
	Aliases     []string  `hcl:"aliases,optional"`
	URLKey      string    `hcl:"url_key,optional"`
	ReadURLKeys []string  `hcl:"read_url_keys,optional"`
}

type oauthSchema struct {
	Key                   string `hcl:"key"`
	ClientID              string `hcl:"client_id,optional"`
	ClientSecret          string `hcl:"client_secret,optional"`
	Scopes                string `hcl:"scopes,optional"`
	ScopesString          bool   `hcl:"scopes_as_string,optional"`
	CallbackPort          string `hcl:"callback_port,optional"`
	RedirectURI           string `hcl:"redirect_uri,optional"`
	AuthServerMetadataURL string `hcl:"auth_server_metadata_url,optional"`
	Resource              string `hcl:"resource,optional"`
}

type newFileSchema struct {
	Schema       string `hcl:"schema,optional"`
	FinalNewline *bool  `hcl:"final_newline,optional"`
	Indent       string `hcl:"indent,optional"`
}

// Spec is one client, as read from its spec file.
type Spec struct {
	ID          string
	DisplayName string
	Format      formats.Format
	Dialect     canonical.Dialect
	// PlaceholderFields, when set, are the only fields whose references the
	// client expands (command, args, env, cwd, url, headers); elsewhere a
	// reference reaches the server as text.
	PlaceholderFields []string
	// PlaceholderScopes, when set, are the only scopes whose files the
	// client expands references in (Kilo drops a project file that holds
	// one).
	PlaceholderScopes []string
	// Approved, when set, is the client's settings file whose list of
	// approved variables is the only ones it expands (Kiro): a reference
	// to any other reaches the server as text.
	Approved *Approved
	// Commands, when set, are the values the client runs as a command to
	// get the value (Pi's "!op read ..."): mcpsync writes a value that
	// starts with the prefix in the client's spelling of a literal one, and
	// does not import an entry whose value is a command (another client
	// would get its text).
	Commands *CommandValues
	// Names, when set, is the only server names the client accepts; a
	// server with another name is not written.
	Names *NameRule
	// Remote, when set, is the top-level key that, while it is in a file,
	// has the client replace the file's servers with ones from elsewhere
	// (formats.RemoteManaged).
	Remote *RemoteKey
	// Quirks names the Go hooks the client needs ("" for none).
	Quirks string
	// WindowsCmd: on a Windows target, npx-style commands are written as
	// cmd /c npx ..., because the client spawns without a shell.
	WindowsCmd bool
	// URLWithoutType is what a url with no type means: "http", "sse",
	// "auto" (the client detects it; read as http) or "invalid" (the client
	// skips the server).
	URLWithoutType string
	// TypeRequired: an entry without a type is skipped, command or not (OpenCode).
	TypeRequired bool
	Fields       Fields
	// Transports in the order the spec gives them.
	Transports []Transport
	OAuth      *OAuthFields
	NewFile    NewFile
	// KeyOrder orders the keys of a new entry; keys it does not list follow
	// in the order of Fields, then unknown keys.
	KeyOrder  []string
	Locations []LocationSpec
	// AllowOutsideHome lets a plugin write files outside the user's home
	// (and the project). A plugin is a file anyone who can write the
	// plugin directory controls; without it, its files elsewhere (under
	// /etc, say) are read-only for mcpsync.
	AllowOutsideHome bool
	// Plugin says the spec came from the user's clients.d, not the binary.
	Plugin bool
	// Aliases are other names users type for the client ("claude").
	Aliases []string
	// AlsoReadBy names other programs that read the client's files in its
	// spelling (VS Code's Copilot harness reads Copilot CLI's): warnings
	// about what the client would skip name them too.
	AlsoReadBy []string
	// Precedence is the client's documented order for a server name in
	// several scopes, the winning scope first; PrecedenceNote says it in a
	// sentence. Empty: not documented.
	Precedence     []canonical.Scope
	PrecedenceNote string

	servers hcl.Expression
	// File is where the spec was read: "builtin/cursor.hcl" or a plugin path.
	File string
	// Source is the spec file's text.
	Source []byte
}

// Fields are the keys the client uses; "" means the client has no such field.
type Fields struct {
	Type, Command, Args, Env, Cwd, URL, Headers string
	// CommandArray: the command is one array [command, args...] (OpenCode).
	CommandArray bool
	// URLAliases are other keys read as the url (Windsurf reads url and serverUrl).
	URLAliases []string
	// Enabled or Disabled is the key of the on/off flag (at most one).
	Enabled, Disabled           string
	ToolsAllow, ToolsDeny       string
	StartupTimeout, ToolTimeout string
	TimeoutUnit                 string // "ms" or "s"
}

// Transport is how one transport is spelled.
type Transport struct {
	Name canonical.Transport
	// Type is written in the type field; Aliases are read as this transport too.
	Type    string
	Aliases []string
	// WriteType says whether the type is written (Cursor leaves it out for stdio).
	WriteType bool
	// URLKey holds the url for this transport when it is not Fields.URL
	// (Qwen Code: httpUrl for streamable HTTP).
	URLKey string
	// ReadURLKeys are further keys whose presence means this transport (Gemini: httpUrl).
	ReadURLKeys []string
}

// OAuthFields maps the canonical OAuth settings to the client's keys inside
// the object at Key.
type OAuthFields struct {
	Key                                          string
	ClientID, ClientSecret, Scopes, CallbackPort string
	RedirectURI, AuthServerMetadataURL, Resource string
	// ScopesString writes the scopes as one space-separated string (Claude Code).
	ScopesString bool
}

// NewFile is how a file mcpsync creates starts.
type NewFile struct {
	// Schema is written first as "$schema" (OpenCode rewrites files without one).
	Schema       string
	FinalNewline bool
	Indent       string
}

// LocationSpec is one file of one scope, on some operating systems.
type LocationSpec struct {
	Scope       canonical.Scope
	OS          []string // empty: every OS
	Format      formats.Format
	ReadOnly    bool
	Alternative bool
	Note        string
	// ShadowNote says why the file is not read while the file at
	// shadowedBy exists (the client reads that one instead).
	ShadowNote string
	path       hcl.Expression
	servers    hcl.Expression // nil: the client's
	shadowedBy hcl.Expression // nil: none
}

// Capabilities derives what the client can express from its fields.
func (s *Spec) Capabilities() formats.Capabilities {
	c := formats.Capabilities{
		Headers:     s.Fields.Headers != "",
		Cwd:         s.Fields.Cwd != "",
		Disabled:    s.Fields.Enabled != "" || s.Fields.Disabled != "",
		ToolFilters: s.Fields.ToolsAllow != "" || s.Fields.ToolsDeny != "",
		Timeouts:    s.Fields.StartupTimeout != "" || s.Fields.ToolTimeout != "",
		OAuth:       s.OAuth != nil,
		Comments:    s.Format != formats.JSON,
		Dialect:     s.Dialect.Name,
	}
	for _, t := range s.Transports {
		c.Transports = append(c.Transports, t.Name)
	}
	return c
}

// Transport returns how t is spelled, and whether the client has it.
func (s *Spec) Transport(t canonical.Transport) (Transport, bool) {
	for _, x := range s.Transports {
		if x.Name == t {
			return x, true
		}
	}
	return Transport{}, false
}

var idPattern = lazyre.New(`^[a-z0-9][a-z0-9-]*$`)

// Parse reads the spec file src (named file in diagnostics) and returns its
// clients. Every problem is a diagnostic with file:line:col; a client with
// problems is left out and the others are returned.
func Parse(file string, src []byte) ([]*Spec, canonical.Diagnostics) {
	fs, hdiags := decodeSchema(file, src)
	if hdiags.HasErrors() {
		return nil, fromHCL(hdiags)
	}
	var out []*Spec
	var diags canonical.Diagnostics
	for i := range fs.Clients {
		s, ds := build(&fs.Clients[i], file, src, true)
		diags = append(diags, ds...)
		if !ds.HasErrors() {
			out = append(out, s)
		}
	}
	if len(fs.Clients) == 0 {
		d := canonical.Errorf("no client block")
		d.Detail = `a spec file describes clients: client "my-editor" { ... }; see mcpsync clients --spec cursor`
		diags = append(diags, d.At(canonical.Pos{File: file, Line: 1, Column: 1}))
	}
	return out, diags
}

// decodeSchema parses src and decodes it into the schema: what Parse
// builds specs from, and what builtin_gen.go holds of the built-in ones.
func decodeSchema(file string, src []byte) (fileSchema, hcl.Diagnostics) {
	var fs fileSchema
	f, diags := hclparse.NewParser().ParseHCL(src, file)
	if diags.HasErrors() {
		return fs, diags
	}
	return fs, decodeSchemaBody(f.Body, &fs)
}

// decodeSchemaBody decodes a parsed spec file into fs.
func decodeSchemaBody(body hcl.Body, fs *fileSchema) hcl.Diagnostics { return hcldecode.Body(body, fs) }

// checker accumulates spec problems with their place.
type checker struct{ diags canonical.Diagnostics }

func (c *checker) errf(r hcl.Range, detail, format string, args ...any) {
	d := canonical.Errorf(format, args...)
	d.Detail = detail
	c.diags = append(c.diags, d.At(pos(r)))
}

func pos(r hcl.Range) canonical.Pos {
	return canonical.Pos{File: r.Filename, Line: r.Start.Line, Column: r.Start.Column}
}

func oneOf(v string, allowed ...string) bool { return slices.Contains(allowed, v) }

// build makes the spec c describes and checks it. With verify false its
// expressions are not evaluated to check them (checkExpr), nor its id
// matched against the pattern (a regular expression compiled on first
// use): a built-in spec's schema decoded ahead (builtin_gen.go) builds
// without a diagnostic (TestBuiltinGenBuildsWhatParseMakes checks it with
// them), and evaluating every path and key list of a spec on first use
// was a third of building it.
func build(c *clientSchema, file string, src []byte, verify bool) (*Spec, canonical.Diagnostics) {
	var ck checker
	s := &Spec{
		ID: c.ID, DisplayName: c.DisplayName, Format: formats.Format(c.Format), Quirks: c.Quirks,
		WindowsCmd: c.WindowsCmd, URLWithoutType: c.URLWithoutType, TypeRequired: c.TypeRequired, KeyOrder: c.KeyOrder, AllowOutsideHome: c.AllowOutsideHome,
		servers: c.Servers, File: file, Source: src, Aliases: c.Aliases, AlsoReadBy: c.AlsoReadBy, PrecedenceNote: c.PrecedenceNote,
	}
	for _, sc := range c.Precedence {
		if !oneOf(sc, string(canonical.ScopeManaged), string(canonical.ScopeLocal), string(canonical.ScopeProject), string(canonical.ScopeUser)) {
			ck.errf(c.PrecedenceRange, "list scopes: managed, local, project, user, the winning one first", "unknown scope %q in precedence", sc)
			continue
		}
		s.Precedence = append(s.Precedence, canonical.Scope(sc))
	}
	if verify && !idPattern.Get().MatchString(c.ID) {
		ck.errf(c.IDRange, "use lowercase letters, digits and hyphens, like \"my-editor\"", "invalid client id %q", c.ID)
	}
	if !oneOf(c.Format, string(formats.JSON), string(formats.JSONC), string(formats.JSONComments)) {
		ck.errf(c.FormatRange, `a spec describes a JSON-family file: "json" (strict), "jsonc" (comments and trailing commas) or "json-comments" (comments only); TOML and YAML clients need a Go adapter`,
			"unsupported format %q", c.Format)
	}
	if c.Placeholders == "" {
		c.Placeholders = canonical.DialectNone.Name
	}
	d, ok := canonical.Dialects[c.Placeholders]
	if !ok {
		ck.errf(c.PlaceholdersRange, "known placeholder syntaxes: "+strings.Join(dialectNames(), ", "), "unknown placeholders %q", c.Placeholders)
	}
	s.Dialect = d
	for _, f := range c.PlaceholderFields {
		if !oneOf(f, "command", "args", "env", "cwd", "url", "headers") {
			ck.errf(c.PlaceholderFRange, "name fields of the model: command, args, env, cwd, url, headers", "placeholder_fields: unknown field %q", f)
		}
	}
	s.PlaceholderFields = c.PlaceholderFields
	for _, sc := range c.PlaceholderScopes {
		if !oneOf(sc, "user", "project", "local", "managed") {
			ck.errf(c.PlaceholderSRange, "name scopes: user, project, local, managed", "placeholder_scopes: unknown scope %q", sc)
		}
	}
	s.PlaceholderScopes = c.PlaceholderScopes
	if s.URLWithoutType == "" {
		s.URLWithoutType = "auto"
	}
	if !oneOf(s.URLWithoutType, "http", "sse", "auto", "invalid") {
		ck.errf(c.URLWithoutRange, `say what the client does with a url and no type: "http", "sse", "auto" (it detects) or "invalid" (it skips the server)`,
			"unknown url_without_type %q", s.URLWithoutType)
	}
	if c.Fields == nil {
		ck.errf(c.Def, `add a fields block naming the client's keys, e.g. fields { command = "command" }`, "client %q has no fields block", c.ID)
	} else {
		f := c.Fields
		s.Fields = Fields{
			Type: f.Type, Command: f.Command, CommandArray: f.CommandArray, Args: f.Args, Env: f.Env, Cwd: f.Cwd,
			URL: f.URL, URLAliases: f.URLAliases, Headers: f.Headers, Enabled: f.Enabled, Disabled: f.Disabled,
			ToolsAllow: f.ToolsAllow, ToolsDeny: f.ToolsDeny, StartupTimeout: f.StartupTimeout,
			ToolTimeout: f.ToolTimeout, TimeoutUnit: f.TimeoutUnit,
		}
		if f.Enabled != "" && f.Disabled != "" {
			ck.errf(f.DisabledRange, "a client has either an enabled flag or a disabled flag; keep one", "both enabled and disabled are set")
		}
		if s.Fields.TimeoutUnit == "" {
			s.Fields.TimeoutUnit = "ms"
		}
		if !oneOf(s.Fields.TimeoutUnit, "ms", "s") {
			ck.errf(f.TimeoutRange, `use "ms" or "s"`, "unknown timeout_unit %q", s.Fields.TimeoutUnit)
		}
		if f.CommandArray && f.Args != "" {
			ck.errf(c.Def, "with command_array the arguments are in the command array", "command_array and args are both set")
		}
	}
	seen := map[string]bool{}
	for _, t := range c.Transports {
		tr := Transport{Name: canonical.Transport(t.Name), Type: t.Type, Aliases: t.Aliases, WriteType: t.WriteType == nil || *t.WriteType,
			URLKey: t.URLKey, ReadURLKeys: t.ReadURLKeys}
		if !tr.Name.Valid() {
			ck.errf(t.NameRange, `transports are "stdio", "http" (streamable HTTP) and "sse"`, "unknown transport %q", t.Name)
		}
		if seen[t.Name] {
			ck.errf(t.NameRange, "describe each transport once", "transport %q is described twice", t.Name)
		}
		seen[t.Name] = true
		if tr.Type == "" {
			tr.WriteType = false
		}
		if tr.Name == canonical.Stdio && s.Fields.Command == "" && c.Fields != nil {
			ck.errf(t.NameRange, `name the key of the command in fields: command = "command"`, "stdio transport without a command field")
		}
		if tr.Name.IsRemote() && tr.URLKey == "" && s.Fields.URL == "" && c.Fields != nil {
			ck.errf(t.NameRange, `name the key of the url in fields (url = "url") or in the transport (url_key = "...")`, "%s transport without a url field", t.Name)
		}
		if tr.Type != "" && s.Fields.Type == "" && c.Fields != nil {
			ck.errf(t.NameRange, `name the key of the type in fields: type = "type"`, "transport %q has a type spelling but the client has no type field", t.Name)
		}
		s.Transports = append(s.Transports, tr)
	}
	if len(c.Transports) == 0 {
		ck.errf(c.Def, `add at least transport "stdio" { }`, "client %q has no transport", c.ID)
	}
	if o := c.OAuth; o != nil {
		s.OAuth = &OAuthFields{Key: o.Key, ClientID: o.ClientID, ClientSecret: o.ClientSecret, Scopes: o.Scopes,
			ScopesString: o.ScopesString, CallbackPort: o.CallbackPort, RedirectURI: o.RedirectURI,
			AuthServerMetadataURL: o.AuthServerMetadataURL, Resource: o.Resource}
	}
	s.NewFile = NewFile{FinalNewline: true, Indent: "  "}
	if ap := c.Approved; ap != nil {
		if ap.Key == "" {
			ck.errf(ap.Def, `name the setting that lists the approved variables, as key = "section.name"`, "approved_references: key is empty")
		}
		s.Approved = &Approved{path: ap.Path, Key: ap.Key, How: ap.How}
	}
	if cv := c.Commands; cv != nil {
		if cv.Prefix == "" || cv.Literal == "" || cv.Literal == cv.Prefix {
			ck.errf(cv.Def, `give the prefix that marks a command and how the client spells it as a literal, as prefix = "!" and literal = "!!"`,
				"command_values: prefix and literal must be given, and differ")
		}
		for _, f := range cv.Fields {
			if !oneOf(f, "args", "env", "cwd", "url", "headers", "oauth.clientId", "oauth.clientSecret") {
				ck.errf(cv.FieldsRange, `list model fields: "env", "headers", "oauth.clientSecret", ...`, "command_values: unknown field %q", f)
			}
		}
		s.Commands = &CommandValues{Prefix: cv.Prefix, Literal: cv.Literal, Fields: cv.Fields}
	}
	if rk := c.Remote; rk != nil {
		if rk.Key == "" || rk.Why == "" {
			ck.errf(rk.Def, `name the key and say what the client does while it is there: key = "...", why = "..."`, "replaced_remotely: key and why must be given")
		}
		s.Remote = &RemoteKey{Key: rk.Key, Why: rk.Why}
	}
	if nr := c.Names; nr != nil {
		re, err := regexp.Compile(nr.Pattern)
		if err != nil {
			ck.errf(nr.PatternRange, "write a Go regular expression, such as \"^[A-Za-z0-9_-]+$\"", "server_names: %v", err)
		} else {
			s.Names = &NameRule{Pattern: re, Rule: nr.Rule}
		}
	}
	if nf := c.NewFile; nf != nil {
		s.NewFile.Schema = nf.Schema
		if nf.FinalNewline != nil {
			s.NewFile.FinalNewline = *nf.FinalNewline
		}
		if nf.Indent != "" {
			s.NewFile.Indent = nf.Indent
		}
	}
	for _, l := range c.Locations {
		ls := LocationSpec{Scope: canonical.Scope(l.Scope), OS: l.OS, Format: s.Format, ReadOnly: l.ReadOnly,
			Alternative: l.Alternative, Note: l.Note, path: l.Path}
		if !oneOf(l.Scope, string(canonical.ScopeUser), string(canonical.ScopeProject), string(canonical.ScopeLocal), string(canonical.ScopeManaged)) {
			ck.errf(l.ScopeRange, `scopes are "user", "project", "local" and "managed"`, "unknown scope %q", l.Scope)
		}
		for _, o := range l.OS {
			if !oneOf(o, "linux", "darwin", "windows") {
				ck.errf(l.OSRange, `operating systems are "linux", "darwin" and "windows"`, "unknown os %q", o)
			}
		}
		if l.Format != "" {
			ls.Format = formats.Format(l.Format)
			if !oneOf(l.Format, string(formats.JSON), string(formats.JSONC), string(formats.JSONComments)) {
				ck.errf(l.FormatRange, `use "json", "jsonc" or "json-comments"`, "unsupported format %q", l.Format)
			}
		}
		if !isNull(l.Servers) {
			ls.servers = l.Servers
		}
		if !isNull(l.ShadowedBy) {
			ls.shadowedBy, ls.ShadowNote = l.ShadowedBy, l.ShadowNote
			if verify {
				ck.diags = append(ck.diags, checkExpr(l.ShadowedBy, cty.String)...)
			}
		}
		if verify {
			ck.diags = append(ck.diags, checkExpr(l.Path, cty.String)...)
			if ls.servers != nil {
				ck.diags = append(ck.diags, checkExpr(ls.servers, cty.List(cty.String))...)
			}
		}
		s.Locations = append(s.Locations, ls)
	}
	if len(c.Locations) == 0 {
		ck.errf(c.Def, `add where the client keeps its servers: location "user" { path = "${home}/.my-editor/mcp.json" }`, "client %q has no location", c.ID)
	}
	if verify {
		ck.diags = append(ck.diags, checkExpr(c.Servers, cty.List(cty.String))...)
	}
	return s, ck.diags
}

func dialectNames() []string {
	var out []string
	for n := range canonical.Dialects {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

func fromHCL(hd hcl.Diagnostics) canonical.Diagnostics {
	var out canonical.Diagnostics
	for _, h := range hd {
		d := &canonical.Diagnostic{Severity: canonical.Error, Summary: h.Summary, Detail: h.Detail}
		if h.Severity == hcl.DiagWarning {
			d.Severity = canonical.Warning
		}
		if h.Subject != nil {
			d.At(pos(*h.Subject))
		}
		out = append(out, d)
	}
	return out
}

func isNull(e hcl.Expression) bool {
	if e == nil {
		return true
	}
	if len(e.Variables()) > 0 {
		return false
	}
	v, diags := e.Value(nil)
	return !diags.HasErrors() && v.IsNull()
}

// String describes the spec for error messages.
func (s *Spec) String() string { return fmt.Sprintf("client %q (%s)", s.ID, s.File) }

// Known reports whether key is one of the client's keys for a part of the
// model (a field, a url alias or transport url key, the OAuth object), as
// opposed to a key kept verbatim in Extra. Hooks that write a whole entry
// use it to keep the user's other keys.
func (s *Spec) Known(key string) bool {
	if key == "" {
		return false
	}
	f := s.Fields
	for _, k := range []string{f.Type, f.Command, f.Args, f.Env, f.Cwd, f.URL, f.Headers, f.Enabled, f.Disabled,
		f.ToolsAllow, f.ToolsDeny, f.StartupTimeout, f.ToolTimeout} {
		if k == key {
			return true
		}
	}
	if slices.Contains(f.URLAliases, key) || (s.OAuth != nil && s.OAuth.Key == key) {
		return true
	}
	for _, t := range s.Transports {
		if t.URLKey == key || slices.Contains(t.ReadURLKeys, key) {
			return true
		}
	}
	return false
}

// DialectFor is the placeholder syntax the client expands in a field of
// the model ("env.API_KEY", "args[2]", "url"): its dialect, or none where
// placeholder_fields leaves the field out.
func (s *Spec) DialectFor(field string, scope canonical.Scope) canonical.Dialect {
	return s.dialect(s.expands(field, scope))
}

// expands reports whether the client expands references in field at
// scope: DialectFor is then the spec's dialect, else DialectNone.
func (s *Spec) expands(field string, scope canonical.Scope) bool {
	if len(s.PlaceholderScopes) > 0 && !slices.Contains(s.PlaceholderScopes, string(scope)) {
		return false
	}
	if len(s.PlaceholderFields) == 0 {
		return true
	}
	name := field
	if i := strings.IndexAny(name, ".["); i >= 0 {
		name = name[:i]
	}
	return slices.Contains(s.PlaceholderFields, name)
}

// dialect is DialectFor of a field for which expands said e.
func (s *Spec) dialect(e bool) canonical.Dialect {
	if e {
		return s.Dialect
	}
	return canonical.DialectNone
}

// RemoteKey is the replaced_remotely block: Why says, in a sentence, what
// the client does while Key is at the top of its file.
type RemoteKey struct{ Key, Why string }

// NameRule is the server_names block.
type NameRule struct {
	Pattern *regexp.Regexp
	// Rule says the pattern in words: "letters, digits, _ and -".
	Rule string
}

// CommandValues is the command_values block: a value of one of Fields
// that starts with Prefix is a command the client runs for the value;
// Literal at the start of a value is a Prefix that is not one ("$!" in Pi,
// where "$!" is an escaped "!").
type CommandValues struct {
	Prefix, Literal string
	// Fields are model fields: "env", "headers", "oauth.clientSecret".
	Fields []string
}

// commandField says whether a value of the model field (env.K,
// headers.K, oauth.clientSecret) is run as a command by the client.
func (s *Spec) commandField(field string) bool {
	c := s.Commands
	if c == nil {
		return false
	}
	for _, f := range c.Fields {
		if field == f || strings.HasPrefix(field, f+".") || strings.HasPrefix(field, f+"[") {
			return true
		}
	}
	return false
}

// Approved is the approved_references block: where the client keeps its
// list of variables it may expand.
type Approved struct {
	path hcl.Expression
	Key  string
	How  string
}
