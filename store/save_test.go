package store

import (
	"bytes"
	"fmt"

	"github.com/mcpsync/mcpsync/internal/safefile"
)

// save writes Bytes to Path atomically, for the tests of this package:
// mcpsync itself saves a store through engine.SaveStore, which backs it
// up and checks it did not change meanwhile. It writes (0600 for a new file, since a store
// may reference secrets; an existing file keeps its mode), unless nothing
// changed. It refuses to write over a store that did not load cleanly.
func (s *Store) save() error {
	if s.broken {
		return fmt.Errorf("%s: the store has errors; fix them before changing it", s.Path)
	}
	data := s.Bytes()
	if bytes.Equal(data, s.src) && (s.Exists || len(data) == 0) {
		return nil
	}
	if err := safefile.WriteFile(s.Path, s.Root, data, 0o600); err != nil {
		return fmt.Errorf("%s: cannot write the store: %w", s.Path, err)
	}
	fresh, ds := Parse(s.Path, data)
	if ds.HasErrors() {
		// Bytes only writes what Parse reads; reaching this is a bug.
		return fmt.Errorf("%s: the written store does not read back: %w", s.Path, ds.Err())
	}
	fresh.Scope, fresh.Exists, fresh.Root = s.Scope, true, s.Root
	*s = *fresh
	return nil
}
