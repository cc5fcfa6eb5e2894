package emitters

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// FuzzBackupManifest feeds any bytes as a backup's manifest.json:
// ListBackups, PlanRestore and PruneBackups never panic, a damaged
// manifest is not a backup, and a restore only ever plans the absolute
// files a manifest names, from copies inside its own directory.
func FuzzBackupManifest(f *testing.F) {
	f.Add([]byte(`{"at":"2026-01-02T03:04:05Z","command":"export","files":[{"path":"/h/.a","backup":"%2Fh%2F.a","mode":384,"sha256":"00"},{"path":"/h/.b","created":true}]}`))
	f.Add([]byte(`{"files":[{"path":"/h/.a","backup":"../../../etc/passwd"}]}`))
	f.Add([]byte(`{"files":[{"path":"relative","backup":"x"}]}`))
	f.Add([]byte(`{"files":[{"path":"/00","backup":"/"}]}`))
	f.Add([]byte(`{"at":"not a time"}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(``))
	f.Fuzz(func(t *testing.T, manifest []byte) {
		stateDir := t.TempDir()
		dir := filepath.Join(stateDir, BackupDirName, "20260102T030405.000000000Z")
		os.MkdirAll(dir, 0o700)
		os.WriteFile(filepath.Join(dir, ManifestName), manifest, 0o600)
		os.WriteFile(filepath.Join(dir, "%2Fh%2F.a"), []byte("old"), 0o600)
		bs, err := ListBackups(stateDir)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range bs {
			for _, r := range b.Files {
				if !filepath.IsAbs(r.Path) || strings.ContainsAny(r.Backup, `/\`) {
					t.Fatalf("listed a damaged record %+v", r)
				}
			}
		}
		p, err := PlanRestore(stateDir, RestoreOptions{All: true})
		if err == nil {
			for _, fc := range p.Files {
				if !filepath.IsAbs(fc.Path) {
					t.Fatalf("planned a relative path %q", fc.Path)
				}
			}
			_ = p.Diff(DiffOptions{Mask: MaskSecrets})
		}
		PruneBackups(stateDir, Retention{Keep: 1, MaxAge: time.Hour}, time.Now())
	})
}
