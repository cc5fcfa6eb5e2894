package ledger

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/jsonwrite"
)

// appendState appends st as json.Marshal writes it, without the
// reflection and without encoding/json's pass over every Entry's
// MarshalJSON output (it compacts what a Marshaler returns): the state is
// written on every run, and at 10,000 servers it holds 50,000 entries.
// TestStateJSONMatchesMarshal holds the two equal.
func appendState(b []byte, st *State) ([]byte, error) { return stateJSON{}.state(b, st) }

// stateJSON writes the state's records. With bySnapshot, an entry of a
// file or a sync base whose server Save puts in State.Snapshots (it has a
// hash and a server) is written without it; otherwise every entry is
// written whole, as encoding/json would write it. snaps, when not nil, is
// written as State.Snapshots in its place. times, when set, keeps the last time
// written: the entries of one run share the time of its write.
type stateJSON struct {
	bySnapshot bool
	// snaps, when set, are written as the snapshots member in one go:
	// the text Save writes in chunks, with its snapshots from another
	// goroutine, which the tests compare it with.
	snaps map[string]*canonical.Server
	// snapsAfter leaves the snapshots out, and the state's closing brace:
	// Save writes them after, as another goroutine makes them.
	snapsAfter bool
	times      *timeMemo
	names      *nameOrder
	// out, when not nil, takes what is written so far whenever it reaches
	// saveChunk bytes, between entries and between snapshots: the caller
	// writes the rest.
	out io.Writer
}

// saveChunk is how much of the state Save holds before writing it out.
// The whole text was one buffer, sized for it: at 10,000 servers in every
// client's file, 45 MB (256 bytes for each of 176,666 entries), made
// when the export's heap is at its largest.
var saveChunk = 1 << 20

// flush writes b out, once it is a chunk, and returns what to go on with.
func (w stateJSON) flush(b []byte) ([]byte, error) {
	if w.out == nil || len(b) < saveChunk {
		return b, nil
	}
	if _, err := w.out.Write(b); err != nil {
		return nil, err
	}
	return b[:0], nil
}

// snapshots appends snaps as the state's snapshots, by hash, flushing
// between them.
func (w stateJSON) snapshots(b []byte, snaps map[string]*canonical.Server) ([]byte, error) {
	return appendMap(b, snaps, func(b []byte, srv *canonical.Server) ([]byte, error) { return w.flush(jsonwrite.AppendServer(b, srv)) })
}

// timeMemo is the last time appendTime wrote and its text.
type timeMemo struct {
	t    time.Time
	text []byte
}

func (w stateJSON) state(b []byte, st *State) ([]byte, error) {
	b = strconv.AppendInt(append(b, `{"version":`...), int64(st.Version), 10)
	var err error
	fields := []struct {
		set    bool
		key    string
		append func([]byte) ([]byte, error)
	}{
		{len(st.Files) > 0, "files", func(b []byte) ([]byte, error) { return appendMap(b, st.Files, w.file) }},
		{len(st.Bases) > 0, "bases", func(b []byte) ([]byte, error) { return appendMap(b, st.Bases, w.entries) }},
		{len(st.Sync) > 0, "sync", func(b []byte) ([]byte, error) { return appendMap(b, st.Sync, w.sync) }},
		{len(st.Snapshots) > 0 && w.snaps == nil && !w.snapsAfter, "snapshots", func(b []byte) ([]byte, error) {
			return appendMap(b, st.Snapshots, func(b []byte, srv canonical.Server) ([]byte, error) { return jsonwrite.AppendServer(b, &srv), nil })
		}},
		{len(w.snaps) > 0, "snapshots", func(b []byte) ([]byte, error) { return w.snapshots(b, w.snaps) }},
	}
	for _, f := range fields {
		if !f.set {
			continue
		}
		b = append(jsonwrite.AppendString(append(b, ','), f.key), ':')
		if b, err = f.append(b); err != nil {
			return nil, err
		}
	}
	if w.snapsAfter {
		return b, nil
	}
	return append(b, '}'), nil
}

// appendMap appends m as a JSON object, keys sorted, each value by
// appendValue; a nil map is null, as json.Marshal writes a nil map that is
// not omitted.
func appendMap[V any](b []byte, m map[string]V, appendValue func([]byte, V) ([]byte, error)) ([]byte, error) {
	if m == nil {
		return append(b, "null"...), nil
	}
	// The members are sorted with their values, rather than each value
	// looked up again by its sorted key (BenchmarkSave: about 4 % less).
	type member struct {
		k string
		v V
	}
	sorted := make([]member, 0, len(m))
	for k, v := range m {
		sorted = append(sorted, member{k, v})
	}
	slices.SortFunc(sorted, func(x, y member) int { return strings.Compare(x.k, y.k) })
	return appendObject(b, len(sorted), func(i int) (string, V) { return sorted[i].k, sorted[i].v }, appendValue)
}

// appendObject appends a JSON object of n members, member(i) giving the
// key and value of the i-th, in order.
func appendObject[V any](b []byte, n int, member func(int) (string, V), appendValue func([]byte, V) ([]byte, error)) ([]byte, error) {
	b = append(b, '{')
	var err error
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		k, v := member(i)
		b = append(jsonwrite.AppendString(b, k), ':')
		if b, err = appendValue(b, v); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// members writes a JSON object's members, each after a comma but the
// first (omitempty fields decide at run time which one is first).
type members struct {
	b     []byte
	first bool
}

func (m *members) key(k string) {
	if !m.first {
		m.b = append(m.b, ',')
	}
	m.first = false
	m.b = append(jsonwrite.AppendString(m.b, k), ':')
}

func (w stateJSON) file(b []byte, f *File) ([]byte, error) {
	if f == nil {
		return append(b, "null"...), nil
	}
	var err error
	m := members{b: append(b, '{'), first: true}
	if f.SHA256 != "" {
		m.key("sha256")
		m.b = jsonwrite.AppendString(m.b, f.SHA256)
	}
	if !f.Written.IsZero() {
		m.key("written")
		if m.b, err = appendTime(m.b, f.Written); err != nil {
			return nil, err
		}
	}
	if f.Created {
		m.key("created")
		m.b = append(m.b, "true"...)
	}
	if len(f.Sections) > 0 {
		m.key("sections")
		if m.b, err = appendMap(m.b, f.Sections, w.section); err != nil {
			return nil, err
		}
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
		m.key(part.key)
		m.b = append(m.b, data...)
	}
	return append(m.b, '}'), nil
}

func (w stateJSON) section(b []byte, sec *Section) ([]byte, error) {
	switch {
	case sec == nil:
		return append(b, "null"...), nil
	case len(sec.Managed) == 0:
		return append(b, "{}"...), nil
	}
	b, err := w.entries(append(b, `{"managed":`...), sec.Managed)
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

func (w stateJSON) sync(b []byte, s *Sync) ([]byte, error) {
	if s == nil {
		return append(b, "null"...), nil
	}
	var err error
	m := members{b: append(b, '{'), first: true}
	if len(s.Clients) > 0 {
		m.key("clients")
		if m.b, err = appendMap(m.b, s.Clients, w.entries); err != nil {
			return nil, err
		}
	}
	if len(s.Deleted) > 0 {
		m.key("deleted")
		if m.b, err = w.entries(m.b, s.Deleted); err != nil {
			return nil, err
		}
	}
	if len(s.Conflicts) > 0 { // rare, and holds servers by pointer: encoding/json
		data, err := json.Marshal(s.Conflicts)
		if err != nil {
			return nil, err
		}
		m.key("conflicts")
		m.b = append(m.b, data...)
	}
	return append(m.b, '}'), nil
}

// appendEntries appends a map of entries, keys sorted.
func (w stateJSON) entries(b []byte, m map[string]*Entry) ([]byte, error) {
	entry := func(b []byte, e *Entry) ([]byte, error) {
		if e == nil {
			return append(b, "null"...), nil
		}
		b, err := appendEntry(b, e, !w.bySnapshot || !e.inSnapshots(), w.times)
		if err != nil {
			return nil, err
		}
		return w.flush(b)
	}
	names, entries, ok := w.names.of(m)
	if !ok {
		return appendMap(b, m, entry)
	}
	return appendObject(b, len(names), func(i int) (string, *Entry) { return names[i], entries[i] }, entry)
}

// nameOrder keeps the sorted names of the last map of entries written,
// for the next one that holds the same names: the files an export writes
// mostly hold the same servers, and sorting 10,000 names again for each
// file's entries was a fifth of a save (BenchmarkSave). A nil nameOrder
// keeps nothing.
type nameOrder struct {
	names   []string
	entries []*Entry // m's, by names; reused
}

// of returns the names of m in order and its entries by them: the names
// kept, when m holds exactly those (as many, and each of them), else its
// own, sorted and kept for the next map. ok is false for a nil o (the
// caller sorts) or a nil m (written as null).
func (o *nameOrder) of(m map[string]*Entry) (names []string, entries []*Entry, ok bool) {
	if o == nil || m == nil {
		return nil, nil, false
	}
	if len(o.names) == len(m) && len(m) > 0 {
		o.entries = o.entries[:0]
		for _, name := range o.names {
			e, found := m[name]
			if !found {
				break
			}
			o.entries = append(o.entries, e)
		}
		if len(o.entries) == len(m) {
			return o.names, o.entries, true
		}
	}
	o.names = slices.Sorted(maps.Keys(m))
	o.entries = o.entries[:0]
	for _, name := range o.names {
		o.entries = append(o.entries, m[name])
	}
	return o.names, o.entries, true
}

// append appends t as appendTime does, from the memo when t is the time
// it last wrote (a nil memo keeps nothing). Formatting the time of each of
// 50,000 entries was a tenth of a save.
func (m *timeMemo) append(b []byte, t time.Time) ([]byte, error) {
	if m == nil {
		return appendTime(b, t)
	}
	if m.text == nil || !t.Equal(m.t) || t.Location() != m.t.Location() {
		text, err := appendTime(nil, t)
		if err != nil {
			return nil, err
		}
		m.t, m.text = t, text
	}
	return append(b, m.text...), nil
}

// appendTime appends t as time.Time.MarshalJSON writes it.
func appendTime(b []byte, t time.Time) ([]byte, error) { return jsonwrite.AppendTime(b, t) }

// MarshalFile is json.Marshal(f), written as Save writes a file's record
// (backups written before MarshalFiles kept one beside each file they
// saved).
func MarshalFile(f *File) ([]byte, error) { return stateJSON{}.file(nil, f) }

// MarshalFiles writes the records of files as state.json holds them: a
// state of their own whose entries point to snapshots by hash, each
// snapshot once. A backup keeps what mcpsync knew of every file it saves
// so, in one file: an export of 10,000 servers to five clients holds each
// server in all five files' records, and a record of its own for each
// file (MarshalFile) held every server whole, five times (13.5 MB a
// backup, against 7.3 MB for the copies of the files themselves).
// UnmarshalFiles reads it back.
func MarshalFiles(files map[string]*File) ([]byte, error) {
	var b bytes.Buffer
	if err := WriteFiles(&b, files); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteFiles writes what MarshalFiles returns to w, a chunk at a time
// (saveChunk), as Save writes state.json: a backup of every client's file
// at 10,000 servers holds some 35 MB of records, and it is written when
// the export's heap is at its largest.
func WriteFiles(w io.Writer, files map[string]*File) error {
	// As Save writes state.json, snapshots on a goroutine of their own:
	// one after the other, the records of an export of 10,000 servers to
	// five clients took longer to write into a backup than state.json,
	// synced, to save (BenchmarkMarshalFiles against BenchmarkSave).
	return (&State{Version: Version, Files: files}).writeJSON(w)
}

// UnmarshalFiles reads what MarshalFiles wrote: the records of the files,
// each entry with its snapshot. It refuses a newer version than this
// build's, as Load does.
func UnmarshalFiles(data []byte) (map[string]*File, error) {
	st := &State{}
	if err := decodeState(data, st); err != nil {
		return nil, err
	}
	if err := st.settle(); err != nil {
		return nil, err
	}
	return st.Files, nil
}
