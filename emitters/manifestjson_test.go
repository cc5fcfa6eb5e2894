package emitters

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/ledger"
)

// FuzzManifestJSON: a backup's manifest is written as json.MarshalIndent
// writes it, a refusal included (a year it cannot write).
func FuzzManifestJSON(f *testing.F) {
	f.Add(int64(1700000000), int64(5), "export --to all", "/home/u/.cursor/mcp.json", "", "%2Fhome", true, uint32(0o600), "abc", "def", "state~x.json", 2)
	f.Add(int64(-62135596801), int64(0), "", "<&>\u2028", "/r", "", false, uint32(fs.ModeDir|0o755), "", "", "", 0)
	f.Add(int64(253402300800), int64(0), "\xff\"", "a", "", "", false, uint32(0), "", "", "", -1)
	f.Fuzz(func(t *testing.T, secs, nanos int64, command, path, root, backup string, created bool, mode uint32, sum, newSum, stateFile string, n int) {
		m := BackupManifest{At: time.Unix(secs, nanos).UTC(), Command: command}
		switch {
		case n < 0:
			m.Files = nil
		case n == 0:
			m.Files = []BackupRecord{}
		default:
			for i := range min(n, 4) {
				m.Files = append(m.Files, BackupRecord{Path: path + string(rune('a'+i)), Root: root, Backup: backup, Created: created != (i%2 == 1),
					Mode: fs.FileMode(mode), SHA256: sum, NewSHA256: newSum, StateFile: stateFile})
			}
		}
		check := func(m BackupManifest) {
			t.Helper()
			want, werr := json.MarshalIndent(m, "", "  ")
			got, gerr := manifestJSON(m)
			if (werr != nil) != (gerr != nil) || werr == nil && !bytes.Equal(got, want) {
				t.Fatalf("manifestJSON:\n%s\n%v\njson.MarshalIndent:\n%s\n%v", got, gerr, want, werr)
			}
		}
		check(m)
		if len(m.Files) > 0 { // an older backup's record, its state inline
			m.Files[0].State = &ledger.File{SHA256: sum}
			check(m)
		}
	})
}
