// Package hclfmt lays out HCL source the way hclwrite.Format does: each
// line indented two spaces per open bracket, one space or none between
// tokens by the same rules, and the '=' of consecutive attribute lines
// (and their trailing comments) aligned in a column. Only white space
// changes.
//
// Why not hclwrite itself: the store writes its blocks through Format, and
// linking hclwrite links github.com/google/go-cmp, whose package
// initialisation (regular expressions compiled at start) every mcpsync
// command paid: about 70 page faults and 3 ms of a 22 to 25 ms start here
// (the start-only build, alternating runs), for a function that formats a
// few lines. FuzzFormat holds the output byte for byte equal to hclwrite's.
package hclfmt

import (
	"bytes"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// token is one lexical token and the spaces to write before it.
type token struct {
	hclsyntax.Token
	spaces int
	width  int // columns: grapheme clusters of its text
}

// line is one source line in up to three cells, each a run of tokens:
// lead, then assign (from an attribute's '=' to the end of the line), then
// a trailing comment. Format aligns the first token of assign and of
// comment across neighbouring lines.
type line struct {
	lead, assign, comment []*token
}

// Format returns src laid out as hclwrite.Format lays it out.
func Format(src []byte) []byte {
	tokens := lex(src)
	lines := splitLines(tokens)
	indent(lines)
	space(lines)
	align(lines)
	var out bytes.Buffer
	out.Grow(len(src) + len(src)/8)
	for _, t := range tokens {
		for range t.spaces {
			out.WriteByte(' ')
		}
		out.Write(t.Bytes)
	}
	return out.Bytes()
}

func lex(src []byte) []*token {
	native, _ := hclsyntax.LexConfig(src, "", hcl.InitialPos)
	buf := make([]token, len(native))
	out := make([]*token, len(native))
	last := 0
	for i, n := range native {
		// The lexer skips only ASCII spaces between tokens, so the bytes
		// skipped are the spaces.
		buf[i] = token{Token: n, spaces: n.Range.Start.Byte - last, width: width(n)}
		last = n.Range.End.Byte
		out[i] = &buf[i]
	}
	return out
}

// width counts the grapheme clusters of t's text, as hclwrite does: on one
// line that is the columns its range spans (the lexer counts them so); a
// token over several lines (a comment, a heredoc) is counted again.
func width(t hclsyntax.Token) int {
	if t.Range.Start.Line == t.Range.End.Line {
		return t.Range.End.Column - t.Range.Start.Column
	}
	n := 0
	for b := t.Bytes; len(b) > 0; n++ {
		advance, _, _ := scanGraphemes(b, true)
		if advance <= 0 {
			advance = 1
		}
		b = b[advance:]
	}
	return n
}

func columns(ts []*token) int {
	n := 0
	for _, t := range ts {
		n += t.spaces + t.width
	}
	return n
}

func endsLine(t *token) bool {
	switch t.Type {
	case hclsyntax.TokenNewline:
		return true
	case hclsyntax.TokenComment:
		// A # or // comment holds the newline that ends it.
		return len(t.Bytes) > 0 && t.Bytes[len(t.Bytes)-1] == '\n'
	}
	return false
}

func bracketChange(t *token) int {
	switch t.Type {
	case hclsyntax.TokenOBrace, hclsyntax.TokenOBrack, hclsyntax.TokenOParen, hclsyntax.TokenTemplateControl, hclsyntax.TokenTemplateInterp:
		return 1
	case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen, hclsyntax.TokenTemplateSeqEnd:
		return -1
	}
	return 0
}

func splitLines(tokens []*token) []line {
	var lines []line
	start := 0
	for i, t := range tokens {
		if t.Type == hclsyntax.TokenEOF {
			lines = append(lines, line{lead: tokens[start:i]})
			start = len(tokens)
			break
		}
		if endsLine(t) {
			lines = append(lines, line{lead: tokens[start : i+1]})
			start = i + 1
		}
	}
	if start < len(tokens) {
		lines = append(lines, line{lead: tokens[start:]})
	}
	for i := range lines {
		l := &lines[i]
		if len(l.lead) > 1 && l.lead[len(l.lead)-1].Type == hclsyntax.TokenComment {
			l.comment, l.lead = l.lead[len(l.lead)-1:], l.lead[:len(l.lead)-1]
		}
		for j, t := range l.lead {
			if j == 0 || t.Type != hclsyntax.TokenEqual {
				continue
			}
			// An '=' whose right side opens more brackets than it closes
			// starts a multi-line value: that line is not aligned.
			net := 0
			for _, u := range l.lead[j:] {
				net += bracketChange(u)
			}
			if net == 0 {
				l.assign, l.lead = l.lead[j:], l.lead[:j]
			}
			break
		}
	}
	return lines
}

// indent sets each line's leading spaces: two per level of brackets left
// open by the lines before, a line that closes more than it opens taking
// the level it closes to. A stack of how many brackets each level opened
// keeps unbalanced lines from drifting.
func indent(lines []line) {
	var levels []int
	for i := range lines {
		l := &lines[i]
		if len(l.lead) == 0 {
			continue
		}
		if l.lead[0].Type == hclsyntax.TokenNewline {
			l.lead[0].spaces = 0
			continue
		}
		net := 0
		for _, t := range l.lead {
			net += bracketChange(t)
			if t.Type == hclsyntax.TokenOHeredoc {
				break
			}
		}
		for _, t := range l.assign {
			net += bracketChange(t)
		}
		switch {
		case net > 0:
			l.lead[0].spaces = 2 * len(levels)
			levels = append(levels, net)
		case net < 0:
			for closed := -net; closed > 0 && len(levels) > 0; {
				top := &levels[len(levels)-1]
				switch {
				case closed > *top:
					closed -= *top
					levels = levels[:len(levels)-1]
				case closed < *top:
					*top -= closed
					closed = 0
				default:
					levels = levels[:len(levels)-1]
					closed = 0
				}
			}
			l.lead[0].spaces = 2 * len(levels)
		default:
			l.lead[0].spaces = 2 * len(levels)
		}
	}
}

var none = &token{Token: hclsyntax.Token{Type: hclsyntax.TokenNil}}

// space sets the spaces between the tokens within each cell.
func space(lines []line) {
	for _, l := range lines {
		spaceCell(l.lead, false)
		spaceCell(l.assign, true)
	}
}

func spaceCell(cell []*token, assign bool) {
	for i, t := range cell {
		if i == 0 && assign {
			t.spaces = 1 // the '=' stands apart from the name
		}
		if i == len(cell)-1 {
			continue
		}
		before := none
		if i > 0 {
			before = cell[i-1]
		}
		after := cell[i+1]
		after.spaces = 0
		if spaceAfter(t, before, after) {
			after.spaces = 1
		}
	}
}

// spaceAfter decides whether one space follows subject, between before
// and after: hclwrite's rules, in its order (the first that applies wins).
func spaceAfter(subject, before, after *token) bool {
	s, a := subject.Type, after.Type
	switch {
	case a == hclsyntax.TokenNewline || a == hclsyntax.TokenNil:
		return false
	case s == hclsyntax.TokenIdent && a == hclsyntax.TokenOParen:
		return false // a call: f(
	case s == hclsyntax.TokenIdent && a == hclsyntax.TokenDoubleColon,
		s == hclsyntax.TokenDoubleColon && a == hclsyntax.TokenIdent:
		return false // a namespaced function: provider::f
	case s == hclsyntax.TokenDot || a == hclsyntax.TokenDot:
		return false
	case a == hclsyntax.TokenComma || a == hclsyntax.TokenEllipsis:
		return false
	case s == hclsyntax.TokenComma:
		return true
	case s == hclsyntax.TokenQuotedLit || s == hclsyntax.TokenStringLit || s == hclsyntax.TokenOQuote || s == hclsyntax.TokenOHeredoc ||
		a == hclsyntax.TokenQuotedLit || a == hclsyntax.TokenStringLit || a == hclsyntax.TokenCQuote || a == hclsyntax.TokenCHeredoc:
		return false // inside a template
	case s == hclsyntax.TokenIdent && string(subject.Bytes) == "in" && before.Type == hclsyntax.TokenIdent:
		return true // for x in [foo]: the keyword, not an index
	case a == hclsyntax.TokenOBrack && (s == hclsyntax.TokenIdent || s == hclsyntax.TokenNumberLit || bracketChange(subject) < 0):
		return false // an index: a[0]
	case s == hclsyntax.TokenBang:
		return false
	case s == hclsyntax.TokenMinus:
		// Negation (no space) unless what comes before could end an
		// expression.
		switch before.Type {
		case hclsyntax.TokenNil,
			hclsyntax.TokenOParen, hclsyntax.TokenOBrace, hclsyntax.TokenOBrack, hclsyntax.TokenEqual, hclsyntax.TokenColon, hclsyntax.TokenComma, hclsyntax.TokenQuestion,
			hclsyntax.TokenPlus, hclsyntax.TokenStar, hclsyntax.TokenSlash, hclsyntax.TokenPercent, hclsyntax.TokenMinus,
			hclsyntax.TokenEqualOp, hclsyntax.TokenNotEqual, hclsyntax.TokenGreaterThan, hclsyntax.TokenGreaterThanEq, hclsyntax.TokenLessThan, hclsyntax.TokenLessThanEq,
			hclsyntax.TokenAnd, hclsyntax.TokenOr, hclsyntax.TokenBang:
			return false
		}
		return true
	case s == hclsyntax.TokenOBrace || a == hclsyntax.TokenCBrace:
		// Braces have spaces inside, { a = 1 }, except an empty pair: {}.
		return !(s == hclsyntax.TokenOBrace && a == hclsyntax.TokenCBrace)
	case (s == hclsyntax.TokenTemplateInterp || s == hclsyntax.TokenTemplateControl) && a == hclsyntax.TokenOBrace:
		return true // ${ {
	case s == hclsyntax.TokenCBrace && a == hclsyntax.TokenTemplateSeqEnd:
		return true // } }
	case s == hclsyntax.TokenTemplateSeqEnd && (a == hclsyntax.TokenTemplateInterp || a == hclsyntax.TokenTemplateControl):
		return false
	case bracketChange(subject) > 0:
		return false
	case bracketChange(after) < 0:
		return false
	}
	return true
}

// align puts the '=' of each run of consecutive attribute lines one space
// after the longest name, then the trailing comments of each run of
// commented lines one space after the longest code.
func align(lines []line) {
	alignRuns(lines, func(l line) []*token { return l.assign }, func(l line) int { return columns(l.lead) })
	alignRuns(lines, func(l line) []*token { return l.comment }, func(l line) int { return columns(l.lead) + columns(l.assign) })
}

func alignRuns(lines []line, cell func(line) []*token, before func(line) int) {
	start, widest := -1, 0
	closeRun := func(end int) {
		for _, l := range lines[start:end] {
			cell(l)[0].spaces = widest - before(l) + 1
		}
		start, widest = -1, 0
	}
	for i, l := range lines {
		if cell(l) == nil {
			if start >= 0 {
				closeRun(i)
			}
			continue
		}
		if start < 0 {
			start = i
		}
		widest = max(widest, before(l))
	}
	if start >= 0 {
		closeRun(len(lines))
	}
}
