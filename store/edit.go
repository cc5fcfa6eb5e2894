package store

import (
	"bytes"
	"reflect"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/mapkeys"
)

// An edit replaces src[start:end] with text. Edits never overlap.
type edit struct {
	start, end int
	text       string
}

func applyEdits(src []byte, edits []edit) []byte {
	if len(edits) == 0 {
		return src
	}
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var out bytes.Buffer
	at := 0
	for _, e := range edits {
		if e.start < at { // two removals that share a blank line
			if e.end <= at {
				continue
			}
			e.start = at
		}
		out.Write(src[at:e.start])
		out.WriteString(e.text)
		at = e.end
	}
	out.Write(src[at:])
	return out.Bytes()
}

// edits compares the servers now with the blocks in the file and returns the
// smallest set of changes to the text.
func (s *Store) edits() []edit {
	if s.broken || s.unchangedSinceCache() {
		return nil
	}
	want := make(map[string]*canonical.Server, len(s.Servers.Servers))
	for i := range s.Servers.Servers {
		want[s.Servers.Servers[i].Name] = &s.Servers.Servers[i]
	}
	blocks, rulesAsLoaded := s.blocksFromCache(want)
	if blocks == nil {
		s.ensureSyntax()
		blocks = make([]*serverBlock, 0, len(s.blocks))
		for _, b := range s.blocks {
			blocks = append(blocks, b)
		}
		sort.Slice(blocks, func(i, j int) bool {
			return blocks[i].syntax.TypeRange.Start.Byte < blocks[j].syntax.TypeRange.Start.Byte
		})
	}
	var out []edit
	var lastKept *serverBlock
	had := make(map[string]bool, len(blocks))
	for _, b := range blocks {
		had[b.srv.Name] = true
		srv, keep := want[b.srv.Name]
		if !keep {
			out = append(out, s.removeBlock(b))
			continue
		}
		out = append(out, s.editBlock(b, srv)...)
		lastKept = b
	}
	insertAt := -1
	var added []string
	for _, srv := range s.Servers.Servers {
		if !had[srv.Name] {
			added = append(added, strings.TrimSuffix(renderServerBlock(srv), "\n"))
		}
	}
	if len(added) > 0 && lastKept != nil {
		insertAt = lineEnd(s.src, lastKept.syntax.CloseBraceRange.End.Byte)
	}
	if len(added) > 0 {
		text := strings.Join(added, "\n\n")
		if insertAt >= 0 {
			out = append(out, edit{insertAt, insertAt, "\n\n" + text})
		} else {
			n := len(s.src)
			var sep string
			switch {
			case n == 0, bytes.HasSuffix(s.src, []byte("\n\n")):
			case s.src[n-1] == '\n':
				sep = "\n"
			default:
				sep = "\n\n"
			}
			out = append(out, edit{n, n, sep + text + "\n"})
		}
	}
	if rulesAsLoaded {
		return out // the client rules are those in the file: nothing to change there
	}
	return append(out, s.clientEdits()...) // the client rules (clientrule.go)
}

// blocksFromCache returns the server blocks of a store from the cache in
// file order, with the syntax of only those an edit needs (a block that
// changes or goes, and the last one kept when servers are added after it),
// when the client rules are still those loaded, so that no edit needs the
// rest: the edit of one server in a store of 10,000 parsed all 10,000
// blocks for it. Each block needed is parsed from its header's line to the
// next server's (the cache gives each server's line); nil when the store
// is not from the cache, or any of those pieces does not parse alone to
// exactly its block (a comment that spans into its header's line, say):
// then the whole file's syntax is read.
func (s *Store) blocksFromCache(want map[string]*canonical.Server) (blocks []*serverBlock, rulesAsLoaded bool) {
	loaded := s.loaded
	if s.blocks != nil || loaded == nil || !reflect.DeepEqual(s.Clients, loaded.Clients) {
		return nil, false
	}
	servers := loaded.Servers
	need := make([]bool, len(servers))
	lastKept := -1
	for i := range servers {
		srv, keep := want[servers[i].Name]
		if !keep || !serversEqual(&servers[i], srv) {
			need[i] = true
		}
		if keep {
			lastKept = i
		}
	}
	if lastKept >= 0 {
		inFile := make(map[string]bool, len(servers))
		for i := range servers {
			inFile[servers[i].Name] = true
		}
		for name := range want {
			if !inFile[name] {
				need[lastKept] = true // the servers added go after it
				break
			}
		}
	}
	var lines []int // where each line starts, built when a block is needed
	blocks = make([]*serverBlock, len(servers))
	for i := range servers {
		blocks[i] = &serverBlock{srv: servers[i]}
		if !need[i] {
			continue
		}
		if lines == nil {
			lines = lineStarts(s.src)
		}
		syntax, ok := s.blockOnItsLines(servers, i, lines)
		if !ok {
			return nil, false
		}
		blocks[i].syntax = syntax
	}
	return blocks, true
}

// blockOnItsLines parses servers[i]'s block from the start of its header's
// line to the start of the next server's header line (or the end), and
// returns it when that text parses without a diagnostic and its first
// block is that server's, at the place the cache says, with nothing but
// blanks before it on its line.
func (s *Store) blockOnItsLines(servers []canonical.Server, i int, lines []int) (*hclsyntax.Block, bool) {
	line := servers[i].Origin.Line
	if line < 1 || line > len(lines) {
		return nil, false
	}
	start, end := lines[line-1], len(s.src)
	if i+1 < len(servers) {
		next := servers[i+1].Origin.Line
		if next <= line || next > len(lines) {
			return nil, false
		}
		end = lines[next-1]
	}
	f, diags := hclsyntax.ParseConfig(s.src[start:end], s.Path, hcl.Pos{Line: line, Column: 1, Byte: start})
	if len(diags) > 0 {
		return nil, false
	}
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok || len(body.Blocks) == 0 {
		return nil, false
	}
	blk := body.Blocks[0]
	if blk.Type != "server" || len(blk.Labels) != 1 || blk.Labels[0] != servers[i].Name ||
		blk.LabelRanges[0].Start.Line != line || blk.LabelRanges[0].Start.Column != servers[i].Origin.Column ||
		len(bytes.TrimLeft(s.src[start:blk.TypeRange.Start.Byte], " \t")) != 0 {
		return nil, false
	}
	return blk, true
}

// lineStarts returns the offset in src at which each line starts.
func lineStarts(src []byte) []int {
	starts := make([]int, 1, bytes.Count(src, []byte{'\n'})+1)
	for at := 0; ; {
		i := bytes.IndexByte(src[at:], '\n')
		if i < 0 {
			return starts
		}
		at += i + 1
		starts = append(starts, at)
	}
}

// removeBlock cuts a server block out, whole lines, with one blank line
// around it so that no gap is left. Comments above it stay: they may speak
// of more than this server.
func (s *Store) removeBlock(b *serverBlock) edit {
	start := lineStartIfBlank(s.src, b.syntax.TypeRange.Start.Byte)
	end := lineEnd(s.src, b.syntax.CloseBraceRange.End.Byte)
	if end < len(s.src) {
		end++ // the newline
	}
	blankBefore := start == 0 || start >= 2 && s.src[start-1] == '\n' && isBlankLine(s.src, lineStart(s.src, start-1))
	if blankBefore {
		if next := end; next < len(s.src) && isBlankLine(s.src, next) {
			end = min(lineEnd(s.src, next)+1, len(s.src))
		} else if end == len(s.src) && start > 0 {
			start = lineStart(s.src, start-1) // drop the blank line that would now end the file
		}
	}
	return edit{start, end, ""}
}

// editBlock changes only the attributes and nested blocks of a server that
// differ; the user's formatting, comments and attribute order stay.
func (s *Store) editBlock(b *serverBlock, srv *canonical.Server) []edit {
	old := &b.srv
	if serversEqual(old, srv) {
		return nil
	}
	blk := b.syntax
	if blk.OpenBraceRange.Start.Line == blk.CloseBraceRange.Start.Line {
		// a one-line block has nowhere to put a new line: rewrite it whole
		start := lineStartIfBlank(s.src, blk.TypeRange.Start.Byte)
		end := blk.CloseBraceRange.End.Byte
		return []edit{{start, end, strings.TrimSuffix(renderServerBlock(*srv), "\n")}}
	}
	indent := s.bodyIndent(blk)
	var out []edit
	var inserts strings.Builder
	for _, a := range serverAttrs {
		attr := blk.Body.Attributes[a.name]
		newExpr, newOK := a.render(srv, attr != nil, indent)
		oldExpr, oldOK := a.render(old, attr != nil, indent)
		if newOK == oldOK && newExpr == oldExpr {
			continue
		}
		switch {
		case attr != nil && !newOK:
			out = append(out, s.removeLines(attr.SrcRange.Start.Byte, attr.SrcRange.End.Byte))
		case attr != nil:
			r := attr.Expr.Range()
			out = append(out, edit{r.Start.Byte, r.End.Byte, newExpr})
		case newOK:
			inserts.WriteString(indent + a.name + " = " + newExpr + "\n")
		}
	}

	if !oauthEqual(old.Auth.OAuth, srv.Auth.OAuth) {
		text := renderOAuth(srv.Auth.OAuth, indent)
		if nested := nestedBlocks(blk, "oauth", ""); len(nested) > 0 {
			out = append(out, s.replaceLines(nested[0], text))
		} else {
			inserts.WriteString(text)
		}
	}
	clients := map[string]bool{}
	for c := range old.Extra {
		clients[c] = true
	}
	for c := range srv.Extra {
		clients[c] = true
	}
	for _, c := range mapkeys.Sorted(clients) {
		if canonical.ExtraEqual(old.Extra[c], srv.Extra[c]) {
			continue
		}
		text := renderExtra(c, srv.Extra[c], indent)
		if nested := nestedBlocks(blk, "extra", c); len(nested) > 0 {
			out = append(out, s.replaceLines(nested[0], text))
		} else {
			inserts.WriteString(text)
		}
	}
	if inserts.Len() > 0 {
		at := lineStartIfBlank(s.src, blk.CloseBraceRange.Start.Byte)
		if at == blk.CloseBraceRange.Start.Byte && at != lineStart(s.src, at) { // "}" shares its line with content
			out = append(out, edit{at, at, "\n" + inserts.String()})
		} else {
			out = append(out, edit{at, at, inserts.String()})
		}
	}
	return out
}

// replaceLines swaps a nested block's lines for text (which may be empty).
func (s *Store) replaceLines(blk *hclsyntax.Block, text string) edit {
	e := s.removeLines(blk.TypeRange.Start.Byte, blk.CloseBraceRange.End.Byte)
	e.text = text
	return e
}

// removeLines deletes the lines from start to end, with a comment that
// trails on the last line.
func (s *Store) removeLines(start, end int) edit {
	start = lineStartIfBlank(s.src, start)
	end = lineEnd(s.src, end)
	if end < len(s.src) {
		end++
	}
	return edit{start, end, ""}
}

func nestedBlocks(blk *hclsyntax.Block, typ, label string) []*hclsyntax.Block {
	var out []*hclsyntax.Block
	for _, b := range blk.Body.Blocks {
		if b.Type == typ && (label == "" || len(b.Labels) == 1 && b.Labels[0] == label) {
			out = append(out, b)
		}
	}
	return out
}

// bodyIndent is the indentation of the block's attributes, or the block's
// own plus two spaces when it has none.
func (s *Store) bodyIndent(blk *hclsyntax.Block) string {
	first := -1
	for _, a := range blk.Body.Attributes {
		if first < 0 || a.SrcRange.Start.Byte < first {
			first = a.SrcRange.Start.Byte
		}
	}
	for _, b := range blk.Body.Blocks {
		if first < 0 || b.TypeRange.Start.Byte < first {
			first = b.TypeRange.Start.Byte
		}
	}
	if first >= 0 && lineStartIfBlank(s.src, first) != first {
		ls := lineStart(s.src, first)
		return string(s.src[ls:first])
	}
	ls := lineStart(s.src, blk.TypeRange.Start.Byte)
	return leadingBlanks(s.src[ls:blk.TypeRange.Start.Byte]) + "  "
}

func leadingBlanks(b []byte) string {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	return string(b[:i])
}

func lineStart(src []byte, at int) int {
	return bytes.LastIndexByte(src[:at], '\n') + 1
}

// lineStartIfBlank returns the start of at's line when only blanks precede
// at on it, else at.
func lineStartIfBlank(src []byte, at int) int {
	ls := lineStart(src, at)
	if strings.TrimLeft(string(src[ls:at]), " \t") == "" {
		return ls
	}
	return at
}

// lineEnd returns the offset of the newline ending at's line (or the end of
// the file), so a trailing comment goes with what precedes it.
func lineEnd(src []byte, at int) int {
	if i := bytes.IndexByte(src[at:], '\n'); i >= 0 {
		if i > 0 && src[at+i-1] == '\r' {
			return at + i - 1
		}
		return at + i
	}
	return len(src)
}

func isBlankLine(src []byte, at int) bool {
	end := bytes.IndexByte(src[at:], '\n')
	if end < 0 {
		end = len(src) - at
	}
	return strings.TrimSpace(string(src[at:at+end])) == ""
}

// serversEqual compares everything a store block holds, Extra of every client included.
func serversEqual(a, b *canonical.Server) bool {
	clients := map[string]bool{}
	for c := range a.Extra {
		clients[c] = true
	}
	for c := range b.Extra {
		clients[c] = true
	}
	return canonical.Equal(*a, *b, mapkeys.Sorted(clients)...)
}

func oauthEqual(a, b *canonical.OAuth) bool {
	if a.IsZero() || b.IsZero() {
		return a.IsZero() && b.IsZero()
	}
	return reflect.DeepEqual(*a, *b)
}
