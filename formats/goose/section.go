package goose

import (
	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
)

var _ formats.SectionRemover = adapter{}

// MissingKeys implements formats.SectionRemover: 1 when the file has no
// top-level extensions key, which Encode then adds.
func (adapter) MissingKeys(loc formats.Location, data []byte) int {
	return layout.MissingKeys(data)
}

// RemoveEmptyKeys implements formats.SectionRemover: the extensions key
// goes when it holds nothing ({} or [] on its line, no comment).
func (adapter) RemoveEmptyKeys(loc formats.Location, data []byte, n int) ([]byte, canonical.Diagnostics) {
	out, _, ds := layout.RemoveEmpty(loc, data, n)
	return out, ds
}
