package canonical

import (
	"strings"
)

// SegmentKind says what a piece of a Template is.
type SegmentKind int

const (
	// Literal is plain text.
	Literal SegmentKind = iota
	// EnvRef is a reference to an environment variable, with an optional default.
	EnvRef
	// InputRef is a VS Code style prompt input (${input:id}).
	InputRef
	// Builtin is an editor variable such as ${workspaceFolder} or ${userHome}.
	Builtin
)

// Builtin variable names understood across clients.
const (
	BuiltinWorkspaceFolder         = "workspaceFolder"
	BuiltinWorkspaceFolderBasename = "workspaceFolderBasename"
	BuiltinUserHome                = "userHome"
	BuiltinPathSeparator           = "pathSeparator"
)

var builtinNames = map[string]string{
	"workspaceFolder":         BuiltinWorkspaceFolder,
	"workspaceFolderBasename": BuiltinWorkspaceFolderBasename,
	"userHome":                BuiltinUserHome,
	"pathSeparator":           BuiltinPathSeparator,
	"/":                       BuiltinPathSeparator,
}

// A Segment is one piece of a string: literal text or a reference.
type Segment struct {
	Kind SegmentKind
	// Text is the literal text, or for a reference the text it was read from.
	Text string
	// Name is the variable, input id or builtin name of a reference.
	Name string
	// Default is used when the variable is unset, if HasDefault.
	Default    string
	HasDefault bool
	// Foreign marks a reference spelled in a syntax the dialect it was read
	// in does not expand (for example ${VAR} in a Cursor file). It is still
	// read as a reference, because that is what the user meant; the adapter
	// warns that the client itself would have passed it on literally.
	Foreign bool
}

// A Template is a string split into literal text and references.
type Template []Segment

// EnvStyle is how a dialect spells an environment reference.
type EnvStyle string

const (
	EnvNone     EnvStyle = ""          // nothing is expanded (Codex, Claude Desktop)
	EnvDollar   EnvStyle = "dollar"    // ${VAR}
	EnvColon    EnvStyle = "env-colon" // ${env:VAR}
	EnvBrace    EnvStyle = "brace-env" // {env:VAR}
	EnvContinue EnvStyle = "continue"  // ${{ secrets.VAR }}
)

// A Dialect is the placeholder syntax one client expands.
type Dialect struct {
	Name string
	Env  EnvStyle
	// Defaults: ${VAR:-default} is expanded (only with EnvDollar).
	Defaults bool
	// BareDollar: $VAR is expanded too (Gemini, Qwen).
	BareDollar bool
	// Inputs: ${input:id} prompts are supported (VS Code).
	Inputs bool
	// Builtins maps a builtin name to how the dialect spells it; a builtin
	// missing from the map cannot be expressed.
	Builtins map[string]string
}

var editorBuiltins = map[string]string{
	BuiltinWorkspaceFolder:         "${workspaceFolder}",
	BuiltinWorkspaceFolderBasename: "${workspaceFolderBasename}",
	BuiltinUserHome:                "${userHome}",
	BuiltinPathSeparator:           "${pathSeparator}",
}

// The dialects of the known clients. Client specs name them by Name.
var (
	DialectCanonical = Dialect{Name: "canonical", Env: EnvDollar, Defaults: true, Inputs: true, Builtins: editorBuiltins}
	// DialectDollar is Claude Code's: ${VAR} and ${VAR:-default}.
	DialectDollar = Dialect{Name: "dollar", Env: EnvDollar, Defaults: true,
		Builtins: map[string]string{BuiltinUserHome: "${HOME}"}}
	// DialectShell is Gemini CLI's: $VAR, ${VAR}, ${VAR:-default}.
	DialectShell = Dialect{Name: "shell", Env: EnvDollar, Defaults: true, BareDollar: true,
		Builtins: map[string]string{BuiltinUserHome: "${HOME}"}}
	// DialectShellNoDefault is Qwen Code's: $VAR and ${VAR}, no defaults.
	DialectShellNoDefault = Dialect{Name: "shell-no-default", Env: EnvDollar, BareDollar: true,
		Builtins: map[string]string{BuiltinUserHome: "${HOME}"}}
	// DialectBraced is Amp's: ${VAR} only (no $VAR, no defaults; a
	// ${VAR:-default} reaches the server as it is written).
	DialectBraced = Dialect{Name: "braced", Env: EnvDollar,
		Builtins: map[string]string{BuiltinUserHome: "${HOME}"}}
	// DialectEnvColon is Cursor's, Windsurf's and Roo Code's: ${env:VAR} plus editor variables.
	DialectEnvColon = Dialect{Name: "env-colon", Env: EnvColon, Builtins: editorBuiltins}
	// DialectVSCode is DialectEnvColon with ${input:id} prompts.
	DialectVSCode = Dialect{Name: "vscode", Env: EnvColon, Inputs: true, Builtins: editorBuiltins}
	// DialectBraceEnv is OpenCode's: {env:VAR}.
	DialectBraceEnv = Dialect{Name: "brace-env", Env: EnvBrace,
		Builtins: map[string]string{BuiltinUserHome: "{env:HOME}"}}
	// DialectContinue is Continue's: ${{ secrets.VAR }} and ${{ inputs.VAR }}.
	DialectContinue = Dialect{Name: "continue", Env: EnvContinue, Inputs: true}
	// DialectNone expands nothing (Codex, Claude Desktop).
	DialectNone = Dialect{Name: "none"}
)

// Dialects lists the known dialects by name.
var Dialects = map[string]Dialect{}

func init() {
	for _, d := range []Dialect{DialectCanonical, DialectDollar, DialectShell, DialectShellNoDefault, DialectBraced,
		DialectEnvColon, DialectVSCode, DialectBraceEnv, DialectContinue, DialectNone} {
		Dialects[d.Name] = d
	}
}

// WithDefault spells a reference to the variable name that falls back to
// value when it is unset, as d writes it (${NAME:-value}); false when d has
// no syntax for a default (Cursor's ${env:NAME}, Codex, which expands
// nothing), so that a hint never suggests what the file cannot hold.
func (d Dialect) WithDefault(name, value string) (string, bool) {
	if !d.Defaults || d.Env != EnvDollar {
		return "", false
	}
	return "${" + name + ":-" + value + "}", true
}

// native reports whether a reference spelled in style st is expanded by d.
func (d Dialect) native(st EnvStyle) bool { return d.Env == st && st != EnvNone }

// Parse splits s into literal text and references. Every reference syntax
// any client uses is recognised; those that dialect d would not expand are
// marked Foreign. $VAR without braces is a reference only in dialects that
// expand it, since elsewhere it is ordinary text (a shell snippet in args).
// Parse never fails: text that is not a well-formed reference is literal.
func Parse(s string, d Dialect) Template {
	if !strings.ContainsAny(s, "${") {
		if s == "" {
			return nil
		}
		return Template{{Kind: Literal, Text: s}}
	}
	// Room for the usual "${VAR}" and "Bearer ${VAR}": grown from nothing,
	// the list was made twice (a tenth of Parse, which an export of 10,000
	// servers runs some 60,000 times).
	t := make(Template, 0, 2)
	lit := 0 // where the literal text before the next reference starts
	flush := func(end int) {
		if end > lit {
			t = append(t, Segment{Kind: Literal, Text: s[lit:end]}) // a part of s, not a copy
		}
	}
	for i := 0; i < len(s); {
		if seg, n := parseRef(s[i:], d); n > 0 {
			flush(i)
			t = append(t, seg)
			i += n
			lit = i
			continue
		}
		i++
	}
	flush(len(s))
	return t
}

// parseRef reads one reference at the start of s and returns it with its
// length, or a zero length when s does not start with a reference.
func parseRef(s string, d Dialect) (Segment, int) {
	switch {
	case strings.HasPrefix(s, "${{"):
		end := strings.Index(s, "}}")
		if end < 0 {
			return Segment{}, 0
		}
		inner := strings.TrimSpace(s[3:end])
		raw := s[:end+2]
		for _, p := range []struct {
			prefix string
			kind   SegmentKind
		}{{"secrets.", EnvRef}, {"inputs.", InputRef}} {
			if name, ok := strings.CutPrefix(inner, p.prefix); ok && IsVarName(name) {
				return Segment{Kind: p.kind, Text: raw, Name: name, Foreign: d.Env != EnvContinue}, len(raw)
			}
		}
		return Segment{}, 0
	case strings.HasPrefix(s, "${"):
		end := strings.IndexByte(s, '}')
		if end < 0 {
			return Segment{}, 0
		}
		inner, raw := s[2:end], s[:end+1]
		if name, ok := strings.CutPrefix(inner, "env:"); ok && IsVarName(name) {
			return Segment{Kind: EnvRef, Text: raw, Name: name, Foreign: !d.native(EnvColon)}, len(raw)
		}
		// An id never holds "${": "${input:${A}" is text before a reference.
		if id, ok := strings.CutPrefix(inner, "input:"); ok && id != "" && !strings.ContainsAny(id, " \t${") {
			return Segment{Kind: InputRef, Text: raw, Name: id, Foreign: !d.Inputs}, len(raw)
		}
		if b, ok := builtinNames[inner]; ok {
			_, supported := d.Builtins[b]
			return Segment{Kind: Builtin, Text: raw, Name: b, Foreign: !supported}, len(raw)
		}
		name, def, hasDef := strings.Cut(inner, ":-")
		// A default holding "${" would be a nested reference, which no
		// client expands; reading it as text up to the first "}" would
		// swallow the inner reference, so the whole thing stays literal.
		if !IsVarName(name) || strings.Contains(def, "${") {
			return Segment{}, 0
		}
		return Segment{Kind: EnvRef, Text: raw, Name: name, Default: def, HasDefault: hasDef,
			Foreign: !d.native(EnvDollar) || (hasDef && !d.Defaults)}, len(raw)
	case strings.HasPrefix(s, "{env:"):
		end := strings.IndexByte(s, '}')
		if end < 0 || !IsVarName(s[5:end]) {
			return Segment{}, 0
		}
		return Segment{Kind: EnvRef, Text: s[:end+1], Name: s[5:end], Foreign: !d.native(EnvBrace)}, end + 1
	case d.BareDollar && len(s) > 1 && s[0] == '$':
		n := 1
		for n < len(s) && isVarByte(s[n], n == 1) {
			n++
		}
		if n == 1 {
			return Segment{}, 0
		}
		return Segment{Kind: EnvRef, Text: s[:n], Name: s[1:n]}, n
	}
	return Segment{}, 0
}

// IsVarName reports whether s can name an environment variable in a
// reference: a letter or underscore, then letters, digits, underscores.
func IsVarName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isVarByte(s[i], i == 0) {
			return false
		}
	}
	return true
}

func isVarByte(c byte, first bool) bool {
	switch {
	case c == '_', c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z':
		return true
	case c >= '0' && c <= '9':
		return !first
	}
	return false
}

// HasRefs reports whether the template holds any reference.
func (t Template) HasRefs() bool {
	for _, s := range t {
		if s.Kind != Literal {
			return true
		}
	}
	return false
}

// Foreign returns the references that the source dialect would not have expanded.
func (t Template) Foreign() []Segment {
	var out []Segment
	for _, s := range t {
		if s.Kind != Literal && s.Foreign {
			out = append(out, s)
		}
	}
	return out
}

// EnvNames returns the names of the environment variables referenced, in order, without repeats.
func (t Template) EnvNames() []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range t {
		if s.Kind == EnvRef && !seen[s.Name] {
			seen[s.Name] = true
			out = append(out, s.Name)
		}
	}
	return out
}

// IsSingleEnvRef reports whether the whole template is exactly one
// environment reference without a default, and returns its name. Clients
// with structural secret fields (Codex env_vars) can express only this shape.
func (t Template) IsSingleEnvRef() (string, bool) {
	if len(t) == 1 && t[0].Kind == EnvRef && !t[0].HasDefault {
		return t[0].Name, true
	}
	return "", false
}

func (t Template) mapRefs(f func(Segment) string) string {
	var b strings.Builder
	for _, s := range t {
		if s.Kind == Literal {
			b.WriteString(s.Text)
		} else {
			b.WriteString(f(s))
		}
	}
	return b.String()
}

// A RenderProblem is a reference that the target dialect cannot express
// exactly, and what was written instead.
type RenderProblem struct {
	Ref    Segment
	Reason string
	// Unexpanded says the reference reaches the server as its own text:
	// the client expands nothing, or not this builtin. A value written that
	// way cannot work, unlike a dropped default (the variable is still
	// read) or an input read from the environment instead.
	Unexpanded bool
}

// Render spells the template in dialect d. A reference d cannot express is
// written in the closest form d has and reported, never expanded: a default
// d cannot spell is dropped, an input becomes an environment reference named
// after it (INPUT_ID), a builtin without equivalent stays as written.
func (t Template) Render(d Dialect) (string, []RenderProblem) {
	var problems []RenderProblem
	out := t.mapRefs(func(s Segment) string {
		switch s.Kind {
		case EnvRef:
			if s.HasDefault && !(d.Env == EnvDollar && d.Defaults) {
				problems = append(problems, RenderProblem{Ref: s, Reason: "the client has no default syntax; the default " + quote(s.Default) + " is dropped"})
			}
			return renderEnv(d, s.Name, s.Default, s.HasDefault && d.Defaults && d.Env == EnvDollar, s, &problems)
		case InputRef:
			if d.Inputs {
				if d.Env == EnvContinue {
					return "${{ inputs." + s.Name + " }}"
				}
				return "${input:" + s.Name + "}"
			}
			name := InputEnvName(s.Name)
			problems = append(problems, RenderProblem{Ref: s, Reason: "the client has no prompt inputs; written as a reference to the environment variable " + name})
			return renderEnv(d, name, "", false, s, &problems)
		case Builtin:
			if spelled, ok := d.Builtins[s.Name]; ok {
				return spelled
			}
			problems = append(problems, RenderProblem{Ref: s, Reason: "the client does not expand " + s.Text + "; written unchanged", Unexpanded: true})
			return s.Text
		}
		return s.Text
	})
	return out, problems
}

func quote(s string) string { return `"` + s + `"` }

func renderEnv(d Dialect, name, def string, withDefault bool, s Segment, problems *[]RenderProblem) string {
	switch d.Env {
	case EnvColon:
		return "${env:" + name + "}"
	case EnvBrace:
		return "{env:" + name + "}"
	case EnvContinue:
		return "${{ secrets." + name + " }}"
	case EnvDollar:
		if withDefault {
			return "${" + name + ":-" + def + "}"
		}
		if _, clash := builtinNames[name]; clash && d.Name == DialectCanonical.Name {
			// ${userHome} is the editor builtin in canonical form; an
			// environment variable of that name ($userHome in a Gemini file)
			// keeps its meaning as ${env:userHome}.
			return "${env:" + name + "}"
		}
		return "${" + name + "}"
	}
	*problems = append(*problems, RenderProblem{Ref: s, Reason: "the client expands no references; ${" + name + "} would reach the server literally", Unexpanded: true})
	return "${" + name + "}"
}

// InputEnvName turns a VS Code input id such as "perplexity-key" into the
// environment variable name used where inputs do not exist: PERPLEXITY_KEY.
func InputEnvName(id string) string {
	var b strings.Builder
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case c >= 'a' && c <= 'z':
			b.WriteByte(c - 'a' + 'A')
		case c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
			b.WriteByte(c)
		default:
			b.WriteByte('_')
		}
	}
	out := b.String()
	if out == "" || (out[0] >= '0' && out[0] <= '9') {
		out = "_" + out
	}
	return out
}

// Translate re-spells s from one dialect to another. It is Parse then Render.
func Translate(s string, from, to Dialect) (string, []RenderProblem) {
	t := Parse(s, from)
	if !t.HasRefs() {
		return s, nil
	}
	return t.Render(to)
}

// Lookup answers the value of an environment variable or builtin for Expand.
type Lookup func(s Segment) (string, bool)

// Expand replaces every reference by its value. It exists only for running a
// server (probe); nothing written to a file is ever expanded. A reference
// that is unset and has no default is kept literally and its name returned
// in missing.
func (t Template) Expand(lookup Lookup) (value string, missing []string) {
	value = t.mapRefs(func(s Segment) string {
		if v, ok := lookup(s); ok {
			return v
		}
		if s.Kind == EnvRef && s.HasDefault {
			return s.Default
		}
		switch s.Kind {
		case InputRef:
			missing = append(missing, "input:"+s.Name)
		default:
			missing = append(missing, s.Name)
		}
		return s.Text
	})
	return value, missing
}

// EnvLookup builds a Lookup from an environment getter and a project
// directory: EnvRef reads getenv, ${userHome} reads HOME, ${workspaceFolder}
// is the project directory. Inputs are never answered.
func EnvLookup(getenv func(string) (string, bool), home, project string) Lookup {
	return func(s Segment) (string, bool) {
		switch s.Kind {
		case EnvRef:
			v, ok := getenv(s.Name)
			if ok && v == "" && s.HasDefault {
				return "", false // ${VAR:-d} uses d for an empty value too, as the shell does
			}
			return v, ok
		case Builtin:
			switch s.Name {
			case BuiltinUserHome:
				return home, home != ""
			case BuiltinWorkspaceFolder:
				return project, project != ""
			case BuiltinWorkspaceFolderBasename:
				if project == "" {
					return "", false
				}
				return project[strings.LastIndexAny(project, `/\`)+1:], true
			case BuiltinPathSeparator:
				return "/", true
			}
		}
		return "", false
	}
}
