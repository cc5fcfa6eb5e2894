// Package handoff passes what a parser made of some bytes to the next parse
// of the same bytes.
//
// A writer reads back what it wrote: an adapter's Encode edits its file and
// verifies the edit by parsing the result, and the plan then decodes that
// very result to see what the client will read. The verification's parse is
// handed over to the read-back's, which skips a parse of the whole file.
//
// Each value is taken once, by one parse: it then belongs to that parse's
// caller alone, as a value it parsed would. Only the newest few are held
// (files are planned side by side, and a read-back follows its write at
// once), so a value never taken is dropped soon after.
package handoff

import (
	"hash/maphash"
	"sync"
)

// Slots holds the values offered and not yet taken.
type Slots[T any] struct {
	mu     sync.Mutex
	size   int
	recent []slot[T] // newest last
}

// slot is one value, with what identifies the bytes it was made from: their
// length and their hash when it was offered. The bytes themselves are not
// held: bytes changed in place after the offer hash differently.
type slot[T any] struct {
	n   int
	sum uint64
	v   T
}

var seed = maphash.MakeSeed()

// New returns slots that hold at most size values.
func New[T any](size int) *Slots[T] { return &Slots[T]{size: max(size, 1)} }

// Offer makes v, made from src, the value of the next Take of the same bytes.
func (s *Slots[T]) Offer(src []byte, v T) {
	sl := slot[T]{n: len(src), sum: maphash.Bytes(seed, src), v: v}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.recent) == s.size {
		clear(s.recent[:1]) // let the oldest value go
		s.recent = append(s.recent[:0], s.recent[1:]...)
	}
	s.recent = append(s.recent, sl)
}

// Take returns the value offered for bytes equal to data, if one is held,
// and forgets it.
func (s *Slots[T]) Take(data []byte) (v T, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var sum uint64
	hashed := false
	for i, sl := range s.recent {
		if sl.n != len(data) {
			continue
		}
		if !hashed {
			sum, hashed = maphash.Bytes(seed, data), true
		}
		if sl.sum == sum {
			s.recent = append(s.recent[:i], s.recent[i+1:]...)
			clear(s.recent[len(s.recent):cap(s.recent)][:1]) // the moved-out copy of the last value
			return sl.v, true
		}
	}
	return v, false
}

// Len is the number of values held.
func (s *Slots[T]) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.recent)
}
