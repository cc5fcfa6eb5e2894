package tomledit

import "github.com/mcpsync/mcpsync/formats/internal/handoff"

// verified holds what verify decoded of an edit's output, for the Parse of
// those bytes that follows (Codex's read-back of the file it just wrote): that
// second decode was a quarter of the CPU a 10,000-server Codex file took to
// write and read back (pprof).
var verified = handoff.New[map[string]any](2)
