package doctor

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/all"
	"github.com/mcpsync/mcpsync/formats/formatstest"
	"github.com/mcpsync/mcpsync/internal/secrets"
)

// FuzzCheckFile feeds any bytes to doctor's file checks as any client's
// file: they never panic, every finding has a kind, a severity and a
// message, points inside the file, and never shows a secret's value.
func FuzzCheckFile(f *testing.F) {
	adapters := all.NewRegistry(all.Options{}).All()
	for i, a := range adapters {
		for _, s := range formatstest.Seeds([]string{filepath.Join("../testdata/clients", a.ID())},
			[]string{filepath.Join(corpusDir, a.ID())}) {
			f.Add(uint8(i), s)
		}
	}
	f.Add(uint8(0), []byte(`{"mcpServers": {"a": {"command": "npx", "env": {"API_KEY": "abcd1234efgh5678"}}}}`))
	env := formats.Env{Home: "/home/user", ProjectDir: "/work/project", OS: "linux"}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		if len(data) > 32<<10 {
			return
		}
		a := adapters[int(which)%len(adapters)]
		loc := formatstest.DefaultLocation(a)
		fs, set := CheckFile(FileInput{Adapter: a, Location: loc, Data: data, Mode: 0o644,
			LookupEnv: func(string) (string, bool) { return "", false }, ImportHint: importHint(a.ID(), loc, env)})
		lines := bytes.Count(data, []byte("\n")) + 1
		var values []string
		for _, srv := range set.Servers {
			for _, sf := range secrets.ScanServer(srv) {
				values = append(values, sf.Value)
			}
		}
		for _, fd := range fs {
			if fd.Kind == "" || fd.Severity == "" || fd.Message == "" {
				t.Fatalf("incomplete finding %+v", fd)
			}
			if fd.Line > lines {
				t.Fatalf("finding at line %d of a %d-line file: %+v", fd.Line, lines, fd)
			}
			for _, v := range values {
				if len(v) >= 4 && strings.Contains(fd.Message+fd.Fix, v) {
					t.Fatalf("finding shows the secret %q: %+v", v, fd)
				}
			}
		}
	})
}
