package goose

import (
	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/internal/adapterkit"
	"github.com/mcpsync/mcpsync/formats/internal/yamledit"
)

var _ formats.SectionRemover = adapter{}

// MissingKeys implements formats.SectionRemover: 1 when the file has no
// top-level extensions key, which Encode then adds.
func (adapter) MissingKeys(loc formats.Location, data []byte) int {
	if yamledit.HasSection(data, section) {
		return 0
	}
	return 1
}

// RemoveEmptyKeys implements formats.SectionRemover: the section's key
// goes when it holds nothing ({} or [] on its line, no comment).
func (adapter) RemoveEmptyKeys(loc formats.Location, data []byte, n int) ([]byte, canonical.Diagnostics) {
	out, _, ds := adapterkit.RemoveEmptySection(loc, data, n, section, "Goose")
	return out, ds
}
