//go:build !go1.27

package hclfmt

import "github.com/apparentlymart/go-textseg/v15/textseg"

// scanGraphemes is the grapheme scanner hclsyntax counts columns with
// before Go 1.27 (hcl's internal/unicodeutil picks the Unicode version of
// the Go it is built with, and so does this).
var scanGraphemes = textseg.ScanGraphemeClusters
