package ledger

import (
	"github.com/mcpsync/mcpsync/internal/jsonwrite"
)

// MarshalJSON writes the entry as encoding/json would without this method
// (FuzzEntryJSON holds that): by hand, because a state file holds an entry
// per server per client file, and reflection was most of the cost of
// saving it.
func (e *Entry) MarshalJSON() ([]byte, error) {
	return appendEntry(make([]byte, 0, 160), e, true, nil)
}

// appendEntry appends e as Entry.MarshalJSON writes it; without its
// server unless withServer.
func appendEntry(b []byte, e *Entry, withServer bool, times *timeMemo) ([]byte, error) {
	b = append(b, '{')
	if e.Client != "" {
		b = append(b, `"client":`...)
		b = jsonwrite.AppendString(b, e.Client)
		b = append(b, ',')
	}
	b = append(b, `"hash":`...)
	b = jsonwrite.AppendString(b, e.Hash)
	if withServer && e.Server != nil {
		b = append(b, `,"server":`...)
		b = jsonwrite.AppendServer(b, e.Server)
	}
	if !e.At.IsZero() {
		var err error
		if b, err = times.append(append(b, `,"at":`...), e.At); err != nil {
			return nil, err
		}
	}
	b = jsonwrite.AppendStringField(b, "from", e.From)
	b = jsonwrite.AppendStringField(b, "source", e.Source)
	return append(b, '}'), nil
}
