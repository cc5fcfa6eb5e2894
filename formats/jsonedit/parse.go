package jsonedit

import (
	"sync"

	"github.com/tailscale/hujson"
)

// parseTree returns the tree hujson.Parse makes of b, and hujson's error
// when b is not valid.
//
// hujson.Parse grows each object's and array's list one value at a time:
// half of its time, at 10,000 servers, went to growing and copying the
// list of the servers' object (each member is 160 bytes), and another
// fifth to checking every literal with encoding/json. A plan parses every
// JSON file it reads or writes, so this takes the common text, mcpsync's
// own output and most users' files, by a faster path: each list is
// gathered on one scratch stack and then copied once into a slab, and a
// plain ASCII string is checked by a loop. The tree is the very one
// hujson makes (FuzzParseTree compares them, down to nil and empty
// extras). Whatever this path does not take (a comment, a syntax error)
// is handed to hujson.Parse, so that errors and comments are hujson's own.
func parseTree(b []byte) (hujson.Value, error) {
	if len(b) < treeFastFrom {
		return hujson.Parse(b)
	}
	return parseTreeFast(b)
}

// treeFastFrom is the size of text from which parseTree takes the fast
// path. A plan also parses many tiny texts (one server, encoded to see
// how a client reads it back, for every server of every client, a few
// hundred bytes each), where the fast path's stacks and slabs would be
// allocations for nothing: with slabs sized for a large file, a no-op
// export of 10,000 servers to every client took 1.8 times as long. A
// whole file of a few dozen servers is past it: a file of 50 servers
// (10 KB) parses in 60 µs and 520 allocations instead of hujson's 117 µs
// and 1,011, one of 12 (2.5 KB) in 16 against 31 µs.
const treeFastFrom = 2 << 10

// parseTreeFast is parseTree's fast path, for text of any size.
func parseTreeFast(b []byte) (hujson.Value, error) {
	p := treeParser{b: b}
	s := takeStacks()
	p.members, p.elements = s.members[:0], s.elements[:0]
	v, n, ok := p.value(0)
	// The stacks go back empty, so that they hold on to nothing of b.
	clear(p.members[:cap(p.members)])
	clear(p.elements[:cap(p.elements)])
	s.members, s.elements = p.members[:0], p.elements[:0]
	giveStacks(s)
	if !ok || n != len(b) {
		return hujson.Parse(b)
	}
	return v, nil
}

// stacks are a treeParser's scratch stacks, kept between parses: the
// stack of a file of 10,000 servers grows to 1.6 MB, and a plan parses
// several such files, side by side. They are kept in a list of their own,
// not a sync.Pool, which every collection empties: a run of 10,000
// servers collects while it parses, and grew the stacks again each time
// (28 MB of 450 MB allocated).
type stacks struct {
	members  []hujson.ObjectMember
	elements []hujson.Value
}

var spare struct {
	sync.Mutex
	list []*stacks
}

// keptStacks is how many stacks are kept: one per file parsed at once.
const keptStacks = 4

func takeStacks() *stacks {
	spare.Lock()
	defer spare.Unlock()
	if n := len(spare.list); n > 0 {
		s := spare.list[n-1]
		spare.list = spare.list[:n-1]
		return s
	}
	return new(stacks)
}

func giveStacks(s *stacks) {
	spare.Lock()
	defer spare.Unlock()
	if len(spare.list) < keptStacks {
		spare.list = append(spare.list, s)
	}
}

// treeParser is the fast path of parseTree. Every method returns ok false
// at anything it does not take, and the caller then gives up.
type treeParser struct {
	b []byte
	// members and elements are the lists of the objects and arrays still
	// open, innermost last.
	members  []hujson.ObjectMember
	elements []hujson.Value
	// memberSlab and elementSlab are where finished lists are kept: one
	// allocation for many small lists.
	memberSlab  []hujson.ObjectMember
	elementSlab []hujson.Value
	objects     []hujson.Object
	arrays      []hujson.Array
}

// extra skips white space from n; ok is false at a comment (or anything
// else that starts with '/').
func (p *treeParser) extra(n int) (int, bool) {
	for n < len(p.b) {
		switch p.b[n] {
		case ' ', '\t', '\r', '\n':
			n++
		case '/':
			return n, false
		default:
			return n, true
		}
	}
	return n, true
}

// value parses a value with the white space around it, as hujson's
// parseNext does.
func (p *treeParser) value(n int) (v hujson.Value, _ int, ok bool) {
	n0 := n
	if n, ok = p.extra(n); !ok {
		return v, n, false
	}
	if n > n0 {
		v.BeforeExtra = p.b[n0:n:n]
	}
	v.StartOffset = n
	if v.Value, n, ok = p.trimmed(n); !ok {
		return v, n, false
	}
	v.EndOffset = n
	if n, ok = p.extra(n); !ok {
		return v, n, false
	}
	if n > v.EndOffset {
		v.AfterExtra = p.b[v.EndOffset:n:n]
	}
	return v, n, true
}

func (p *treeParser) trimmed(n int) (hujson.ValueTrimmed, int, bool) {
	b := p.b
	if n == len(b) {
		return nil, n, false
	}
	switch b[n] {
	case '{':
		return p.object(n + 1)
	case '[':
		return p.array(n + 1)
	case '"':
		return p.str(n)
	case '}', ']':
		return nil, n, false
	}
	n0 := n
	for n < len(b) && (b[n] == '-' || b[n] == '+' || b[n] == '.' ||
		('a' <= b[n] && b[n] <= 'z') || ('A' <= b[n] && b[n] <= 'Z') || ('0' <= b[n] && b[n] <= '9')) {
		n++
	}
	lit := hujson.Literal(b[n0:n:n])
	if len(lit) == 0 || !lit.IsValid() {
		return nil, n0, false
	}
	return lit, n, true
}

// str parses a string. One of printable ASCII without escapes is valid
// as it is; any other is checked as hujson checks it.
func (p *treeParser) str(n int) (hujson.ValueTrimmed, int, bool) {
	b := p.b
	n0 := n
	plain := true
	for n++; ; n++ {
		if n >= len(b) {
			return nil, n, false
		}
		c := b[n]
		if c == '"' {
			break
		}
		if c == '\\' {
			plain = false
			n++ // the escaped byte cannot end the string
			continue
		}
		if c < 0x20 || c >= 0x80 {
			plain = false
		}
	}
	n++
	if plain {
		if i := common(b[n0+1 : n-1]); i >= 0 {
			return commonLiterals[i], n, true // boxed once (commonStrings)
		}
	}
	lit := hujson.Literal(b[n0:n:n])
	if !plain && !lit.IsValid() {
		return nil, n0, false
	}
	return lit, n, true
}

func (p *treeParser) object(n int) (hujson.ValueTrimmed, int, bool) {
	base := len(p.members)
	defer func() { p.members = p.members[:base] }()
	obj := next(&p.objects)
	for {
		// A name, or the end of the object (with or without a trailing
		// comma before it).
		n0 := n
		var ok bool
		if n, ok = p.extra(n); !ok || n == len(p.b) {
			return nil, n, false
		}
		if p.b[n] == '}' {
			if len(p.members) > base {
				last := &p.members[len(p.members)-1].Value
				if last.AfterExtra == nil {
					last.AfterExtra = []byte{}
				}
			}
			if n > n0 {
				obj.AfterExtra = p.b[n0:n:n]
			}
			obj.Members = keep(p.members[base:], &p.memberSlab)
			return obj, n + 1, true
		}
		var name, val hujson.Value
		if name, n, ok = p.value(n0); !ok {
			return nil, n, false
		}
		if name.Value.Kind() != '"' || n == len(p.b) || p.b[n] != ':' {
			return nil, n, false
		}
		if val, n, ok = p.value(n + 1); !ok || n == len(p.b) {
			return nil, n, false
		}
		p.members = append(p.members, hujson.ObjectMember{Name: name, Value: val})
		switch p.b[n] {
		case ',':
			n++
		case '}':
			last := &p.members[len(p.members)-1].Value
			obj.AfterExtra, last.AfterExtra = last.AfterExtra, nil
			obj.Members = keep(p.members[base:], &p.memberSlab)
			return obj, n + 1, true
		default:
			return nil, n, false
		}
	}
}

func (p *treeParser) array(n int) (hujson.ValueTrimmed, int, bool) {
	base := len(p.elements)
	defer func() { p.elements = p.elements[:base] }()
	arr := next(&p.arrays)
	for {
		n0 := n
		var ok bool
		if n, ok = p.extra(n); !ok || n == len(p.b) {
			return nil, n, false
		}
		if p.b[n] == ']' {
			if len(p.elements) > base {
				last := &p.elements[len(p.elements)-1]
				if last.AfterExtra == nil {
					last.AfterExtra = []byte{}
				}
			}
			if n > n0 {
				arr.AfterExtra = p.b[n0:n:n]
			}
			arr.Elements = keep(p.elements[base:], &p.elementSlab)
			return arr, n + 1, true
		}
		var v hujson.Value
		if v, n, ok = p.value(n0); !ok || n == len(p.b) {
			return nil, n, false
		}
		p.elements = append(p.elements, v)
		switch p.b[n] {
		case ',':
			n++
		case ']':
			last := &p.elements[len(p.elements)-1]
			arr.AfterExtra, last.AfterExtra = last.AfterExtra, nil
			arr.Elements = keep(p.elements[base:], &p.elementSlab)
			return arr, n + 1, true
		default:
			return nil, n, false
		}
	}
}

// slabSize is how many values a slab holds at most: small lists share
// one; a larger list gets an allocation of its own. The first slab of a
// parse is small and each next one twice the last, so that a small file
// (most are) allocates little more than its tree.
const slabSize = 256

// nextSlab is the capacity of the slab after one of capacity last.
func nextSlab(last int) int { return min(slabSize, max(8, 2*last)) }

// keep copies list, the values gathered for one object or array, to a
// full-capacity slice of their own (nil for none, as hujson leaves it):
// a share of *slab when it is small, else an allocation of its own.
func keep[T any](list []T, slab *[]T) []T {
	if len(list) == 0 {
		return nil
	}
	if len(list) > slabSize/4 {
		return append([]T(nil), list...)[:len(list):len(list)]
	}
	if len(*slab)+len(list) > cap(*slab) {
		*slab = make([]T, 0, max(nextSlab(cap(*slab)), len(list)))
	}
	i := len(*slab)
	*slab = append(*slab, list...)
	return (*slab)[i:len(*slab):len(*slab)]
}

// next returns a new zero value in *slab.
func next[T any](slab *[]T) *T {
	if len(*slab) == cap(*slab) {
		*slab = make([]T, 0, nextSlab(cap(*slab)))
	}
	*slab = (*slab)[:len(*slab)+1]
	return &(*slab)[len(*slab)-1]
}
