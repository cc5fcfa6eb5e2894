package canonical

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"time"
)

// Transport is how a client talks to a server.
type Transport string

const (
	// Stdio runs a local command and speaks MCP over its stdin and stdout.
	Stdio Transport = "stdio"
	// HTTP is the streamable HTTP transport.
	HTTP Transport = "http"
	// SSE is the older HTTP + server-sent events transport.
	SSE Transport = "sse"
)

// Transports lists every transport in a stable order.
var Transports = []Transport{Stdio, HTTP, SSE}

// IsRemote reports whether the transport talks to a URL.
func (t Transport) IsRemote() bool { return t == HTTP || t == SSE }

// Valid reports whether t is one of the known transports.
func (t Transport) Valid() bool { return t == Stdio || t == HTTP || t == SSE }

// Scope is where a client file lives: the user's home, a project, or
// Claude Code's per-project section of the user file.
type Scope string

const (
	ScopeUser    Scope = "user"
	ScopeProject Scope = "project"
	ScopeLocal   Scope = "local"
	ScopeManaged Scope = "managed"
)

// OAuth holds static OAuth client settings for a remote server. Secrets in it
// (ClientSecret) are references, like everything else.
type OAuth struct {
	ClientID              string   `json:"clientId,omitempty"`
	ClientSecret          string   `json:"clientSecret,omitempty"`
	Scopes                []string `json:"scopes,omitempty"`
	CallbackPort          int      `json:"callbackPort,omitempty"`
	RedirectURI           string   `json:"redirectUri,omitempty"`
	AuthServerMetadataURL string   `json:"authServerMetadataUrl,omitempty"`
	Resource              string   `json:"resource,omitempty"`
}

// IsZero reports whether no OAuth setting is present.
func (o *OAuth) IsZero() bool {
	return o == nil || (o.ClientID == "" && o.ClientSecret == "" && len(o.Scopes) == 0 &&
		o.CallbackPort == 0 && o.RedirectURI == "" && o.AuthServerMetadataURL == "" && o.Resource == "")
}

// Auth is how a remote server authenticates the client.
type Auth struct {
	// BearerTokenEnv names an environment variable whose value is sent as
	// "Authorization: Bearer <value>". Normalize folds it into Headers as
	// "Bearer ${NAME}", which is the one canonical spelling; adapters for
	// clients with a dedicated key (Codex bearer_token_env_var) recognise that
	// header shape when they write.
	BearerTokenEnv string `json:"bearerTokenEnv,omitempty"`
	OAuth          *OAuth `json:"oauth,omitempty"`
}

// Server is one MCP server in canonical form.
//
// String values may hold references in canonical spelling: ${VAR},
// ${VAR:-default}, ${input:id}, ${workspaceFolder}, ${userHome}.
type Server struct {
	Name      string    `json:"name"`
	Transport Transport `json:"transport"`

	// stdio
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`

	// http, sse
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`

	// Disabled keeps the entry but tells the client not to start it. The
	// zero value is enabled, as in every client.
	Disabled bool `json:"disabled,omitempty"`

	// ToolsAllow, when not empty, is the only tools the client may use;
	// ToolsDeny is removed after that.
	ToolsAllow []string `json:"toolsAllow,omitempty"`
	ToolsDeny  []string `json:"toolsDeny,omitempty"`

	// StartupTimeout bounds start-up and initialize; ToolTimeout bounds one
	// tool call. Zero means the client's default.
	StartupTimeout time.Duration `json:"startupTimeout,omitempty"`
	ToolTimeout    time.Duration `json:"toolTimeout,omitempty"`

	Auth Auth `json:"auth,omitzero"`

	// Extra holds, per client id, the keys of that client's entry that the
	// model does not know, as compact JSON, so that writing back to the same
	// client loses nothing. Other clients ignore them.
	Extra map[string]map[string]json.RawMessage `json:"extra,omitempty"`

	// Project, when set, binds the server to one project: it is a server of
	// Claude Code's local scope (the user's own, private section of one
	// project in ~/.claude.json), and the absolute project directory says
	// which. Only that project's local section gets it; a user-scope file
	// never does. A server without it is the user's everywhere. Client
	// files never hold it: where a server sits in them says it.
	Project string `json:"project,omitempty"`

	// Origin is where the server was read from; zero when synthesised.
	Origin Pos `json:"origin,omitzero"`
}

// ForProject reports whether the server belongs to the user's local
// section of project dir ("" for the user's own servers, which belong to
// none).
func (s Server) ForProject(dir string) bool { return s.Project == dir }

// Clone returns a deep copy of s.
func (s Server) Clone() Server {
	c := s
	c.Args = slices.Clone(s.Args)
	c.Env = maps.Clone(s.Env)
	c.Headers = maps.Clone(s.Headers)
	c.ToolsAllow = slices.Clone(s.ToolsAllow)
	c.ToolsDeny = slices.Clone(s.ToolsDeny)
	if s.Auth.OAuth != nil {
		o := *s.Auth.OAuth
		o.Scopes = slices.Clone(o.Scopes)
		c.Auth.OAuth = &o
	}
	if s.Extra != nil {
		c.Extra = make(map[string]map[string]json.RawMessage, len(s.Extra))
		for k, v := range s.Extra {
			c.Extra[k] = maps.Clone(v)
		}
	}
	return c
}

// Normalized returns s in its canonical shape (Normalize), leaving s as it
// is. It copies s's maps and OAuth block only when Normalize would change
// them in place: a comparison of every entry of every client file with the
// store (doctor) cloned each server twice to normalize it.
func (s Server) Normalized() Server {
	shared := s.Auth.BearerTokenEnv != "" || s.Auth.OAuth != nil
	for _, v := range s.Extra {
		shared = shared || len(v) == 0
	}
	if shared {
		s = s.Clone()
	}
	s.Normalize()
	return s
}

// Normalize puts s into its one canonical shape so that two servers that mean
// the same thing compare Equal: empty maps and slices become nil, the
// transport is inferred when missing, and a BearerTokenEnv becomes an
// Authorization header.
func (s *Server) Normalize() {
	if s.Transport == "" {
		switch {
		case s.Command != "":
			s.Transport = Stdio
		case s.URL != "":
			s.Transport = HTTP
		}
	}
	if s.Auth.BearerTokenEnv != "" {
		if s.Headers == nil {
			s.Headers = map[string]string{}
		}
		if _, ok := s.Headers["Authorization"]; !ok {
			s.Headers["Authorization"] = "Bearer ${" + s.Auth.BearerTokenEnv + "}"
		}
		s.Auth.BearerTokenEnv = ""
	}
	if s.Auth.OAuth.IsZero() {
		s.Auth.OAuth = nil
	} else if len(s.Auth.OAuth.Scopes) == 0 {
		s.Auth.OAuth.Scopes = nil
	}
	if len(s.Args) == 0 {
		s.Args = nil
	}
	if len(s.Env) == 0 {
		s.Env = nil
	}
	if len(s.Headers) == 0 {
		s.Headers = nil
	}
	if len(s.ToolsAllow) == 0 {
		s.ToolsAllow = nil
	}
	if len(s.ToolsDeny) == 0 {
		s.ToolsDeny = nil
	}
	for k, v := range s.Extra {
		if len(v) == 0 {
			delete(s.Extra, k)
		}
	}
	if len(s.Extra) == 0 {
		s.Extra = nil
	}
}

// Equal reports whether a and b define the same server, ignoring Origin and
// the Extra keys of clients other than those listed in extraFor (pass no
// client to ignore Extra entirely). Both are compared after Normalize.
func Equal(a, b Server, extraFor ...string) bool {
	if a.Auth.BearerTokenEnv != "" || b.Auth.BearerTokenEnv != "" {
		return equalNormalized(a, b, extraFor)
	}
	// Without a bearer token to fold into the headers, Normalize changes
	// nothing sameFields sees (an empty list, map or OAuth is equal to none
	// there; the transport it infers is inferredTransport): compare without
	// copying. An export compares every server of every file.
	return sameFields(&a, &b, extraFor)
}

// equalNormalized is Equal on normalized copies.
func equalNormalized(a, b Server, extraFor []string) bool {
	a, b = a.Clone(), b.Clone()
	a.Normalize()
	b.Normalize()
	return sameFields(&a, &b, extraFor)
}

// sameFields compares what Equal compares. Normalize has folded any
// bearer token into the headers, or there is none.
func sameFields(a, b *Server, extraFor []string) bool {
	if a.Name != b.Name || a.Project != b.Project || a.inferredTransport() != b.inferredTransport() || a.Command != b.Command ||
		a.Cwd != b.Cwd || a.URL != b.URL || a.Disabled != b.Disabled || a.StartupTimeout != b.StartupTimeout ||
		a.ToolTimeout != b.ToolTimeout || a.Auth.BearerTokenEnv != b.Auth.BearerTokenEnv {
		return false
	}
	if !slices.Equal(a.Args, b.Args) || !maps.Equal(a.Env, b.Env) || !maps.Equal(a.Headers, b.Headers) ||
		!slices.Equal(a.ToolsAllow, b.ToolsAllow) || !slices.Equal(a.ToolsDeny, b.ToolsDeny) {
		return false
	}
	if !oauthEqual(a.Auth.OAuth, b.Auth.OAuth) {
		return false
	}
	for _, c := range extraFor {
		if !extraEqual(a.Extra[c], b.Extra[c]) {
			return false
		}
	}
	return true
}

// inferredTransport is the transport Normalize gives s.
func (s *Server) inferredTransport() Transport {
	if s.Transport != "" {
		return s.Transport
	}
	switch {
	case s.Command != "":
		return Stdio
	case s.URL != "":
		return HTTP
	}
	return ""
}

func oauthEqual(a, b *OAuth) bool {
	if a == nil || b == nil {
		return a.IsZero() && b.IsZero()
	}
	return a.ClientID == b.ClientID && a.ClientSecret == b.ClientSecret && slices.Equal(a.Scopes, b.Scopes) &&
		a.CallbackPort == b.CallbackPort && a.RedirectURI == b.RedirectURI &&
		a.AuthServerMetadataURL == b.AuthServerMetadataURL && a.Resource == b.Resource
}

// ExtraEqual reports whether two Extra maps of one client hold the same
// keys with the same JSON values, spacing and key order aside, as Equal
// compares them.
func ExtraEqual(a, b map[string]json.RawMessage) bool { return extraEqual(a, b) }

func extraEqual(a, b map[string]json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for k, va := range a {
		vb, ok := b[k]
		if !ok || !jsonEqual(va, vb) {
			return false
		}
	}
	return true
}

// jsonEqual compares two JSON texts by value, so that spacing does not matter.
func jsonEqual(a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return false
	}
	ca, _ := json.Marshal(va)
	cb, _ := json.Marshal(vb)
	return bytes.Equal(ca, cb)
}

// SetExtra records a client-specific key verbatim.
func (s *Server) SetExtra(client, key string, raw json.RawMessage) {
	if s.Extra == nil {
		s.Extra = map[string]map[string]json.RawMessage{}
	}
	if s.Extra[client] == nil {
		s.Extra[client] = map[string]json.RawMessage{}
	}
	s.Extra[client][key] = raw
}

// Set is an ordered list of servers with unique names. Order is kept as read,
// so that new entries are written in the order the user gave them.
type Set struct {
	Servers []Server `json:"servers"`
}

// Len returns the number of servers.
func (s *Set) Len() int { return len(s.Servers) }

// Index returns the position of the named server, or -1.
func (s *Set) Index(name string) int {
	for i := range s.Servers {
		if s.Servers[i].Name == name {
			return i
		}
	}
	return -1
}

// Get returns the named server.
func (s *Set) Get(name string) (Server, bool) {
	if i := s.Index(name); i >= 0 {
		return s.Servers[i], true
	}
	return Server{}, false
}

// Put adds srv, or replaces the server of the same name in place.
func (s *Set) Put(srv Server) {
	if i := s.Index(srv.Name); i >= 0 {
		s.Servers[i] = srv
		return
	}
	s.Servers = append(s.Servers, srv)
}

// Remove deletes the named server and reports whether it was there.
func (s *Set) Remove(name string) bool {
	i := s.Index(name)
	if i < 0 {
		return false
	}
	s.Servers = slices.Delete(s.Servers, i, i+1)
	return true
}

// Names returns the server names in order.
func (s *Set) Names() []string {
	out := make([]string, len(s.Servers))
	for i := range s.Servers {
		out[i] = s.Servers[i].Name
	}
	return out
}

// Clone returns a deep copy of the set.
func (s Set) Clone() Set {
	out := Set{Servers: make([]Server, len(s.Servers))}
	for i := range s.Servers {
		out.Servers[i] = s.Servers[i].Clone()
	}
	return out
}

// FormatDuration spells d the short way people write it: 2m, 1h30m,
// 45s, 300ms (time.Duration.String without the zero units it trails:
// 2m0s, 1h0m0s).
func FormatDuration(d time.Duration) string {
	s := d.String()
	for _, unit := range []string{"h", "m"} {
		// 2m0s -> 2m, 1h0m0s -> 1h
		if i := strings.Index(s, unit); i >= 0 && i+1 < len(s) {
			rest := s[i+1:]
			if rest == "0s" || rest == "0m0s" {
				return s[:i+1]
			}
		}
	}
	return s
}

// DisplayJSON renders a server for people (a conflict's versions, an
// import's comparison): indented JSON with durations spelled as
// FormatDuration does (toolTimeout "5m", not 300000000000 nanoseconds).
// It is not the stored form, whose hashes use nanoseconds.
func DisplayJSON(s Server) []byte {
	type plain Server // without methods, so that the fields below win
	v := struct {
		plain
		StartupTimeout string `json:"startupTimeout,omitempty"`
		ToolTimeout    string `json:"toolTimeout,omitempty"`
	}{plain: plain(s)}
	if s.StartupTimeout != 0 {
		v.StartupTimeout = FormatDuration(s.StartupTimeout)
	}
	if s.ToolTimeout != 0 {
		v.ToolTimeout = FormatDuration(s.ToolTimeout)
	}
	data, _ := json.MarshalIndent(v, "", "  ")
	return append(data, '\n')
}

// Indexed is a Set with an index by name, for code that looks up or puts
// many names: Set's own Get, Put and Remove scan the list, which makes a
// loop over every server quadratic. Change the set only through it while
// it is in use (Put, Remove); Set is the set itself, kept in order.
type Indexed struct {
	Set *Set
	pos map[string]int
}

// Indexed returns an index of s by name (built once, in one pass).
func (s *Set) Indexed() *Indexed { return s.IndexedRoom(len(s.Servers)) }

// IndexedRoom is Indexed with room for n servers: a set about to be filled
// by Put (an export's desired set starts as a new file's no server and
// takes 10,000) grew its index a dozen times, rehashing each time.
func (s *Set) IndexedRoom(n int) *Indexed {
	pos := make(map[string]int, max(n, len(s.Servers)))
	for i := range s.Servers {
		if _, dup := pos[s.Servers[i].Name]; !dup { // the first wins, as in Set.Index
			pos[s.Servers[i].Name] = i
		}
	}
	return &Indexed{Set: s, pos: pos}
}

// Index returns the position of the named server, or -1.
func (x *Indexed) Index(name string) int {
	if i, ok := x.pos[name]; ok {
		return i
	}
	return -1
}

// Has reports whether the set holds the named server.
func (x *Indexed) Has(name string) bool { _, ok := x.pos[name]; return ok }

// Get returns the named server.
func (x *Indexed) Get(name string) (Server, bool) {
	if i, ok := x.pos[name]; ok {
		return x.Set.Servers[i], true
	}
	return Server{}, false
}

// Put adds srv, or replaces the server of the same name in place.
func (x *Indexed) Put(srv Server) {
	if i, ok := x.pos[srv.Name]; ok {
		x.Set.Servers[i] = srv
		return
	}
	x.pos[srv.Name] = len(x.Set.Servers)
	x.Set.Servers = append(x.Set.Servers, srv)
}

// Remove deletes the named server and reports whether it was there. The
// servers after it move up one place, so it costs a pass over them.
func (x *Indexed) Remove(name string) bool {
	i, ok := x.pos[name]
	if !ok {
		return false
	}
	x.Set.Servers = slices.Delete(x.Set.Servers, i, i+1)
	delete(x.pos, name)
	for j := i; j < len(x.Set.Servers); j++ {
		if x.pos[x.Set.Servers[j].Name] == j+1 {
			x.pos[x.Set.Servers[j].Name] = j
		}
	}
	return true
}
