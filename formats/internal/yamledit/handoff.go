package yamledit

import "github.com/mcpsync/mcpsync/formats/internal/handoff"

// verified holds the Doc verify parsed of an edit's output, for the Parse
// of those bytes that follows (a client's read-back of the file it just
// wrote), which would otherwise parse the whole file a third time.
var verified = handoff.New[*Doc](2)
