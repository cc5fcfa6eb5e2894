package secrets

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"unsafe"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/mapkeys"
)

// A ServerFinding is a secret-looking literal in one field of a server.
type ServerFinding struct {
	Finding
	// Field is the canonical field: env.NAME, headers.NAME, args[3], url,
	// command, cwd, oauth.clientSecret, or extra.CLIENT.KEY for a
	// client-specific key.
	Field string `json:"field"`
	// Var is the environment variable a reference should name instead:
	// the env key itself, the provider's usual variable (GITHUB_TOKEN), or
	// SERVER_API_KEY and the like for headers, flags and URLs.
	Var string `json:"var"`
	// Extractable says that Extract can replace the literal with ${Var}:
	// false for client-specific keys, which mcpsync keeps verbatim.
	Extractable bool `json:"extractable"`
}

// Describe says where the secret is and what it looks like, without its
// value: `env GITHUB_TOKEN holds a GitHub token (ghp_***)`.
func (f ServerFinding) Describe() string {
	return fmt.Sprintf("%s holds %s (%s)", fieldPhrase(f.Field), article(f.Label), f.Masked())
}

func fieldPhrase(field string) string {
	switch {
	case strings.HasPrefix(field, "env."):
		return "env " + strings.TrimPrefix(field, "env.")
	case strings.HasPrefix(field, "headers."):
		return "header " + strings.TrimPrefix(field, "headers.")
	case strings.HasPrefix(field, "extra."):
		return "client key " + strings.TrimPrefix(field, "extra.")
	}
	return field
}

func article(label string) string {
	if strings.HasPrefix(label, "value of ") || strings.HasPrefix(label, "token in ") || strings.HasPrefix(label, "password in ") {
		return "the literal " + label
	}
	switch label[0] {
	case 'A', 'E', 'I', 'O', 'U', 'a', 'e', 'i', 'o', 'u':
		return "an " + label
	}
	return "a " + label
}

// ScanServer returns every secret-looking literal in srv: env values,
// header values, args (an argument after --token or similar is named by
// that flag), the URL, the command, the OAuth client secret and the string
// values of client-specific keys. Each finding proposes the variable a
// reference should use.
func ScanServer(srv canonical.Server) []ServerFinding { return (*Scanner)(nil).Server(srv) }

// Scanner is ScanServer with a memory: each value is scanned once in each
// field it sits in, however many servers and files hold it. A plan checks
// every server it writes into a project's file, and most values ("npx",
// "-y", "${API_KEY}", a server's url in every client's file) come again
// and again. It is safe for concurrent use; the zero value is ready, and
// a nil one remembers nothing.
type Scanner struct {
	// By the value's hash, each shard its own lock: a plan's processors
	// scan the same servers (every file holds them) in the same order, and
	// on one lock they waited for each other at nearly every value, a
	// third of the scanning of an export of 10,000 servers.
	shards [scanShards]scanShard
}

const scanShards = 64

type scanShard struct {
	mu   sync.Mutex
	seen map[scanned][]Finding
	_    [64 - unsafe.Sizeof(sync.Mutex{}) - unsafe.Sizeof(map[scanned][]Finding(nil))]byte
}

type scanned struct {
	f     Field
	value string
}

// scan is Scan, remembered.
func (s *Scanner) scan(f Field, value string) []Finding {
	if s == nil {
		return Scan(f, value)
	}
	k := scanned{f, value}
	sh := &s.shards[maphash.String(valueSeed, value)%scanShards]
	sh.mu.Lock()
	fs, ok := sh.seen[k]
	sh.mu.Unlock()
	if ok {
		return fs
	}
	fs = Scan(f, value)
	sh.mu.Lock()
	if sh.seen == nil {
		sh.seen = map[scanned][]Finding{}
	}
	sh.seen[k] = fs
	sh.mu.Unlock()
	return fs
}

// Server is ScanServer(srv), each value scanned once (see Scanner).
func (s *Scanner) Server(srv canonical.Server) []ServerFinding {
	var out []ServerFinding
	// The field's name and the key of the variable are only made for a
	// value that holds a secret: most hold none.
	add := func(fds []Finding, field, key string, extractable bool) {
		for _, fd := range fds {
			out = append(out, ServerFinding{Finding: fd, Field: field, Extractable: extractable,
				Var: suggestVar(srv.Name, field, key, fd)})
		}
	}
	for _, k := range mapkeys.Sorted(srv.Env) {
		if fds := s.scan(Field{Place: InEnv, Name: k}, srv.Env[k]); len(fds) > 0 {
			add(fds, "env."+k, k, true)
		}
	}
	for _, k := range mapkeys.Sorted(srv.Headers) {
		if fds := s.scan(Field{Place: InHeader, Name: k}, srv.Headers[k]); len(fds) > 0 {
			add(fds, "headers."+k, k, true)
		}
	}
	if srv.URL != "" {
		add(s.scan(Field{Place: InURL}, srv.URL), "url", "", true)
	}
	add(s.scan(Field{Place: InArg}, srv.Command), "command", "", true)
	for i, a := range srv.Args {
		name := argName(srv.Args, i)
		fds := s.scan(Field{Place: InArg, Name: name}, a)
		if len(fds) == 0 {
			continue
		}
		key := name
		if m := argAssign.Get().FindStringSubmatch(a); m != nil {
			key = m[1]
		}
		add(fds, fmt.Sprintf("args[%d]", i), key, true)
	}
	if o := srv.Auth.OAuth; o != nil && o.ClientSecret != "" {
		add(s.scan(Field{Place: InOther, Name: "client_secret"}, o.ClientSecret), "oauth.clientSecret", "client_secret", true)
	}
	for _, client := range mapkeys.Sorted(srv.Extra) {
		for _, key := range mapkeys.Sorted(srv.Extra[client]) {
			var v any
			if json.Unmarshal(srv.Extra[client][key], &v) != nil {
				continue
			}
			walkStrings(v, key, func(name, str string) {
				add(s.scan(Field{Place: InOther, Name: name}, str), "extra."+client+"."+key, name, false)
			})
		}
	}
	if len(out) > 1 {
		dedupeVars(out)
	}
	return out
}

// argName is the flag before args[i] (--token in --token VALUE), or "".
func argName(args []string, i int) string {
	if i > 0 && flagLike(args[i-1]) && !strings.Contains(args[i-1], "=") {
		return args[i-1]
	}
	return ""
}

// flagLike reports whether an argument is an option (--token, -k).
func flagLike(a string) bool {
	return len(a) > 1 && a[0] == '-' && a != "--" && !isNumber(a)
}

// walkStrings calls fn for every string in a decoded JSON value, with the
// name of the object key that holds it (or of the nearest one above).
func walkStrings(v any, name string, fn func(name, s string)) {
	switch x := v.(type) {
	case string:
		fn(name, x)
	case []any:
		for _, e := range x {
			walkStrings(e, name, fn)
		}
	case map[string]any:
		for _, k := range mapkeys.Sorted(x) {
			walkStrings(x[k], k, fn)
		}
	}
}

// suggestVar names the variable that should hold a secret found in field.
func suggestVar(server, field, key string, f Finding) string {
	if strings.HasPrefix(field, "env.") && validVar(key) {
		return key
	}
	if f.EnvVar != "" {
		return f.EnvVar
	}
	prefix := VarName(server)
	switch {
	case strings.HasPrefix(field, "env."):
		return VarName(key)
	case strings.HasPrefix(field, "headers."):
		switch strings.ToLower(key) {
		case "authorization", "proxy-authorization", "x-api-key", "api-key", "apikey", "x-api-token":
			return join(prefix, "API_KEY")
		}
		return join(prefix, VarName(strings.TrimPrefix(strings.TrimPrefix(key, "x-"), "X-")))
	case strings.HasPrefix(field, "args["):
		if key != "" {
			k := VarName(strings.TrimLeft(key, "-"))
			if strings.HasPrefix(key, "-") {
				return join(prefix, k)
			}
			return k
		}
		if eq := strings.IndexByte(f.Value, '='); eq > 0 {
			return join(prefix, "SECRET")
		}
	case field == "url":
		if f.Kind == KindURLPassword {
			return join(prefix, "PASSWORD")
		}
		if strings.HasPrefix(f.Label, "token in the URL's ") {
			param := strings.TrimSuffix(strings.TrimPrefix(f.Label, "token in the URL's "), " parameter")
			return join(prefix, VarName(param))
		}
	case field == "oauth.clientSecret":
		return join(prefix, "CLIENT_SECRET")
	}
	return join(prefix, "SECRET")
}

func join(prefix, name string) string {
	if prefix == "" || strings.HasPrefix(name, prefix+"_") {
		return name
	}
	return prefix + "_" + name
}

// VarName turns a name into an environment variable name: upper case,
// every other character an underscore, never starting with a digit.
// "linear" becomes LINEAR, "x-api-key" X_API_KEY.
func VarName(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z':
			b.WriteByte(c - 'a' + 'A')
		case c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
			b.WriteByte(c)
		default:
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "_") {
				b.WriteByte('_')
			}
		}
	}
	out := strings.TrimRight(b.String(), "_")
	if out != "" && out[0] >= '0' && out[0] <= '9' {
		out = "_" + out
	}
	return out
}

func validVar(s string) bool { return s != "" && VarName(s) == s }

// dedupeVars makes the proposed variables of one server unique per value:
// two different secrets never share a variable.
func dedupeVars(fs []ServerFinding) {
	byVar := map[string]string{}
	for i := range fs {
		v := fs[i].Var
		for n := 2; ; n++ {
			prev, taken := byVar[v]
			if !taken || prev == fs[i].Value {
				break
			}
			v = fmt.Sprintf("%s_%d", fs[i].Var, n)
		}
		byVar[v] = fs[i].Value
		fs[i].Var = v
	}
}

// An Extraction is one secret moved out of a server into a variable.
type Extraction struct {
	Server string `json:"server"`
	Field  string `json:"field"`
	Var    string `json:"var"`
	// Value is the secret; it is never marshalled.
	Value string `json:"-"`
	Label string `json:"label"`
}

// Masked returns the value as it may be shown.
func (e Extraction) Masked() string { return Mask(e.Value) }

// Extract returns srv with every extractable finding replaced by a
// reference to its variable (${GITHUB_TOKEN}, Bearer ${LINEAR_API_KEY}),
// and what was moved. Findings that are not extractable stay.
func Extract(srv canonical.Server, findings []ServerFinding) (canonical.Server, []Extraction) {
	out := srv.Clone()
	var moved []Extraction
	// Replace from the end of each value, so earlier offsets stay right.
	fs := slices.Clone(findings)
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].Field != fs[j].Field {
			return fs[i].Field < fs[j].Field
		}
		return fs[i].Start > fs[j].Start
	})
	for _, f := range fs {
		if !f.Extractable {
			continue
		}
		ref := "${" + f.Var + "}"
		replace := func(v string) (string, bool) {
			if f.End > len(v) || v[f.Start:f.End] != f.Value {
				return v, false
			}
			return v[:f.Start] + ref + v[f.End:], true
		}
		ok := false
		switch {
		case f.Field == "command":
			out.Command, ok = replace(out.Command)
		case strings.HasPrefix(f.Field, "args["):
			var i int
			if _, err := fmt.Sscanf(f.Field, "args[%d]", &i); err == nil && i < len(out.Args) {
				out.Args[i], ok = replace(out.Args[i])
			}
		case strings.HasPrefix(f.Field, "env."):
			k := strings.TrimPrefix(f.Field, "env.")
			var v string
			if v, ok = replace(out.Env[k]); ok {
				out.Env[k] = v
			}
		case strings.HasPrefix(f.Field, "headers."):
			k := strings.TrimPrefix(f.Field, "headers.")
			var v string
			if v, ok = replace(out.Headers[k]); ok {
				out.Headers[k] = v
			}
		case f.Field == "url":
			out.URL, ok = replace(out.URL)
		case f.Field == "oauth.clientSecret" && out.Auth.OAuth != nil:
			out.Auth.OAuth.ClientSecret, ok = replace(out.Auth.OAuth.ClientSecret)
		}
		if ok {
			moved = append(moved, Extraction{Server: srv.Name, Field: f.Field, Var: f.Var, Value: f.Value, Label: f.Label})
		}
	}
	slices.Reverse(moved) // back to field order
	sort.SliceStable(moved, func(i, j int) bool { return moved[i].Field < moved[j].Field })
	return out, moved
}

// MaskServer returns a copy of srv with every secret-looking literal
// masked, for display (show, list, --json): "ghp_abc…" becomes "ghp_***".
func MaskServer(srv canonical.Server) canonical.Server {
	out := srv.Clone()
	mask := func(v string, f Field) string {
		fs := Scan(f, v)
		for i := len(fs) - 1; i >= 0; i-- {
			v = v[:fs[i].Start] + fs[i].Masked() + v[fs[i].End:]
		}
		return v
	}
	out.Command = mask(out.Command, Field{Place: InArg})
	for i := range out.Args {
		out.Args[i] = mask(out.Args[i], Field{Place: InArg, Name: argName(srv.Args, i)})
	}
	for k, v := range out.Env {
		out.Env[k] = mask(v, Field{Place: InEnv, Name: k})
	}
	for k, v := range out.Headers {
		out.Headers[k] = mask(v, Field{Place: InHeader, Name: k})
	}
	out.URL = mask(out.URL, Field{Place: InURL})
	if o := out.Auth.OAuth; o != nil {
		o.ClientSecret = mask(o.ClientSecret, Field{Name: "client_secret"})
	}
	for client, keys := range out.Extra {
		for key, raw := range keys {
			var v any
			if json.Unmarshal(raw, &v) != nil {
				continue
			}
			masked := maskJSON(v, key, mask)
			if b, err := json.Marshal(masked); err == nil && string(b) != string(raw) {
				out.Extra[client][key] = b
			}
		}
	}
	return out
}

func maskJSON(v any, name string, mask func(string, Field) string) any {
	switch x := v.(type) {
	case string:
		return mask(x, Field{Name: name})
	case []any:
		for i := range x {
			x[i] = maskJSON(x[i], name, mask)
		}
	case map[string]any:
		for k := range x {
			x[k] = maskJSON(x[k], k, mask)
		}
	}
	return v
}

// ScrubberFor returns a Scrubber that knows every secret-looking literal of
// the servers, for masking text that shows them (a diff of their file).
func ScrubberFor(sets ...canonical.Set) *Scrubber {
	s := &Scrubber{}
	// A plan holds each server many times (read, wanted, written, for
	// every client): Values scans each definition once. The sets are
	// shared out among the processors, each taking a run of them: 200
	// servers to every client are 12,600 definitions to key, the most of
	// a masked diff's cost that comes before its first line. The values
	// are added share by share, and which share scans a server that two
	// of them hold is a race; a Scrubber's answer does not depend on the
	// order of its values (it replaces the longest first, and two values
	// of one length found at one place are one).
	var v Values
	workers := max(1, min(runtime.GOMAXPROCS(0), len(sets)/scrubSetsPerWorker))
	found := make([][]string, workers)
	if workers == 1 {
		found[0] = v.add(nil, sets)
	} else {
		var wg sync.WaitGroup
		for w := range workers {
			lo, hi := w*len(sets)/workers, (w+1)*len(sets)/workers
			wg.Go(func() { found[w] = v.add(map[string]bool{}, sets[lo:hi]) })
		}
		wg.Wait()
	}
	for _, values := range found {
		for _, value := range values {
			s.Add(value)
		}
	}
	return s
}

// scrubSetsPerWorker is how many sets make a processor's share worth
// a goroutine: a plan to one or two files (three sets each) is keyed by
// the caller alone.
const scrubSetsPerWorker = 8

// Values gathers the secret-looking literals of servers (ScanServer's
// findings) from sets given a few at a time (each file of a plan as it is
// planned): a definition seen before, in this call or an earlier one, is
// not scanned again. A Scrubber given every value Add returned masks as
// ScrubberFor of all the sets does (it is that). Safe for concurrent use.
type Values struct {
	shards [valueShards]valueShard
}

const valueShards = 64

// valueSeed hashes a definition's key to its shard of Values, and a value
// to its shard of a Scanner.
var valueSeed = maphash.MakeSeed()

type valueShard struct {
	mu   sync.Mutex
	seen map[string]bool
	_    [64 - unsafe.Sizeof(sync.Mutex{}) - unsafe.Sizeof(map[string]bool(nil))]byte
}

// Add scans the servers of sets not scanned yet and returns their values.
func (v *Values) Add(sets ...canonical.Set) []string { return v.add(nil, sets) }

// add is Add, looking each definition up first in mine, the definitions
// its caller met before, when that is not nil: ScrubberFor's processors
// each key a run of a plan's sets, which repeat their servers (read,
// wanted and written, for every client) in the same order, so that the
// two met on the lock of the same shard at every repeat (a fifth of
// keying them). mine costs a string for each definition its caller meets,
// where the shared set makes one for each it had not met; a plan's files,
// each added once (ExportOptions.KeepMask), repeat a server at most once
// a file, and do without it.
func (v *Values) add(mine map[string]bool, sets []canonical.Set) []string {
	var out []string
	var key []byte // one buffer for every server's key: a plan's mask asks for 12,600 of them (200 servers to every client)
	for _, set := range sets {
		for _, srv := range set.Servers {
			key = appendScanKey(key[:0], srv)
			if mine != nil {
				if mine[string(key)] { // looked up without a copy of key
					continue
				}
				mine[string(key)] = true
			}
			sh := &v.shards[maphash.Bytes(valueSeed, key)%valueShards]
			sh.mu.Lock()
			seen := sh.seen[string(key)]
			if !seen {
				if sh.seen == nil {
					sh.seen = map[string]bool{}
				}
				sh.seen[string(key)] = true
			}
			sh.mu.Unlock()
			if seen {
				continue
			}
			for _, f := range ScanServer(srv) {
				out = append(out, f.Value)
			}
		}
	}
	return out
}

// appendScanKey appends everything ScanServer looks at to b. Add keeps
// one buffer for all the keys it makes, and a key becomes a string only
// for a server not seen before: most servers of a plan are seen many
// times (read, wanted and written, for every client), and a new string
// and a growing builder for each were most of what SecretMask allocated
// (BenchmarkDiffMaskedX200).
//
// Each piece is written after its length, and each list after its count,
// so that two definitions that differ never share a key: the pieces were
// once joined by marker bytes, which a value may itself hold, and an
// argument "--api-key\x01<secret>" then keyed as the two arguments
// "--api-key", "<secret>" did (TestScanKeysTellServersApart), leaving the
// second definition unscanned and its secret unmasked.
func appendScanKey(b []byte, srv canonical.Server) []byte {
	b = appendPiece(b, srv.Name)
	b = appendPiece(b, srv.Command)
	b = binary.AppendUvarint(b, uint64(len(srv.Args)))
	for _, a := range srv.Args {
		b = appendPiece(b, a)
	}
	b = appendPiece(b, srv.URL)
	var keys [8]string // most maps here hold a few keys
	for _, m := range []map[string]string{srv.Env, srv.Headers} {
		b = binary.AppendUvarint(b, uint64(len(m)))
		for _, k := range sortedInto(keys[:0], m) {
			b = appendPiece(appendPiece(b, k), m[k])
		}
	}
	if srv.Auth.OAuth != nil {
		b = appendPiece(append(b, 1), srv.Auth.OAuth.ClientSecret)
	} else {
		b = append(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(len(srv.Extra)))
	if len(srv.Extra) > 0 {
		for _, c := range mapkeys.Sorted(srv.Extra) {
			b = binary.AppendUvarint(appendPiece(b, c), uint64(len(srv.Extra[c])))
			for _, k := range sortedInto(keys[:0], srv.Extra[c]) {
				b = appendPiece(appendPiece(b, k), srv.Extra[c][k])
			}
		}
	}
	return b
}

// appendPiece appends s to b after its length.
func appendPiece[S ~string | ~[]byte](b []byte, s S) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// sortedInto is the keys of m, sorted, in buf's room where they fit.
func sortedInto[V any](buf []string, m map[string]V) []string {
	if len(m) == 0 {
		return buf // no iterator to start: most servers have no headers, or no env
	}
	for k := range m {
		buf = append(buf, k)
	}
	if len(buf) > 1 {
		slices.Sort(buf)
	}
	return buf
}
