package store

// Client rules are edited like servers: Clients holds the rules as they are
// now, and Bytes compares them with the client blocks of the file as loaded
// and splices only what differs. A changed list is replaced in place (the
// attribute's own comment stays), a list that goes away loses its line, a
// block left with nothing in it is cut out, and a new block goes after the
// last client block, else at the end of the file.

import (
	"bytes"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// IsZero reports whether the rule says nothing: the client gets every server.
func (r ClientRule) IsZero() bool { return len(r.Include) == 0 && len(r.Exclude) == 0 }

// Without returns the rule changed so that the client no longer gets
// server: it joins Exclude, and leaves Include too unless it is the last
// name there (an empty Include would mean every server).
func (r ClientRule) Without(server string) ClientRule {
	out := ClientRule{Include: slices.Clone(r.Include), Exclude: slices.Clone(r.Exclude), Pos: r.Pos}
	if slices.Contains(out.Include, server) && slices.ContainsFunc(out.Include, func(n string) bool { return n != server }) {
		out.Include = slices.DeleteFunc(out.Include, func(n string) bool { return n == server })
	}
	if !slices.Contains(out.Exclude, server) {
		out.Exclude = append(out.Exclude, server)
	}
	return out
}

// With returns the rule changed so that the client gets server: it leaves
// Exclude, and joins Include when the rule has one (a rule without Include
// already lets every other server through).
func (r ClientRule) With(server string) ClientRule {
	out := ClientRule{Include: slices.Clone(r.Include), Exclude: slices.Clone(r.Exclude), Pos: r.Pos}
	out.Exclude = slices.DeleteFunc(out.Exclude, func(n string) bool { return n == server })
	if len(out.Include) > 0 && !slices.Contains(out.Include, server) {
		out.Include = append(out.Include, server)
	}
	return out
}

// SetClientRule sets which servers client gets; Bytes and Save write it
// into the client "NAME" block, with the servers' edits. A zero rule
// removes the client's rule: it gets every server again.
func (s *Store) SetClientRule(client string, rule ClientRule) {
	if s.Clients == nil {
		s.Clients = map[string]ClientRule{}
	}
	old, had := s.Clients[client]
	if rule.IsZero() {
		delete(s.Clients, client)
		return
	}
	rule = ClientRule{Include: slices.Clone(rule.Include), Exclude: slices.Clone(rule.Exclude), Pos: rule.Pos}
	if had {
		rule.Pos = old.Pos
	}
	s.Clients[client] = rule
}

// clientBlock is a client rule as it is in the file.
type clientBlock struct {
	name   string
	rule   ClientRule
	syntax *hclsyntax.Block
}

// clientBlocks reads the client blocks of the file as loaded, in file
// order. Only the text between the server blocks is read again: the client
// blocks are there, and a store is mostly servers. ok is false when that
// text cannot be read, in which case no rule may be written.
func (s *Store) clientBlocks() (blocks []clientBlock, ok bool) {
	s.ensureSyntax()
	servers := make([]*hclsyntax.Block, 0, len(s.blocks))
	for _, b := range s.blocks {
		servers = append(servers, b.syntax)
	}
	sort.Slice(servers, func(i, j int) bool { return servers[i].TypeRange.Start.Byte < servers[j].TypeRange.Start.Byte })
	d := &decoder{file: s.Path}
	read := func(from, to int) bool {
		text := s.src[from:to]
		if !bytes.Contains(text, []byte("client")) {
			return true
		}
		f, diags := hclsyntax.ParseConfig(text, s.Path, hcl.Pos{Line: 1, Column: 1, Byte: from})
		if diags.HasErrors() {
			return false
		}
		for _, b := range f.Body.(*hclsyntax.Body).Blocks {
			if b.Type != "client" || len(b.Labels) != 1 {
				continue
			}
			cb := clientBlock{name: b.Labels[0], syntax: b}
			if a := b.Body.Attributes["include"]; a != nil {
				cb.rule.Include = d.strList(a.AsHCLAttribute(), "")
			}
			if a := b.Body.Attributes["exclude"]; a != nil {
				cb.rule.Exclude = d.strList(a.AsHCLAttribute(), "")
			}
			blocks = append(blocks, cb)
		}
		return true
	}
	at := 0
	for _, srv := range servers {
		if !read(at, srv.TypeRange.Start.Byte) {
			return nil, false
		}
		at = srv.CloseBraceRange.End.Byte
	}
	if !read(at, len(s.src)) {
		return nil, false
	}
	return blocks, !d.diags.HasErrors()
}

// clientEdits compares the rules now with the client blocks in the file and
// returns the changes to the text.
func (s *Store) clientEdits() []edit {
	if s.broken {
		return nil
	}
	blocks, ok := s.clientBlocks()
	if !ok {
		return nil
	}
	var out []edit
	insertAt := -1
	inFile := map[string]bool{}
	for _, b := range blocks {
		inFile[b.name] = true
		want := s.Clients[b.name]
		removed := false
		if !sameRule(b.rule, want) {
			var eds []edit
			eds, removed = s.editClientBlock(b, want)
			out = append(out, eds...)
		}
		if !removed {
			insertAt = lineEnd(s.src, b.syntax.CloseBraceRange.End.Byte)
		}
	}
	var names []string
	for name, rule := range s.Clients {
		if !inFile[name] && !rule.IsZero() {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return out
	}
	sort.Strings(names)
	added := make([]string, len(names))
	for i, name := range names {
		added[i] = renderClientBlock(name, s.Clients[name])
	}
	text := strings.Join(added, "\n\n")
	if insertAt >= 0 {
		return append(out, edit{insertAt, insertAt, "\n\n" + text})
	}
	n := len(s.src)
	var sep string
	switch {
	case s.serversAppendAtEnd():
		sep = "\n" // after the new servers' block, which ends its line
	case n == 0, bytes.HasSuffix(s.src, []byte("\n\n")):
	case s.src[n-1] == '\n':
		sep = "\n"
	default:
		sep = "\n\n"
	}
	return append(out, edit{n, n, sep + text + "\n"})
}

// serversAppendAtEnd reports whether the servers' edits put new server
// blocks at the end of the file (there is no server block left to put them
// after), where the new client blocks go too.
func (s *Store) serversAppendAtEnd() bool {
	s.ensureSyntax()
	kept, added := false, false
	for _, srv := range s.Servers.Servers {
		if _, had := s.blocks[srv.Name]; had {
			kept = true
		} else {
			added = true
		}
	}
	return added && !kept
}

func sameRule(a, b ClientRule) bool {
	return slices.Equal(a.Include, b.Include) && slices.Equal(a.Exclude, b.Exclude)
}

// editClientBlock changes a client block to say want. removed says the
// whole block was cut out: nothing was left in it, not even a comment.
func (s *Store) editClientBlock(b clientBlock, want ClientRule) (edits []edit, removed bool) {
	blk := b.syntax
	if want.IsZero() && s.onlyRules(blk) {
		return []edit{s.removeBlock(&serverBlock{syntax: blk})}, true
	}
	lists := []struct {
		name      string
		have, now []string
	}{{"include", b.rule.Include, want.Include}, {"exclude", b.rule.Exclude, want.Exclude}}
	if blk.OpenBraceRange.Start.Line == blk.CloseBraceRange.Start.Line {
		return s.editOneLineClient(b, want), false
	}
	indent := s.bodyIndent(blk)
	var out []edit
	var inserts strings.Builder
	for _, l := range lists {
		if slices.Equal(l.have, l.now) {
			continue
		}
		attr := blk.Body.Attributes[l.name]
		switch {
		case attr != nil && len(l.now) == 0:
			out = append(out, s.removeLines(attr.SrcRange.Start.Byte, attr.SrcRange.End.Byte))
		case attr != nil:
			r := attr.Expr.Range()
			out = append(out, edit{r.Start.Byte, r.End.Byte, nameList(l.now, indent, len(l.name)+3)})
		default:
			inserts.WriteString(indent + l.name + " = " + nameList(l.now, indent, len(l.name)+3) + "\n")
		}
	}
	if inserts.Len() > 0 {
		at := lineStartIfBlank(s.src, blk.CloseBraceRange.Start.Byte)
		text := inserts.String()
		if at == blk.CloseBraceRange.Start.Byte && at != lineStart(s.src, at) { // "}" shares its line with a comment
			text = "\n" + text
		}
		out = append(out, edit{at, at, text})
	}
	return out, false
}

// editOneLineClient edits a block written on one line, which holds one
// attribute at most: its list is replaced in place when it stays the only
// one; otherwise the braces and what is between them are written again on
// several lines, a comment there kept on a line of its own.
func (s *Store) editOneLineClient(b clientBlock, want ClientRule) []edit {
	blk := b.syntax
	var attr *hclsyntax.Attribute // the include or exclude list; a file attribute stays as it is
	for _, a := range blk.Body.Attributes {
		if isRuleAttr(a.Name) {
			attr = a
		}
	}
	wantsOnly := func(name string) bool {
		return name == "include" && len(want.Exclude) == 0 && len(want.Include) > 0 ||
			name == "exclude" && len(want.Include) == 0 && len(want.Exclude) > 0
	}
	switch {
	case attr != nil && wantsOnly(attr.Name):
		list := want.Include
		if attr.Name == "exclude" {
			list = want.Exclude
		}
		r := attr.Expr.Range()
		return []edit{{r.Start.Byte, r.End.Byte, nameList(list, "", 0)}}
	case attr != nil && want.IsZero(): // only a comment stays
		return []edit{{attr.SrcRange.Start.Byte, attr.SrcRange.End.Byte, ""}}
	}
	open, closing := blk.OpenBraceRange.End.Byte, blk.CloseBraceRange.Start.Byte
	inner := string(s.src[open:closing])
	if attr != nil {
		inner = string(s.src[open:attr.SrcRange.Start.Byte]) + string(s.src[attr.SrcRange.End.Byte:closing])
	}
	outer := leadingBlanks(s.src[lineStart(s.src, blk.TypeRange.Start.Byte):blk.TypeRange.Start.Byte])
	indent := outer + "  "
	var text strings.Builder
	text.WriteString("{\n")
	if c := strings.TrimSpace(inner); c != "" {
		text.WriteString(indent + c + "\n")
	}
	text.WriteString(renderRuleLines(want, indent))
	text.WriteString(outer + "}")
	return []edit{{blk.OpenBraceRange.Start.Byte, blk.CloseBraceRange.End.Byte, text.String()}}
}

// isRuleAttr reports whether a client block attribute is one of the lists
// mcpsync edits; file is the user's alone.
func isRuleAttr(name string) bool { return name == "include" || name == "exclude" }

// onlyRules reports whether the block holds nothing but its include and
// exclude attributes (and the comments on their lines), so that removing
// them leaves it empty.
func (s *Store) onlyRules(blk *hclsyntax.Block) bool {
	open, closing := blk.OpenBraceRange.End.Byte, blk.CloseBraceRange.Start.Byte
	oneLine := blk.OpenBraceRange.Start.Line == blk.CloseBraceRange.Start.Line
	type span struct{ start, end int }
	var spans []span
	for _, a := range blk.Body.Attributes {
		if !isRuleAttr(a.Name) {
			return false
		}
		end := a.SrcRange.End.Byte
		if !oneLine {
			end = lineEnd(s.src, end) // a comment after the list goes with it
		}
		spans = append(spans, span{a.SrcRange.Start.Byte, end})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	at := open
	rest := func(to int) bool { return to <= at || strings.TrimSpace(string(s.src[at:to])) == "" }
	for _, sp := range spans {
		if !rest(sp.start) {
			return false
		}
		at = max(at, min(sp.end, closing))
	}
	return rest(closing)
}

// renderClientBlock writes a new client block, without a final newline.
func renderClientBlock(name string, rule ClientRule) string {
	return "client " + quote(name) + " {\n" + renderRuleLines(rule, "  ") + "}"
}

func renderRuleLines(rule ClientRule, indent string) string {
	var b strings.Builder
	if len(rule.Include) > 0 {
		b.WriteString(indent + "include = " + nameList(rule.Include, indent, len("include = ")) + "\n")
	}
	if len(rule.Exclude) > 0 {
		b.WriteString(indent + "exclude = " + nameList(rule.Exclude, indent, len("exclude = ")) + "\n")
	}
	return b.String()
}

// nameList writes server names as a list of plain strings: a name is a
// name, never a reference, so "${X}" is written "$${X}".
func nameList(names []string, indent string, prefix int) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = quote(n)
	}
	return joinList(parts, indent, prefix)
}
