//go:build go1.27

package hclfmt

import "github.com/apparentlymart/go-textseg/v17/textseg"

// scanGraphemes is the grapheme scanner hclsyntax counts columns with
// from Go 1.27 (see graphemes_v15.go).
var scanGraphemes = textseg.ScanGraphemeClusters
