package adapterkit

import (
	"errors"

	"go.yaml.in/yaml/v3"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/internal/yamledit"
)

// YAMLSyntax is the error for a file yamledit cannot parse, at the line
// and column of the problem when there is one; detail says what the client
// does with such a file.
func YAMLSyntax(path string, err error, detail string) *canonical.Diagnostic {
	d := canonical.Errorf("invalid YAML: %v", err)
	var se *yamledit.SyntaxError
	if errors.As(err, &se) {
		d.Summary = "invalid YAML: " + se.Msg
		d.Line, d.Column = se.Line, se.Column
	}
	d.Detail = detail
	d.File = path
	return d
}

// A YAMLSection is where a client's YAML file keeps its servers, under one
// top-level key, and how the client words the errors that keep it from
// reading any of them.
type YAMLSection struct {
	Key    string    // the top-level key: mcpServers, extensions
	Client string    // the client's name in a warning: Goose
	Kind   yaml.Kind // what the key holds: a list of servers or a map of them
	// SyntaxDetail is the Detail of a syntax error: what the client does
	// with such a file.
	SyntaxDetail string
	// NotMappingDetail is the Detail of a file whose top is not a mapping.
	NotMappingDetail string
	// WrongKind and WrongKindDetail are the error for a key that holds
	// something other than Kind.
	WrongKind, WrongKindDetail string
}

// Read parses data and finds the node that holds the servers. doc is nil
// when data is not YAML; servers is nil when the file has none (no key, or
// a null one) or cannot have any (an error in diags says why).
func (s YAMLSection) Read(path string, data []byte) (doc *yamledit.Doc, servers *yaml.Node, diags NodeDiags) {
	diags.File = path
	doc, err := yamledit.Parse(data)
	if err != nil {
		diags.Diags = canonical.Diagnostics{YAMLSyntax(path, err, s.SyntaxDetail)}
		return nil, nil, diags
	}
	diags.Doc = doc
	if doc.Root != nil && doc.Root.Kind != yaml.MappingNode {
		diags.At(doc.Root, canonical.Error, "", "", "the file is not a YAML mapping", s.NotMappingDetail)
		return doc, nil, diags
	}
	k, v := doc.Lookup(s.Key)
	if k == nil || (v.Kind == yaml.ScalarNode && v.Tag == "!!null") {
		return doc, nil, diags
	}
	if v.Kind != s.Kind {
		diags.At(v, canonical.Error, "", "", s.WrongKind, s.WrongKindDetail)
		return doc, nil, diags
	}
	return doc, v, diags
}

// NodeDiags collects the diagnostics of one YAML file, each at a node.
type NodeDiags struct {
	File  string
	Diags canonical.Diagnostics
	// Doc is the file's document, which turns a node's line and column
	// into the ones shown (yamledit.Doc.Pos); nil leaves them as they are.
	Doc *yamledit.Doc
}

// At records a diagnostic at n (at the file alone when n is nil).
func (r *NodeDiags) At(n *yaml.Node, sev canonical.Severity, server, field, summary, detail string) {
	d := &canonical.Diagnostic{Severity: sev, Summary: summary, Detail: detail, Server: server, Field: field, File: r.File}
	if n != nil {
		p := r.Pos(n)
		d.Line, d.Column = p.Line, p.Column
	}
	r.Diags = append(r.Diags, d)
}

// Pos is where n is in the file, as mcpsync shows positions.
func (r *NodeDiags) Pos(n *yaml.Node) canonical.Pos {
	line, col := r.Doc.Pos(n.Line, n.Column)
	return canonical.Pos{File: r.File, Line: line, Column: col}
}

// MissingKeys does formats.SectionRemover's MissingKeys: 1 when the file
// has no Key at its top, which Encode then adds.
func (s YAMLSection) MissingKeys(data []byte) int {
	if yamledit.HasSection(data, s.Key) {
		return 0
	}
	return 1
}

// RemoveEmpty does formats.SectionRemover's RemoveEmptyKeys: the key goes
// when it holds nothing ({} or [] on its line, no comment). removed says it
// went; a key that cannot go safely stays, with a warning that says the
// client reads it as no servers.
func (s YAMLSection) RemoveEmpty(loc formats.Location, data []byte, n int) (out []byte, removed bool, ds canonical.Diagnostics) {
	if n <= 0 || loc.ReadOnly {
		return data, false, nil
	}
	doc, err := yamledit.Parse(data)
	if err != nil {
		return data, false, nil // Encode reports the file's errors
	}
	out, ok, err := doc.RemoveEmptySection(s.Key)
	if err != nil {
		d := canonical.Warnf("the empty %s key mcpsync added is left in place: %v", s.Key, err)
		d.Detail = s.Client + " reads an empty key as no servers; remove the line by hand if you like"
		return data, false, canonical.Diagnostics{d.At(canonical.Pos{File: loc.Path})}
	}
	if !ok {
		return data, false, nil
	}
	return out, true, nil
}
