package store

import (
	"bytes"
	"runtime"
	"sync"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// pieceSize is the size of a piece, and a store smaller than one and a
// half is parsed whole (about 400 servers). Pieces of 256 KiB left every
// store under 3,000 servers whole, and its lexer's one list of tokens,
// doubled again and again, was a third of a 1,000-server store's load:
// BenchmarkLoad1000 took 67 ms whole against 43 to 50 ms in pieces of 32
// KiB (48 to 52 ms in pieces of 64 KiB, 50 to 52 in pieces of 8 or 16,
// more of them), and mcpsync list --scope project after an edit of the
// store 94 against 113 ms (20 runs of each, in turn); at 10,000 servers
// it took the same (669 against 689 ms, 30 runs).
const pieceSize = 32 << 10

// parseConfig returns hclsyntax.ParseConfig's body of src, parsed in
// pieces side by side when src is large.
//
// Most of the parse of a large store is HCL's lexer, one token at a time
// into one growing list: 10,000 servers are 300,000 tokens, and the first
// run after an edit spent most of its time there. The text is cut into
// pieces at lines that start a top-level block right after a line holding
// only the closing brace of one, and each piece is parsed with its own
// start position, so every range is the one a whole parse gives. A piece
// that parses without a single diagnostic ends where a body item ends:
// every bracket, string, heredoc and comment in it is closed (one left
// open is a diagnostic), so the lexer and parser of the whole text are at
// the start of an item there too, and go on as the next piece's do. The
// one check a body makes across its items, an attribute defined twice, is
// made across the pieces. Anything else (a diagnostic in any piece, an
// attribute in two pieces) parses the text whole, so that the diagnostics
// are exactly HCL's. FuzzParseConfigPieces compares the two.
func parseConfig(src []byte, filename string) (*hclsyntax.Body, hcl.Diagnostics) {
	return parseConfigIn(src, filename, pieceSize)
}

func parseConfigIn(src []byte, filename string, size int) (*hclsyntax.Body, hcl.Diagnostics) {
	whole := func() (*hclsyntax.Body, hcl.Diagnostics) {
		f, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
		body, _ := f.Body.(*hclsyntax.Body)
		return body, diags
	}
	cuts := pieceCuts(src, size)
	if len(cuts) == 0 || !utf8.Valid(src) {
		// A piece starts on the line after the newlines before it; HCL
		// counts lines by characters, and an invalid byte can take the
		// newline after it into its character: a comment holding one put
		// every later piece a line below the whole parse
		// (FuzzParseConfigPieces). Such a store is rare, and the check
		// costs a fraction of the parse it guards.
		return whole()
	}
	starts := append([]int{0}, cuts...)
	bodies := make([]*hclsyntax.Body, len(starts))
	clean := make([]bool, len(starts))
	var wg sync.WaitGroup
	work := make(chan int)
	for range min(runtime.GOMAXPROCS(0), len(starts)) {
		wg.Go(func() {
			for i := range work {
				end := len(src)
				if i+1 < len(starts) {
					end = starts[i+1]
				}
				start := hcl.Pos{Line: 1 + bytes.Count(src[:starts[i]], []byte{'\n'}), Column: 1, Byte: starts[i]}
				f, diags := hclsyntax.ParseConfig(src[starts[i]:end], filename, start)
				bodies[i], _ = f.Body.(*hclsyntax.Body)
				clean[i] = len(diags) == 0 && bodies[i] != nil
			}
		})
	}
	for i := range starts {
		work <- i
	}
	close(work)
	wg.Wait()

	// Empty, not nil, as hclsyntax makes them: a store of attributes
	// alone has no blocks, and the body is the whole parse's to the byte.
	merged := &hclsyntax.Body{Attributes: hclsyntax.Attributes{}, Blocks: hclsyntax.Blocks{}}
	for i, b := range bodies {
		if !clean[i] {
			return whole()
		}
		for name, a := range b.Attributes {
			if _, twice := merged.Attributes[name]; twice {
				return whole() // HCL's own "Attribute redefined"
			}
			merged.Attributes[name] = a
		}
		merged.Blocks = append(merged.Blocks, b.Blocks...)
	}
	first, last := bodies[0], bodies[len(bodies)-1]
	merged.SrcRange = hcl.Range{Filename: filename, Start: first.SrcRange.Start, End: last.SrcRange.End}
	merged.EndRange = last.EndRange
	return merged, nil
}

// pieceCuts returns where to cut src into pieces of about size bytes:
// the start of a line that begins a top-level block ("server ...", at the
// first column) right after a line holding only "}". None when src is
// smaller than two pieces.
func pieceCuts(src []byte, size int) []int {
	var cuts []int
	for from := size; from < len(src)-size/2; {
		i := bytes.Index(src[from:], []byte("\n}\n"))
		// A CRLF line end only counts before the first LF one: looked for
		// in the whole rest of the text, it was a scan to the end for each
		// piece of a file without one, 12 ms of every parse of 10,000
		// servers.
		before := src[from:]
		if i >= 0 {
			before = before[:i+len("\n}\n")] // room for one that starts before i
		}
		if crlf := bytes.Index(before, []byte("\n}\r\n")); crlf >= 0 {
			i = crlf
		}
		if i < 0 {
			break
		}
		at := from + i + len("\n}\n")
		if src[from+i+2] == '\r' {
			at++
		}
		// Blank lines and comments between blocks stay with the piece
		// before; the cut is at the next line that starts a word.
		for at < len(src) && (src[at] == '\n' || src[at] == '\r') {
			at++
		}
		if at < len(src) && isWordStart(src[at]) && at < len(src)-size/2 {
			cuts = append(cuts, at)
			from = at + size
			continue
		}
		from = at
	}
	return cuts
}

func isWordStart(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
}
