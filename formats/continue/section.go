package continuedev

import (
	"bytes"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
)

var _ formats.SectionRemover = adapter{}

// MissingKeys implements formats.SectionRemover: 1 when the file has no
// top-level mcpServers key, which Encode then adds.
func (adapter) MissingKeys(loc formats.Location, data []byte) int {
	n := layout.MissingKeys(data)
	if n > 0 && len(bytes.TrimSpace(data)) == 0 {
		n++ // Encode writes the header Continue requires too
	}
	return n
}

// RemoveEmptyKeys implements formats.SectionRemover: the section's key
// goes when it holds nothing ({} or [] on its line, no comment).
func (adapter) RemoveEmptyKeys(loc formats.Location, data []byte, n int) ([]byte, canonical.Diagnostics) {
	out, removed, ds := layout.RemoveEmpty(loc, data, n)
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
