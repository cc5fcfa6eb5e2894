package ledger

import (
	"encoding/json"
	"maps"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/jsonread"
)

// decodeState fills st from data as json.Unmarshal(data, st) would. Every
// run loads the state, and at 10,000 servers in five clients it holds
// 60,000 entries and 10,000 snapshots; encoding/json's reflection and its
// second pass over the bytes were most of a no-op sync's load.
//
// The fast reader takes only the shape Save writes: known keys spelled as
// written, each once per object, no nulls, plain numbers. On anything else
// (an older or hand-edited file, a damaged one) it gives up and
// json.Unmarshal reads the whole file, so that the result, and the error
// for a damaged file, are encoding/json's. FuzzDecodeState holds the two
// equal.
func decodeState(data []byte, st *State) error {
	if decodeStateFast(data, st) {
		return nil
	}
	return json.Unmarshal(data, st)
}

// decodeStateFast is the fast reader alone: false, with st untouched,
// where it gives up.
func decodeStateFast(data []byte, st *State) bool {
	fast := *st // what json.Unmarshal would keep: New's version, the path
	r := jsonread.New(data)
	if state(r, &fast) && r.End() {
		*st = fast
		return true
	}
	return false
}

func state(r *jsonread.Reader, st *State) bool {
	var seen uint32
	if !r.Expect('{') {
		return false
	}
	for i := 0; ; i++ {
		k, ok := r.Member(i)
		if !ok {
			return r.OK()
		}
		switch string(k) {
		case "version":
			r.Once(&seen, 0)
			st.Version = r.Int()
		case "files":
			r.Once(&seen, 1)
			st.Files = jsonread.Map(r, func() *File { return file(r) })
		case "bases":
			r.Once(&seen, 2)
			st.Bases = jsonread.Map(r, func() map[string]*Entry { return entries(r) })
		case "sync":
			r.Once(&seen, 3)
			st.Sync = jsonread.Map(r, func() *Sync { return syncRecord(r) })
		case "snapshots":
			r.Once(&seen, 4)
			st.Snapshots = jsonread.Map(r, func() (s canonical.Server) {
				r.Server(&s)
				return s
			})
		default:
			r.Fail()
		}
	}
}

// syncRecord reads what two-way sync remembers of one store. Its clients'
// entries hold their servers (Save puts only those of files and bases in
// the snapshots): after a sync of 10,000 servers with five clients, 50,000
// entries and 11 of the file's 15 MB. Read with encoding/json's rules
// (Reader.Unmarshal) they were half of every load of the state: 270 ms of
// mcpsync status.
func syncRecord(r *jsonread.Reader) *Sync {
	s := &Sync{}
	var seen uint32
	if !r.Expect('{') {
		return s
	}
	for i := 0; ; i++ {
		k, ok := r.Member(i)
		if !ok {
			return s
		}
		switch string(k) {
		case "clients":
			r.Once(&seen, 0)
			s.Clients = jsonread.Map(r, func() map[string]*Entry { return entries(r) })
		case "deleted":
			r.Once(&seen, 1)
			s.Deleted = entries(r)
		case "conflicts":
			r.Once(&seen, 2)
			r.Unmarshal(&s.Conflicts) // rare, and few
		default:
			r.Fail()
		}
	}
}

func file(r *jsonread.Reader) *File {
	f := &File{}
	var seen uint32
	if !r.Expect('{') {
		return f
	}
	for i := 0; ; i++ {
		k, ok := r.Member(i)
		if !ok {
			return f
		}
		switch string(k) {
		case "sha256":
			r.Once(&seen, 0)
			f.SHA256 = r.Str()
		case "written":
			r.Once(&seen, 1)
			f.Written = r.Time()
		case "created":
			r.Once(&seen, 2)
			f.Created = r.Bool()
		case "sections":
			r.Once(&seen, 3)
			f.Sections = jsonread.Map(r, func() *Section { return section(r) })
		case "addedKeys":
			r.Once(&seen, 4)
			r.Unmarshal(&f.AddedKeys)
		case "addedSideKeys":
			r.Once(&seen, 5)
			r.Unmarshal(&f.AddedSideKeys)
		case "createdDirs":
			r.Once(&seen, 6)
			r.Unmarshal(&f.CreatedDirs)
		default:
			r.Fail()
		}
	}
}

func section(r *jsonread.Reader) *Section {
	sec := &Section{}
	if !r.Expect('{') {
		return sec
	}
	for i := 0; ; i++ {
		k, ok := r.Member(i)
		if !ok {
			return sec
		}
		if string(k) != "managed" || i > 0 {
			r.Fail()
			return sec
		}
		sec.Managed = entries(r)
	}
}

func entries(r *jsonread.Reader) map[string]*Entry {
	var client string // the entries of a file are mostly one client's
	return jsonread.Map(r, func() *Entry { return entry(r, &client) })
}

// entry reads an entry; client is the client the last entry read named.
func entry(r *jsonread.Reader, client *string) *Entry {
	e := &Entry{}
	var seen uint32
	if !r.Expect('{') {
		return e
	}
	for i := 0; ; i++ {
		k, ok := r.Member(i)
		if !ok {
			return e
		}
		switch string(k) {
		case "client":
			r.Once(&seen, 0)
			e.Client = r.StrAs(client)
		case "hash":
			r.Once(&seen, 1)
			e.Hash = r.Str()
		case "server":
			r.Once(&seen, 2)
			e.Server = new(canonical.Server)
			r.Server(e.Server)
		case "at":
			r.Once(&seen, 3)
			e.At = r.Time()
		case "from":
			r.Once(&seen, 4)
			e.From = r.Str()
		case "source":
			r.Once(&seen, 5)
			e.Source = r.Str()
		default:
			r.Fail()
		}
	}
}

// dropNulls forgets the records a loaded state holds as null (a state
// written by hand, or by a tool that writes JSON its own way): a null
// record says nothing, and every command read past it into a nil pointer.
func (st *State) dropNulls() {
	maps.DeleteFunc(st.Files, func(_ string, f *File) bool { return f == nil })
	for _, f := range st.Files {
		maps.DeleteFunc(f.Sections, func(_ string, sec *Section) bool { return sec == nil })
		for _, sec := range f.Sections {
			maps.DeleteFunc(sec.Managed, nullEntry)
		}
	}
	maps.DeleteFunc(st.Bases, func(_ string, m map[string]*Entry) bool { return m == nil })
	for _, bases := range st.Bases {
		maps.DeleteFunc(bases, nullEntry)
	}
	maps.DeleteFunc(st.Sync, func(_ string, s *Sync) bool { return s == nil })
	for _, s := range st.Sync {
		maps.DeleteFunc(s.Clients, func(_ string, m map[string]*Entry) bool { return m == nil })
		for _, entries := range s.Clients {
			maps.DeleteFunc(entries, nullEntry)
		}
		maps.DeleteFunc(s.Deleted, nullEntry)
		maps.DeleteFunc(s.Conflicts, func(_ string, c *Conflict) bool { return c == nil })
	}
}

func nullEntry(_ string, e *Entry) bool { return e == nil }
