package continuedev

import (
	"bytes"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/internal/adapterkit"
	"github.com/mcpsync/mcpsync/formats/internal/yamledit"
)

var _ formats.SectionRemover = adapter{}

// MissingKeys implements formats.SectionRemover: 1 when the file has no
// top-level mcpServers key, which Encode then adds.
func (adapter) MissingKeys(loc formats.Location, data []byte) int {
	if yamledit.HasSection(data, section) {
		return 0
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return 2 // Encode writes the header Continue requires too
	}
	return 1
}

// RemoveEmptyKeys implements formats.SectionRemover: the section's key
// goes when it holds nothing ({} or [] on its line, no comment).
func (adapter) RemoveEmptyKeys(loc formats.Location, data []byte, n int) ([]byte, canonical.Diagnostics) {
	out, removed, ds := adapterkit.RemoveEmptySection(loc, data, n, section, "Continue")
	if removed && n >= 2 {
		// The file was blank: Encode wrote the header too. Left alone, it
		// goes with the section.
		rest := bytes.TrimSpace(out)
		if bytes.Equal(rest, bytes.TrimSpace([]byte(userHeader))) || bytes.Equal(rest, bytes.TrimSpace([]byte(projectHeader))) {
			return []byte{}, nil
		}
	}
	return out, ds
}
