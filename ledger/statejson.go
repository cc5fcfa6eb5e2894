package ledger

import (
	"encoding/json"
	"slices"
	"time"
)

// appendState appends st as json.Marshal writes it, without the
// reflection and without encoding/json's pass over every Entry's
// MarshalJSON output (it compacts what a Marshaler returns): the state is
// written on every run, and at 10,000 servers it holds 50,000 entries.
// TestStateJSONMatchesMarshal holds the two equal.
func appendState(b []byte, st *State) ([]byte, error) {
	var err error
	b = append(b, `{"version":`...)
	b = appendInt(b, st.Version)
	if len(st.Files) > 0 {
		b = append(b, `,"files":{`...)
		for i, k := range sortedKeys(st.Files) {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, k)
			b = append(b, ':')
			if b, err = appendFile(b, st.Files[k]); err != nil {
				return nil, err
			}
		}
		b = append(b, '}')
	}
	if len(st.Bases) > 0 {
		b = append(b, `,"bases":{`...)
		for i, k := range sortedKeys(st.Bases) {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, k)
			b = append(b, ':')
			if b, err = appendEntries(b, st.Bases[k]); err != nil {
				return nil, err
			}
		}
		b = append(b, '}')
	}
	if len(st.Sync) > 0 {
		b = append(b, `,"sync":{`...)
		for i, k := range sortedKeys(st.Sync) {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, k)
			b = append(b, ':')
			if b, err = appendSync(b, st.Sync[k]); err != nil {
				return nil, err
			}
		}
		b = append(b, '}')
	}
	if len(st.Snapshots) > 0 {
		b = append(b, `,"snapshots":`...)
		b = appendSnapshots(b, st.Snapshots)
	}
	return append(b, '}'), nil
}

func appendFile(b []byte, f *File) ([]byte, error) {
	if f == nil {
		return append(b, "null"...), nil
	}
	var err error
	b = append(b, '{')
	first := true
	sep := func() {
		if !first {
			b = append(b, ',')
		}
		first = false
	}
	if f.SHA256 != "" {
		sep()
		b = append(b, `"sha256":`...)
		b = appendJSONString(b, f.SHA256)
	}
	if !f.Written.IsZero() {
		sep()
		b = append(b, `"written":`...)
		if b, err = appendTime(b, f.Written); err != nil {
			return nil, err
		}
	}
	if f.Created {
		sep()
		b = append(b, `"created":true`...)
	}
	if len(f.Sections) > 0 {
		sep()
		b = append(b, `"sections":{`...)
		for i, k := range sortedKeys(f.Sections) {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, k)
			b = append(b, ':')
			sec := f.Sections[k]
			switch {
			case sec == nil:
				b = append(b, "null"...)
			case len(sec.Managed) == 0:
				b = append(b, "{}"...)
			default:
				b = append(b, `{"managed":`...)
				if b, err = appendEntries(b, sec.Managed); err != nil {
					return nil, err
				}
				b = append(b, '}')
			}
		}
		b = append(b, '}')
	}
	// The rest is small and rare: encoding/json writes it.
	for _, part := range []struct {
		key   string
		value any
		set   bool
	}{
		{"addedKeys", f.AddedKeys, len(f.AddedKeys) > 0},
		{"addedSideKeys", f.AddedSideKeys, len(f.AddedSideKeys) > 0},
		{"createdDirs", f.CreatedDirs, len(f.CreatedDirs) > 0},
	} {
		if !part.set {
			continue
		}
		data, err := json.Marshal(part.value)
		if err != nil {
			return nil, err
		}
		sep()
		b = appendJSONString(b, part.key)
		b = append(b, ':')
		b = append(b, data...)
	}
	return append(b, '}'), nil
}

func appendSync(b []byte, s *Sync) ([]byte, error) {
	if s == nil {
		return append(b, "null"...), nil
	}
	var err error
	b = append(b, '{')
	first := true
	sep := func() {
		if !first {
			b = append(b, ',')
		}
		first = false
	}
	if len(s.Clients) > 0 {
		sep()
		b = append(b, `"clients":{`...)
		for i, k := range sortedKeys(s.Clients) {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, k)
			b = append(b, ':')
			if b, err = appendEntries(b, s.Clients[k]); err != nil {
				return nil, err
			}
		}
		b = append(b, '}')
	}
	if len(s.Deleted) > 0 {
		sep()
		b = append(b, `"deleted":`...)
		if b, err = appendEntries(b, s.Deleted); err != nil {
			return nil, err
		}
	}
	if len(s.Conflicts) > 0 { // rare, and holds servers by pointer: encoding/json
		data, err := json.Marshal(s.Conflicts)
		if err != nil {
			return nil, err
		}
		sep()
		b = append(b, `"conflicts":`...)
		b = append(b, data...)
	}
	return append(b, '}'), nil
}

// appendEntries appends a map of entries, keys sorted; a nil map is null,
// as json.Marshal writes a nil map that is not omitted.
func appendEntries(b []byte, m map[string]*Entry) ([]byte, error) {
	if m == nil {
		return append(b, "null"...), nil
	}
	var err error
	b = append(b, '{')
	for i, k := range sortedKeys(m) {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k)
		b = append(b, ':')
		if m[k] == nil {
			b = append(b, "null"...)
			continue
		}
		if b, err = appendEntry(b, m[k]); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendTime appends t as time.Time.MarshalJSON writes it, without its
// allocation for the years it writes (0 to 9999; it refuses others).
func appendTime(b []byte, t time.Time) ([]byte, error) {
	if y := t.Year(); y < 0 || y > 9999 {
		data, err := t.MarshalJSON()
		if err != nil {
			return nil, err
		}
		return append(b, data...), nil
	}
	b = t.AppendFormat(append(b, '"'), time.RFC3339Nano)
	return append(b, '"'), nil
}

func appendInt(b []byte, n int) []byte {
	data, _ := json.Marshal(n)
	return append(b, data...)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// MarshalFile is json.Marshal(f), written as Save writes a file's record
// (backups keep one beside each file they save).
func MarshalFile(f *File) ([]byte, error) { return appendFile(nil, f) }
