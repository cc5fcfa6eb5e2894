package reconcile

import "strings"

// The merge of one server, on flattened fields and without any I/O, so
// that it can be fuzzed on its own (FuzzMerge). Plan binds it to the store,
// the client files and the state.

// baseKind says what is known of a server from the last sync.
type baseKind int

const (
	// noBase: never synced; every side that holds it offers a version.
	noBase baseKind = iota
	// hasBase: mergeIn.Base is what every side agreed on at the last sync.
	hasBase
	// deletedBase: a sync removed it; mergeIn.Base is what it was.
	deletedBase
)

// sideIn is one side's state for one server.
type sideIn struct {
	ID    string // "store" or the client id
	Store bool
	// Present and Cur: the server as the side holds it now.
	Present bool
	Cur     fields
	// Ref is what the client held at its last sync; HasRef is false for a
	// client that has not been synced with this server (or whose file is
	// new): its entry is then compared with the base as it sees it.
	Ref    fields
	HasRef bool
	// Fresh is a side without memory: the store file is new or was
	// emptied. Its lack of a server is not a removal.
	Fresh bool
	// Managed says mcpsync wrote the client's entry, so it may remove it.
	Managed bool
	// View returns a server as this side would hold it once written: the
	// store holds everything; a client drops what it cannot express, or
	// cannot hold the server at all (false). It must be idempotent.
	View func(fields) (fields, bool)
}

type mergeIn struct {
	Kind  baseKind
	Base  fields
	Sides []sideIn
	// Take is the index of the side whose version wins (resolve --take),
	// or -1.
	Take int
}

type verdict int

const (
	nothing  verdict = iota // no side holds the server and nothing is known of it
	settled                 // Winner (or removal) goes everywhere
	conflict                // sides changed it differently: nothing is written
)

// cand is one side's offer: its edits applied to the base, a removal, or
// (without a base) the version it holds.
type cand struct {
	side int
	del  bool
	f    fields
	// own marks a client entry mcpsync has never synced that differs from
	// the base: the client's own version, not an edit of the synced one.
	own bool
}

type mergeOut struct {
	Verdict verdict
	Del     bool   // settled as removed
	Winner  fields // settled, not removed
	From    []int  // the sides whose change or addition won
	Cands   []cand // every side's offer (the conflict's versions)
	// Exps holds, per side, the references the client replaced by literal
	// values; they are never taken as edits.
	Exps map[int][]expansion
	// Err is set when Take names a side that has no version to take.
	Err string
}

func merge(in mergeIn) mergeOut {
	out := mergeOut{Exps: map[int][]expansion{}}
	if in.Kind == hasBase {
		mergeWithBase(in, &out)
	} else {
		mergeWithoutBase(in, &out)
	}
	return out
}

// collect gathers every side's offer.
func (out *mergeOut) collect(in mergeIn, offer func(mergeIn, int, *mergeOut) (cand, bool)) {
	for i := range in.Sides {
		if c, ok := offer(in, i, out); ok {
			out.Cands = append(out.Cands, c)
		}
	}
}

// settleTaken settles on the offer of side take (the user's --take), and
// reports whether that side made one.
func (out *mergeOut) settleTaken(take int) bool {
	for _, c := range out.Cands {
		if c.side == take {
			out.settle(c, []int{take})
			return true
		}
	}
	return false
}

func mergeWithBase(in mergeIn, out *mergeOut) {
	out.collect(in, offerWithBase)
	if in.Take >= 0 {
		if out.settleTaken(in.Take) {
			return
		}
		s := in.Sides[in.Take]
		if !s.Store && !s.Present && !s.HasRef {
			out.Err = s.ID + " has no version of it"
			return
		}
		out.settle(cand{side: in.Take, f: in.Base}, []int{in.Take}) // that side did not change it
		return
	}
	if len(out.Cands) == 0 {
		out.settle(cand{f: in.Base}, nil)
		return
	}
	var regular []cand
	for _, c := range out.Cands {
		if !c.own {
			regular = append(regular, c)
		}
	}
	if len(regular) == 0 {
		out.Verdict = conflict // a client's own version against what the others agreed on
		return
	}
	allDel := true
	for _, c := range regular {
		allDel = allDel && c.del
	}
	if allDel {
		// Removed on every side that changed it. Entries mcpsync never
		// synced are the clients' own: they stay (see decide), and do not
		// hold the removal up.
		out.settle(regular[0], sidesOf(regular))
		return
	}
	first := out.Cands[0]
	for _, c := range out.Cands[1:] {
		if c.del != first.del || !c.f.equal(first.f) {
			out.Verdict = conflict
			return
		}
	}
	out.settle(first, sidesOf(out.Cands))
}

// offerWithBase returns side i's offer when it changed the server since the
// last sync, or false.
func offerWithBase(in mergeIn, i int, out *mergeOut) (cand, bool) {
	s := in.Sides[i]
	switch {
	case s.Store:
		if !s.Present {
			return cand{side: i, del: true}, !s.Fresh
		}
		return cand{side: i, f: s.Cur}, !s.Cur.equal(in.Base)
	case s.HasRef:
		if !s.Present {
			return cand{side: i, del: true}, true
		}
		e, exps := realEdits(s.Ref, s.Cur)
		out.Exps[i] = exps
		if len(e) == 0 {
			return cand{}, false
		}
		f := apply(in.Base, e)
		return cand{side: i, f: f}, !f.equal(in.Base)
	case s.Present:
		v, ok := s.View(in.Base)
		if !ok {
			return cand{}, false // it cannot hold the base: its entry is its own, and stays
		}
		e, exps := realEdits(v, s.Cur)
		out.Exps[i] = exps
		dropOwnExtra(e, in.Base, s.ID)
		if len(e) == 0 {
			return cand{}, false
		}
		f := apply(in.Base, e)
		return cand{side: i, f: f, own: true}, !f.equal(in.Base)
	}
	return cand{}, false
}

// dropOwnExtra ignores a client's own keys that the base does not have: an
// entry that differs from the synced one only by keys no other client reads
// is the same server.
func dropOwnExtra(e edits, base fields, client string) {
	if _, ok := base[extraPrefix+client]; !ok {
		delete(e, extraPrefix+client)
	}
}

func mergeWithoutBase(in mergeIn, out *mergeOut) {
	out.collect(in, offerWithoutBase)
	if in.Take >= 0 {
		if out.settleTaken(in.Take) {
			return
		}
		if in.Kind == deletedBase {
			out.settle(cand{side: in.Take, del: true}, []int{in.Take})
			return
		}
		out.Err = in.Sides[in.Take].ID + " has no version of it"
		return
	}
	if len(out.Cands) == 0 {
		if in.Kind == deletedBase {
			out.settle(cand{del: true}, nil) // still removed; clients catch up
		}
		return
	}
	// The versions agree when one of them explains every other, each as
	// its side would hold it (a client that cannot express a cwd agrees
	// with a version that has one).
	for _, x := range out.Cands {
		if agreesWithAll(in, out.Cands, x.f) {
			w := x.f.clone()
			for _, c := range out.Cands {
				s := in.Sides[c.side]
				if v, ok := c.f[extraPrefix+s.ID]; ok && !s.Store {
					if _, has := w[extraPrefix+s.ID]; !has {
						w[extraPrefix+s.ID] = v
					}
				}
			}
			out.settle(cand{side: x.side, f: w}, sidesOf(out.Cands))
			return
		}
	}
	out.Verdict = conflict
}

// offerWithoutBase returns the version side i holds, when it is one: an
// entry unchanged since a sync removed the server is not.
func offerWithoutBase(in mergeIn, i int, out *mergeOut) (cand, bool) {
	s := in.Sides[i]
	if !s.Present {
		return cand{}, false
	}
	if s.Store {
		return cand{side: i, f: s.Cur}, true
	}
	if s.HasRef {
		e, exps := realEdits(s.Ref, s.Cur)
		out.Exps[i] = exps
		if len(e) == 0 && in.Kind == deletedBase {
			return cand{}, false
		}
		return cand{side: i, f: apply(s.Ref, e)}, true
	}
	if in.Kind == deletedBase {
		if v, ok := s.View(in.Base); ok {
			e, _ := realEdits(v, s.Cur)
			dropOwnExtra(e, in.Base, s.ID)
			if len(e) == 0 {
				return cand{}, false
			}
		}
	}
	return cand{side: i, f: s.Cur}, true
}

// agreesWithAll reports whether every offered version is x as its side
// holds it.
func agreesWithAll(in mergeIn, cands []cand, x fields) bool {
	for _, c := range cands {
		s := in.Sides[c.side]
		if s.Store {
			if !withoutExtras(c.f).equal(withoutExtras(x)) {
				return false
			}
			continue
		}
		v, ok := s.View(x)
		if !ok {
			return false
		}
		// The entry as the client holds it: a literal it expanded agrees
		// with the reference (and with the same literal elsewhere).
		e, _ := realEdits(v, s.Cur)
		dropOwnExtra(e, x, s.ID)
		if len(e) > 0 {
			return false
		}
	}
	return true
}

func withoutExtras(f fields) fields {
	out := fields{}
	for k, v := range f {
		if len(k) < len(extraPrefix) || k[:len(extraPrefix)] != extraPrefix {
			out[k] = v
		}
	}
	return out
}

func (out *mergeOut) settle(c cand, from []int) {
	out.Verdict = settled
	out.Del = c.del
	out.Winner = c.f
	out.From = from
}

func sidesOf(cs []cand) []int {
	out := make([]int, len(cs))
	for i, c := range cs {
		out[i] = c.side
	}
	return out
}

// action is what happens to one side's entry once the merge is settled.
type action int

const (
	keep   action = iota // the entry stays as it is
	put                  // Want is written
	remove               // mcpsync removes the entry it wrote
	leave                // the server goes, but this entry is the client's own: it stays
)

type sideOut struct {
	Act  action
	Want fields
	// Ref, when set, is what to remember as the client's entry instead of
	// what its file holds: the entry with the references it expanded put
	// back, so that the literal is never taken for an edit later.
	Ref fields
	// CannotHold: the client cannot hold the winner (a disabled server in a
	// client without a disabled flag, a transport it lacks).
	CannotHold bool
}

// decide says what each side does with a settled merge. force (resolve
// --take) writes the winner over every differing entry, a reference a
// client expanded included.
func decide(in mergeIn, out mergeOut, force bool) []sideOut {
	res := make([]sideOut, len(in.Sides))
	if out.Verdict != settled {
		return res
	}
	for i, s := range in.Sides {
		switch {
		case s.Store && out.Del:
			if s.Present {
				res[i].Act = remove
			}
		case s.Store:
			if !s.Present || !s.Cur.equal(out.Winner) {
				res[i] = sideOut{Act: put, Want: out.Winner}
			}
		case out.Del:
			res[i].Act = removeOrLeave(s)
		default:
			res[i] = decideClient(s, out.Winner, force)
		}
	}
	return res
}

func removeOrLeave(s sideIn) action {
	switch {
	case !s.Present:
		return keep
	case s.Managed:
		return remove
	default:
		return leave
	}
}

func decideClient(s sideIn, winner fields, force bool) sideOut {
	want := winner
	if s.Present {
		if v, ok := s.Cur[extraPrefix+s.ID]; ok {
			if _, has := winner[extraPrefix+s.ID]; !has {
				// The client's own keys stay unless the winner says otherwise.
				want = winner.clone()
				want[extraPrefix+s.ID] = v
			}
		}
	}
	if s.Present && want.equal(s.Cur) {
		// The client already holds exactly this: nothing to write, and no
		// need to ask how it would read it back (a client reads back what
		// it read, which the conformance suite holds for every client).
		return sideOut{}
	}
	v, ok := s.View(want)
	if !ok {
		return sideOut{Act: removeOrLeave(s), CannotHold: true}
	}
	if s.Present {
		if force {
			if v.equal(s.Cur) {
				return sideOut{}
			}
		} else if e, exps := realEdits(v, s.Cur); len(e) == 0 {
			if len(exps) == 0 {
				return sideOut{}
			}
			ref := s.Cur.clone()
			for _, x := range exps {
				k := x.Field
				if strings.HasPrefix(k, "args[") {
					k = "args"
				}
				ref[k] = v[k]
			}
			return sideOut{Ref: ref}
		}
	}
	return sideOut{Act: put, Want: want}
}
