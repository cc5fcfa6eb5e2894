package reconcile

import (
	"testing"
)

// fuzzValues are the values a fuzzed field takes: references, literals
// (some of them what a client would expand a reference into) and JSON.
var fuzzValues = []string{"", "npx", "bunx", "${TOKEN}", "ghp_0123456789", "/w", "${HOME}/w", "/home/me/w",
	`["-y","srv"]`, `["-y","${HOME}/srv"]`, `["-y","/home/me/srv"]`, "true", `{"envFile":".env"}`}

var fuzzKeys = []string{"command", "args", "cwd", "env/TOKEN", "env/OTHER", "disabled", "extra/full", "extra/nocwd"}

var fuzzClients = []string{"full", "nocwd", "noflag"}

// fuzzReader hands out the fuzz input a few bits at a time; past its end
// it reads zeros.
type fuzzReader struct{ data []byte }

func (r *fuzzReader) next(n int) int {
	if len(r.data) == 0 {
		return 0
	}
	b := r.data[0]
	r.data = r.data[1:]
	return int(b) % n
}

func (r *fuzzReader) fields() fields {
	f := fields{"transport": "stdio"}
	for _, k := range fuzzKeys {
		if v := fuzzValues[r.next(len(fuzzValues))]; v != "" && r.next(2) == 1 {
			f[k] = v
		}
	}
	if f["command"] == "" {
		f["command"] = "npx"
	}
	return f
}

func (r *fuzzReader) maybe() fields {
	if r.next(4) == 0 {
		return nil
	}
	return r.fields()
}

// fuzzMergeIn builds a merge from the input: a base, the store and up to
// three clients with different capabilities, each with its own current
// entry and memory of the last sync.
func fuzzMergeIn(data []byte) mergeIn {
	r := &fuzzReader{data: data}
	in := mergeIn{Kind: baseKind(r.next(3)), Take: -1}
	if in.Kind != noBase {
		in.Base = r.fields()
	}
	st := storeSide(r.maybe())
	st.Fresh = r.next(5) == 0
	in.Sides = append(in.Sides, st)
	for _, id := range fuzzClients[:r.next(len(fuzzClients)+1)] {
		c := client(id, r.maybe(), r.maybe(), r.next(2) == 1)
		if !c.HasRef && r.next(2) == 1 && in.Base != nil {
			// A client that agreed at the last sync, and what it did since.
			c.Ref, c.HasRef = c.View(in.Base)
		}
		in.Sides = append(in.Sides, c)
	}
	if r.next(6) == 0 {
		in.Take = r.next(len(in.Sides))
	}
	return in
}

// FuzzMerge checks the merge on random bases, stores and client versions:
// it never panics, never writes anything for a conflicting server, and
// once its decisions are applied the next merge changes nothing (a sync of
// a converged state is a no-op, so there is no ping-pong).
func FuzzMerge(f *testing.F) {
	for _, seed := range [][]byte{
		{},
		{1, 0, 1, 2, 1, 3, 1},
		{1, 5, 1, 5, 1, 0, 0, 0, 0, 0, 1, 1, 9, 1, 3, 1, 2, 1, 1},
		{2, 7, 1, 3, 1, 4, 1, 1, 0, 3, 9, 1, 2, 1, 4, 1, 8, 1, 1, 1},
		{0, 3, 1, 1, 1, 3, 2, 1, 2, 1, 3, 1, 0, 1, 1, 1, 5, 1},
		{1, 4, 1, 2, 1, 1, 4, 1, 2, 9, 1, 4, 1, 1, 1, 3, 1, 2, 1, 0},
		[]byte("three-way merge of a server between the store and clients"),
		[]byte("\x01\x03\x01\x04\x01\x07\x01\x09\x01\x0b\x01\x02\x01\x03\x01\x03\x01\x01\x01\x00\x05"),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 512 {
			return
		}
		in := fuzzMergeIn(data)
		out := merge(in)
		force := in.Take >= 0
		res := decide(in, out, force)
		if out.Verdict != settled {
			for i, a := range res {
				if a.Act != keep {
					t.Fatalf("verdict %d, yet side %s gets action %d", out.Verdict, in.Sides[i].ID, a.Act)
				}
			}
			return
		}
		next := applyOutcome(t, in, out, res)
		again := merge(next)
		if again.Verdict == conflict {
			t.Fatalf("a converged state is a conflict:\nbefore %+v\nafter %+v\ncands %+v", in, next, again.Cands)
		}
		for i, a := range decide(next, again, false) {
			if a.Act == put || a.Act == remove {
				t.Fatalf("a converged state writes again: side %s action %d want %v\nbefore %+v\nafter %+v",
					next.Sides[i].ID, a.Act, a.Want, in, next)
			}
		}
	})
}

// applyOutcome is the state after a sync applied its decisions and
// recorded them, as Plan and Record do with real files.
func applyOutcome(t *testing.T, in mergeIn, out mergeOut, res []sideOut) mergeIn {
	next := mergeIn{Take: -1}
	switch {
	case !out.Del:
		next.Kind, next.Base = hasBase, out.Winner
	case in.Kind == noBase:
		next.Kind = noBase
	default:
		next.Kind, next.Base = deletedBase, in.Base
	}
	for i, s := range in.Sides {
		n := s
		n.Fresh = false
		switch res[i].Act {
		case put:
			if s.Store {
				n.Present, n.Cur = true, res[i].Want
			} else {
				v, ok := s.View(res[i].Want)
				if !ok {
					t.Fatalf("put to %s, which cannot hold %v", s.ID, res[i].Want)
				}
				n.Present, n.Cur, n.Managed = true, v, true
			}
		case remove:
			n.Present, n.Cur, n.Managed = false, nil, false
		}
		if !s.Store {
			n.Ref, n.HasRef = n.Cur, n.Present
			if res[i].Ref != nil {
				n.Ref = res[i].Ref
			}
		}
		next.Sides = append(next.Sides, n)
	}
	return next
}
