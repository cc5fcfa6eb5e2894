package tomledit

import (
	"hash/maphash"
	"sync"
)

// A writer reads back what it wrote: Codex's Encode edits its file, and the
// plan then decodes the result to see what the client will read. verify has
// just decoded that very text, so it hands its decoding over to the Parse of
// the same bytes that follows, which skips the second decode (a third of
// the time a 10,000-server Codex file takes to write).
//
// Each decoding is taken once, by one Parse: a Doc's Root then belongs to
// that Doc alone, as a decoded one would. verify's own use of it ends before
// it is handed over. Only the newest few are held (files are planned side
// by side; the read-back follows its write at once), so a decoding never
// taken is dropped soon after.

const handoffSize = 2

// decoding is one text's decoded Root, with what identifies the text: its
// length and its hash when it was decoded. The text itself is not held: a
// caller that changed it in place after verify would make the hash differ.
type decoding struct {
	n    int
	sum  uint64
	root map[string]any
}

var handoff struct {
	sync.Mutex
	recent []decoding // newest last
}

var handoffSeed = maphash.MakeSeed()

// handOver offers root, decoded from src, to the next Parse of the same bytes.
func handOver(src []byte, root map[string]any) {
	dec := decoding{n: len(src), sum: maphash.Bytes(handoffSeed, src), root: root}
	handoff.Lock()
	defer handoff.Unlock()
	if len(handoff.recent) == handoffSize {
		handoff.recent = append(handoff.recent[:0], handoff.recent[1:]...)
	}
	handoff.recent = append(handoff.recent, dec)
}

// takeOver returns the decoding of data handed over by verify, if there is
// one, and forgets it.
func takeOver(data []byte) (map[string]any, bool) {
	handoff.Lock()
	defer handoff.Unlock()
	if len(handoff.recent) == 0 {
		return nil, false
	}
	var sum uint64
	hashed := false
	for i, dec := range handoff.recent {
		if dec.n != len(data) {
			continue
		}
		if !hashed {
			sum, hashed = maphash.Bytes(handoffSeed, data), true
		}
		if dec.sum == sum {
			handoff.recent = append(handoff.recent[:i], handoff.recent[i+1:]...)
			return dec.root, true
		}
	}
	return nil, false
}
