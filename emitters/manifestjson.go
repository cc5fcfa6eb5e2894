package emitters

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/mcpsync/mcpsync/internal/jsonwrite"
)

// manifestJSON is json.MarshalIndent(m, "", "  ") (FuzzManifestJSON holds
// that), written without encoding/json's reflection: its first use builds
// an encoder for each type, on the way of every write (a backup's manifest
// is written before any file is). A record that still holds its state
// inline (an older backup's, being pruned) goes through encoding/json.
func manifestJSON(m BackupManifest) ([]byte, error) {
	for _, rec := range m.Files {
		if rec.State != nil {
			return json.MarshalIndent(m, "", "  ")
		}
	}
	b, err := jsonwrite.AppendTime(append(make([]byte, 0, 256+256*len(m.Files)), `{"at":`...), m.At)
	if err != nil {
		return nil, err
	}
	b = jsonwrite.AppendStringField(b, "command", m.Command)
	b = append(b, `,"files":`...)
	if m.Files == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, rec := range m.Files {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonwrite.AppendString(append(b, `{"path":`...), rec.Path)
			b = jsonwrite.AppendStringField(b, "root", rec.Root)
			b = jsonwrite.AppendStringField(b, "backup", rec.Backup)
			if rec.Created {
				b = append(b, `,"created":true`...)
			}
			if rec.Mode != 0 {
				b = strconv.AppendUint(append(b, `,"mode":`...), uint64(rec.Mode), 10)
			}
			b = jsonwrite.AppendStringField(b, "sha256", rec.SHA256)
			b = jsonwrite.AppendStringField(b, "newSha256", rec.NewSHA256)
			b = jsonwrite.AppendStringField(b, "stateFile", rec.StateFile)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, '}')
	var out bytes.Buffer
	out.Grow(len(b) + len(b)/2)
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
