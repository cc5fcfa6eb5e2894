package store

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/mcpsync/mcpsync/internal/hclfmt"
)

// AppendSourceBlock returns the store text src with a source block for s
// appended; every other byte stays. The caller checks that the name is free.
func AppendSourceBlock(src []byte, s Source) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "source %s {\n", strconv.Quote(s.Name))
	fmt.Fprintf(&b, "  git = %s\n", quoteString(s.Git))
	if s.Ref != "" {
		fmt.Fprintf(&b, "  ref = %s\n", quoteString(s.Ref))
	}
	if s.Path != "" {
		fmt.Fprintf(&b, "  path = %s\n", quoteString(s.Path))
	}
	b.WriteString("}\n")
	block := hclfmt.Format([]byte(b.String()))
	var out bytes.Buffer
	out.Write(src)
	switch n := len(src); {
	case n == 0, bytes.HasSuffix(src, []byte("\n\n")):
	case src[n-1] == '\n':
		out.WriteByte('\n')
	default:
		out.WriteString("\n\n")
	}
	out.Write(block)
	return out.Bytes()
}

// quoteString quotes s as an HCL string literal, escaping template
// sequences so that the value is read back as written.
func quoteString(s string) string {
	q := strconv.Quote(s)
	q = strings.ReplaceAll(q, "${", "$${")
	return strings.ReplaceAll(q, "%{", "%%{")
}

// CutSourceBlock returns src without the source block of that name
// (whole lines, and one blank line next to it, so that no gap is left), and
// whether there was one. Comments above the block stay.
func CutSourceBlock(src []byte, name string) ([]byte, bool) {
	f, diags := hclsyntax.ParseConfig(src, FileName, hcl.InitialPos)
	if diags.HasErrors() {
		return src, false
	}
	for _, blk := range f.Body.(*hclsyntax.Body).Blocks {
		if blk.Type != "source" || len(blk.Labels) != 1 || blk.Labels[0] != name {
			continue
		}
		start := blk.TypeRange.Start.Byte
		if ls := lineStart(src, start); isBlankText(src[ls:start]) {
			start = ls
		}
		end := blk.CloseBraceRange.End.Byte
		if i := bytes.IndexByte(src[end:], '\n'); i >= 0 {
			end += i + 1
		} else {
			end = len(src)
		}
		blankBefore := start == 0 || start >= 2 && isBlankText(src[lineStart(src, start-1):start])
		switch {
		case blankBefore && end < len(src) && isBlankText(src[end:lineEndIncl(src, end)]):
			end = lineEndIncl(src, end) // drop the blank line after it
		case blankBefore && end == len(src) && start > 0:
			start = lineStart(src, start-1) // drop the blank line that would end the file
		}
		out := append(append([]byte{}, src[:start]...), src[end:]...)
		return out, true
	}
	return src, false
}

// lineEndIncl returns the offset after the newline ending the line at at.
func lineEndIncl(src []byte, at int) int {
	if i := bytes.IndexByte(src[at:], '\n'); i >= 0 {
		return at + i + 1
	}
	return len(src)
}

func isBlankText(line []byte) bool { return len(bytes.TrimSpace(line)) == 0 }
