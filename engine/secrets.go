package engine

// import's handling of literal secrets: the warning that names each one,
// and --extract-secrets, which moves them out of the client's file.

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/internal/safefile"
	"github.com/mcpsync/mcpsync/internal/secrets"
	"github.com/mcpsync/mcpsync/ledger"
	"golang.org/x/text/unicode/norm"
)

// ImportSecrets is what import found in the client's servers.
type ImportSecrets struct {
	// extracted is the incoming set with every movable secret replaced by
	// a reference.
	extracted canonical.Set
	// original holds, by name, the servers extraction changed, as read.
	original map[string]canonical.Server
	// moved lists the secrets extraction moves, in order.
	moved []secrets.Extraction
	// origin is the file each moved secret's server came from.
	origin map[string]string
}

// scanImportSecrets finds the literal secrets of the incoming servers and
// prepares their extraction. Without extract, each is a warning that says
// where it is and how to move it; with extract, only what cannot be moved
// is a warning. A variable name is never given two different values.
func scanImportSecrets(incoming canonical.Set, extract bool) (ImportSecrets, canonical.Diagnostics) {
	ex := ImportSecrets{original: map[string]canonical.Server{}, origin: map[string]string{}}
	files := map[string][]byte{}
	source := func(path string) []byte {
		if data, ok := files[path]; ok {
			return data
		}
		data, _, _ := safefile.ReadFile(path, "")
		files[path] = data
		return data
	}
	varValue := map[string]string{}
	var ds canonical.Diagnostics
	for _, srv := range incoming.Servers {
		fs := secrets.ScanServer(srv)
		for i := range fs {
			// One variable, one value, across all the servers imported.
			base, v := fs[i].Var, fs[i].Var
			for n := 2; ; n++ {
				prev, taken := varValue[v]
				if !taken || prev == fs[i].Value {
					break
				}
				v = fmt.Sprintf("%s_%d", base, n)
			}
			varValue[v] = fs[i].Value
			fs[i].Var = v
		}
		for _, f := range fs {
			if extract && f.Extractable {
				continue
			}
			d := canonical.Warnf("%s; it is imported as it is", f.Describe())
			d.Server, d.Field, d.Secret = srv.Name, f.Field, f.Value
			if f.Extractable {
				d.Detail = fmt.Sprintf("run again with --extract-secrets to store ${%s} instead, rewrite the file to read it from the environment, "+
					"and print the export line to set", f.Var)
			} else {
				d.Detail = "a client-specific key mcpsync keeps verbatim: replace the value by hand with a reference the client reads"
			}
			ds = append(ds, d.At(positionOf(source(srv.Origin.File), srv.Origin, f.Value)))
		}
		out := srv
		if extract {
			var moved []secrets.Extraction
			out, moved = secrets.Extract(srv, fs)
			if len(moved) > 0 {
				ex.original[srv.Name] = srv
				ex.moved = append(ex.moved, moved...)
				for _, m := range moved {
					ex.origin[m.Server] = srv.Origin.File
				}
			}
		}
		ex.extracted.Servers = append(ex.extracted.Servers, out)
	}
	ds.Sort()
	return ex, ds
}

// literalSecretWarnings say, for servers about to be stored, which hold a
// literal secret, and how to store a reference instead.
func literalSecretWarnings(servers []canonical.Server) canonical.Diagnostics {
	var ds canonical.Diagnostics
	for _, srv := range servers {
		for _, f := range secrets.ScanServer(srv) {
			d := canonical.Warnf("%s; it is stored as it is", f.Describe())
			d.Server, d.Field, d.Secret = srv.Name, f.Field, f.Value
			how := ""
			switch {
			case strings.HasPrefix(f.Field, "env."):
				how = fmt.Sprintf(" (--env '%s=${%s}')", strings.TrimPrefix(f.Field, "env."), f.Var)
			case strings.HasPrefix(f.Field, "headers."):
				how = fmt.Sprintf(" (--header '%s: …${%s}')", strings.TrimPrefix(f.Field, "headers."), f.Var)
			}
			d.Detail = fmt.Sprintf("store a reference instead, ${%s}%s, and set %s in the environment clients start from", f.Var, how, f.Var)
			ds = append(ds, d.At(srv.Origin))
		}
	}
	return ds
}

// notNFCWarnings say which servers hold text that is not in Unicode normal
// form C (decomposed accents, as macOS writes file names): the store keeps
// text composed, since HCL normalizes every string, so the value changes
// form on its way through the store (found by store's FuzzValueRoundTrip).
func notNFCWarnings(servers []canonical.Server) canonical.Diagnostics {
	var ds canonical.Diagnostics
	for _, srv := range servers {
		fields := map[string]string{"name": srv.Name, "command": srv.Command, "url": srv.URL, "cwd": srv.Cwd}
		for i, v := range srv.Args {
			fields[fmt.Sprintf("args[%d]", i)] = v
		}
		for k, v := range srv.Env {
			fields["env."+k] = k + v
		}
		for k, v := range srv.Headers {
			fields["headers."+k] = k + v
		}
		var bad []string
		for f, v := range fields {
			if !norm.NFC.IsNormalString(v) {
				bad = append(bad, f)
			}
		}
		if len(bad) == 0 {
			continue
		}
		sort.Strings(bad)
		d := canonical.Warnf("%s holds decomposed Unicode text; the store keeps it composed (NFC)", strings.Join(bad, ", "))
		d.Server = srv.Name
		d.Detail = "HCL normalizes every string, so clients get the composed form when mcpsync writes them; " +
			"a path whose file name is stored decomposed (as on macOS) may then name another file on Linux"
		ds = append(ds, d.At(srv.Origin))
	}
	return ds
}

// positionOf is where value is written in data, at or after the server's
// own position (the server's position when it cannot be found).
func positionOf(data []byte, origin canonical.Pos, value string) canonical.Pos {
	if data == nil || value == "" {
		return origin
	}
	start := 0
	for n := 1; n < origin.Line && start < len(data); n++ {
		i := bytes.IndexByte(data[start:], '\n')
		if i < 0 {
			break
		}
		start += i + 1
	}
	// The first place the file spells the value in any of its formats'
	// ways: a value holding a quote is escaped there.
	i := -1
	for _, spelled := range secrets.Spellings(value) {
		if j := bytes.Index(data[start:], []byte(spelled)); j >= 0 && (i < 0 || j < i) {
			i = j
		}
	}
	if i < 0 {
		return origin
	}
	off := start + i
	return canonical.Pos{File: origin.File, Line: bytes.Count(data[:off], []byte("\n")) + 1,
		Column: off - (bytes.LastIndexByte(data[:off], '\n') + 1) + 1}
}

// planSecretRewrites plans rewriting each client file that held a moved
// secret so that its entries hold the references instead, in the client's
// own spelling. It refuses, before anything is written, when a client
// cannot hold a reference where the secret is: the value would stay.
func (e *Engine) planSecretRewrites(ad formats.Adapter, locs []formats.Location, ex ImportSecrets) ([]*emitters.Plan, error) {
	db, err := ledger.Load(e.Dirs.State)
	if err != nil {
		return nil, err
	}
	var plans []*emitters.Plan
	for _, loc := range locs {
		var servers canonical.Set
		var values []secrets.Extraction
		for _, srv := range ex.extracted.Servers {
			if _, moved := ex.original[srv.Name]; moved && ex.origin[srv.Name] == loc.Path {
				s := srv.Clone()
				s.Origin = canonical.Pos{}
				servers.Servers = append(servers.Servers, s)
			}
		}
		for _, m := range ex.moved {
			if ex.origin[m.Server] == loc.Path {
				values = append(values, m)
			}
		}
		if servers.Len() == 0 {
			continue
		}
		if loc.ReadOnly {
			d := canonical.Errorf("%s is read-only for mcpsync: the secrets in it cannot be moved out", loc.Path)
			d.Detail = loc.Note + "; move them by hand, or import without --extract-secrets; nothing was written"
			return nil, &ProblemsError{Diags: canonical.Diagnostics{d}, Msg: "nothing was imported or written"}
		}
		p := emitters.PlanExport([]emitters.Target{{Adapter: ad, Location: loc}}, emitters.ExportOptions{
			Servers: servers, State: db, Force: true, Encode: formats.EncodeOptions{OS: e.GOOS},
		})
		if err := problems(p.Diags, "the client's file cannot be rewritten; nothing was imported or written"); err != nil {
			return nil, err
		}
		for _, m := range values {
			// The client must expand the reference it is given; an adapter
			// that cannot make it do so warns about that reference.
			for _, d := range p.Diags {
				if d.Server == m.Server && strings.Contains(d.Summary, "${"+m.Var+"}") {
					bad := canonical.Errorf("%s cannot take %s's %s from the environment: %s", ad.DisplayName(), m.Server, m.Field, d.Summary)
					bad.Server, bad.Field = m.Server, m.Field
					bad.Detail = "the secret has to stay in the file for this client: keep the file private (chmod 600), " +
						"or import without --extract-secrets; nothing was imported or written"
					return nil, &ProblemsError{Diags: canonical.Diagnostics{bad.At(canonical.Pos{File: loc.Path})}, Msg: "nothing was imported or written"}
				}
			}
		}
		for _, fc := range p.Files {
			for _, m := range values {
				if fc.After != nil && bytes.Contains(fc.After, []byte(m.Value)) || !fc.Changed() {
					d := canonical.Errorf("%s cannot take %s's %s from the environment: the value would stay in the file", ad.DisplayName(), m.Server, m.Field)
					d.Server, d.Field = m.Server, m.Field
					d.Detail = "move it by hand, or import without --extract-secrets and keep the file private (chmod 600); nothing was imported or written"
					return nil, &ProblemsError{Diags: canonical.Diagnostics{d.At(canonical.Pos{File: loc.Path})}, Msg: "nothing was imported or written"}
				}
			}
		}
		plans = append(plans, p)
	}
	return plans, nil
}

// ExtractedSecret is one moved secret, as --json shows it.
type ExtractedSecret struct {
	Server string `json:"server"`
	Field  string `json:"field"`
	Var    string `json:"var"`
	Label  string `json:"label"`
	Masked string `json:"masked"`
	// Export is the line to set; it holds the value only when values may
	// be printed (a terminal, or --show-secrets).
	Export string `json:"export"`
}

// Extracted lists the moved secrets; reveal puts each value in its export
// line (only where values may be printed).
func (ex ImportSecrets) Extracted(reveal bool) []ExtractedSecret {
	out := make([]ExtractedSecret, 0, len(ex.moved))
	for _, m := range ex.moved {
		x := ExtractedSecret{Server: m.Server, Field: m.Field, Var: m.Var, Label: m.Label, Masked: m.Masked(),
			Export: "export " + m.Var + "=" + m.Masked()}
		if reveal {
			x.Export = "export " + m.Var + "=" + ShellQuote(m.Value)
		}
		out = append(out, x)
	}
	return out
}

// Moved lists the secrets the extraction moves, in order.
func (ex ImportSecrets) Moved() []secrets.Extraction { return ex.moved }

// Files are the client files the moved secrets come from.
func (ex ImportSecrets) Files() []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range ex.moved {
		if f := ex.origin[m.Server]; !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}
