package doctor

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/all"
	"github.com/mcpsync/mcpsync/internal/secrets"
)

// corpusDir is the real-world config files of the shared reference
// material, next to the repository.
const corpusDir = "../../shared/corpus/wild"

// TestCorpusThroughDoctor runs every file of the wild corpus through
// doctor's file checks, as the file its client reads: nothing may panic,
// every finding has a kind, a severity, a place and a message, and no
// finding shows a secret's value. It logs the findings counted by kind.
func TestCorpusThroughDoctor(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join(corpusDir, "*"))
	if len(dirs) == 0 {
		t.Skip("no corpus at " + corpusDir + " (it is in the shared reference material, ../shared, next to the repository)")
	}
	paths := corpusPaths(t)
	reg := all.NewRegistry(all.Options{})
	env := formats.Env{Home: "/home/user", ProjectDir: "/work/project", OS: "linux",
		Getenv: func(k string) string { return map[string]string{"XDG_CONFIG_HOME": "/home/user/.config"}[k] }}
	unset := func(string) (string, bool) { return "", false }
	byKind := map[Kind]int{}
	bySeverity := map[Severity]int{}
	files, servers := 0, 0
	for _, dir := range dirs {
		fi, err := os.Stat(dir)
		if err != nil || !fi.IsDir() {
			continue
		}
		ad, err := reg.Lookup(filepath.Base(dir))
		if err != nil {
			t.Errorf("corpus directory %s names no client: %v", dir, err)
			continue
		}
		entries, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, f := range entries {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			loc := corpusLocation(ad, env, paths[filepath.Base(f)])
			loc.Path = f
			files++
			fs, set := CheckFile(FileInput{Adapter: ad, Location: loc, Data: data, Mode: 0o600, LookupEnv: unset,
				ImportHint: importHint(ad.ID(), loc, env)})
			servers += set.Len()
			for _, fd := range fs {
				byKind[fd.Kind]++
				bySeverity[fd.Severity]++
				if fd.Kind == "" || fd.Severity == "" || fd.Message == "" || fd.File == "" {
					t.Errorf("%s: incomplete finding %+v", f, fd)
				}
				if fd.Kind == LiteralSecret && fd.Line == 0 {
					t.Errorf("%s: a literal secret without a line: %+v", f, fd)
				}
			}
			for _, srv := range set.Servers {
				for _, sf := range secrets.ScanServer(srv) {
					for _, fd := range fs {
						if strings.Contains(fd.Message+fd.Fix, sf.Value) {
							t.Errorf("%s: a finding shows the secret %q", f, sf.Masked())
						}
					}
				}
			}
		}
	}
	kinds := make([]string, 0, len(byKind))
	for k, n := range byKind {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, n))
	}
	sort.Strings(kinds)
	t.Logf("doctor over the wild corpus: %d files, %d servers; %d errors, %d warnings, %d notes; by kind: %s",
		files, servers, bySeverity[SevError], bySeverity[SevWarning], bySeverity[SevInfo], strings.Join(kinds, ", "))
}

// corpusPaths maps each corpus file to the path it had in its repository
// (SOURCES.tsv), which says which of the client's files it is.
func corpusPaths(t *testing.T) map[string]string {
	out := map[string]string{}
	f, err := os.Open(filepath.Join(corpusDir, "SOURCES.tsv"))
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) >= 4 {
			out[filepath.Base(cols[0])] = cols[3]
		}
	}
	return out
}

// corpusLocation picks the client's location a corpus file stands for: the
// project file when its repository path ends like one (".cursor/mcp.json"),
// else the user file.
func corpusLocation(ad formats.Adapter, env formats.Env, repoPath string) formats.Location {
	locs := ad.Locations(env)
	for _, l := range locs {
		if l.Scope == canonical.ScopeProject && !l.ReadOnly {
			rel, err := filepath.Rel(env.ProjectDir, l.Path)
			if err == nil && (repoPath == rel || strings.HasSuffix(repoPath, "/"+rel)) && strings.HasPrefix(rel, ".") {
				return l
			}
		}
	}
	for _, l := range locs {
		if l.Scope == canonical.ScopeUser && !l.ReadOnly {
			return l
		}
	}
	return locs[0]
}
