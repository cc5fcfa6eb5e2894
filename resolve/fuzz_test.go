package resolve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusFiles returns the shared corpus files matching glob; none when
// the shared material is absent (the inline seeds still run).
func corpusFiles(f *testing.F, glob string) [][]byte { return readCorpus(glob) }

func corpusFilesB(b *testing.B, glob string) [][]byte { return readCorpus(glob) }

func readCorpus(glob string) [][]byte {
	paths, _ := filepath.Glob(filepath.Join("../../shared/corpus/resolver", glob))
	var out [][]byte
	for _, p := range paths {
		if data, err := os.ReadFile(p); err == nil {
			out = append(out, data)
		}
	}
	return out
}

// FuzzReadmeExtract: snippet extraction never panics, and whatever it
// returns is a valid server whose values hold no README placeholder.
func FuzzReadmeExtract(f *testing.F) {
	for _, data := range corpusFiles(f, "readme/*.md") {
		f.Add(data)
	}
	f.Add([]byte("```json\n{\"mcpServers\": {\"x\": {\"command\": \"npx\", \"args\": [\"-y\", \"pkg\"], \"env\": {\"K\": \"YOUR_KEY\"}}}}\n```\n"))
	f.Add([]byte("```\n\"mcpServers\": {\"x\": {\"command\": \"uvx\", \"args\": [\"a\", \"--repo\", \"/path/to/repo\"]}}\n```"))
	f.Add([]byte("~~~bash\nclaude mcp add --transport http x https://h/mcp?key=<your-key>\n~~~\n"))
	f.Add([]byte("```sh\ncodex mcp add x -- npx -y pkg\ncode --add-mcp '{\"name\":\"x\",\"command\":\"npx\"}'\n```"))
	f.Add([]byte("[x](vscode:mcp/install?%7B%22name%22%3A%22x%22%2C%22command%22%3A%22npx%22%7D)"))
	f.Add([]byte("```json\n{\"mcpServers\": {\"x\": {\"command\": \"npx -y mcp-remote https://h/sse --header 'Authorization: Bearer <t>'\"}}}\n```"))
	f.Add([]byte("````\n```\nnested\n```\n````\n```"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cands, _ := ReadmeCandidates(data, ReadmeOptions{File: "README.md", Name: "x", Repo: "x"})
		for _, c := range cands {
			if ds := c.Server.Validate(); ds.HasErrors() {
				t.Fatalf("invalid candidate %+v: %v", c.Server, ds.Err())
			}
			for k, v := range c.Server.Env {
				if isPlaceholder(v) && !strings.Contains(v, "${") {
					t.Fatalf("env %s kept the placeholder %q", k, v)
				}
			}
		}
	})
}

// FuzzServerJSON: reading any document and building its entries never
// panics; an accepted document gives entries that validate.
func FuzzServerJSON(f *testing.F) {
	for _, data := range corpusFiles(f, "server-json/*.json") {
		f.Add(data)
	}
	f.Add([]byte(`{"name":"a/b","packages":[{"registry_type":"npm","identifier":"x","version_detail":{"version":"1"},"runtime_arguments":[{"type":"positional","value":"{v}","variables":{"v":{"default":"d"}}}]}]}`))
	f.Add([]byte(`{"name":"a/b","remotes":[{"transport_type":"sse","url":"https://h/{tenant}/sse","variables":{"tenant":{"is_required":true}}}]}`))
	f.Add([]byte(`{"name":"a/b","packages":[{"type":"npm","package":"p","transport":"stdio","environmentVariables":[{"name":"K","value":8080}]}]}`))
	f.Add([]byte(`{"name":"a/b","packages":[{"registryType":"oci","identifier":"img:${VERSION}","runtimeArguments":[{"type":"named","name":"-e","value":"T={t}","isRequired":true,"variables":{"t":{"isSecret":true}}}]}]}`))
	f.Add([]byte(`{"nAme": "0","remotes": [{"url":true}]}`)) // a URL that is no URL: skipped, not an invalid entry
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"name": 5}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sj, _, err := ParseServerJSON(data)
		if err != nil {
			return
		}
		cands, _ := sj.Candidates(BuildOptions{Name: "x", Values: map[string]string{"T": "v"}})
		for _, c := range cands {
			c.Server.Normalize()
			if ds := c.Server.Validate(); ds.HasErrors() && !strings.Contains(c.Server.URL, "${") {
				// A URL made only of references cannot be checked; anything else must validate.
				t.Fatalf("invalid entry from %s: %+v: %v", data, c.Server, ds.Err())
			}
		}
	})
}

// FuzzParseInput: any text is either an error or an input that renders
// and reads back as the same kind.
func FuzzParseInput(f *testing.F) {
	for _, s := range []string{"https://github.com/o/r/tree/main/src/x", "o/r", "io.github.o/r", "npm:@s/p@1",
		"pypi:p==1", "oci:img:tag", "go:m@v1", "nuget:X", "https://h/mcp", "git@github.com:o/r.git", "github.com/o"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		in, err := ParseInput(s)
		if err != nil {
			return
		}
		again, err := ParseInput(in.String())
		if err != nil || again.Kind != in.Kind {
			t.Fatalf("%q parsed as %+v renders %q which reads back as %+v, %v", s, in, in.String(), again, err)
		}
	})
}

// FuzzPluginAnswer: any plugin output is an answer or an error, never a panic.
func FuzzPluginAnswer(f *testing.F) {
	f.Add([]byte(`{"server": {"command": "npx", "args": ["-y", "x"]}}`))
	f.Add([]byte("Here you go:\n```json\n{\"server\": {\"type\": \"http\", \"url\": \"https://h/mcp\"}}\n```"))
	f.Add([]byte(`{"error": "none", "evidence": ["a", "b"]}`))
	f.Add([]byte(`{{{{}}}}`))
	f.Fuzz(func(t *testing.T, out []byte) {
		ans, err := parsePluginAnswer(out)
		if err != nil {
			return
		}
		if ans.Server != nil {
			if srv, err := ans.Server.server("x"); err == nil {
				_ = snippetCandidate(srv, StepPlugin, nil)
			}
		}
		_ = ans.evidenceLines()
	})
}

// FuzzWorkspaceManifests: the readers of workspace files (go.work,
// package.json workspaces, go.mod requires, PEP 508 names) never panic, and
// the line readers return single-line names.
func FuzzWorkspaceManifests(f *testing.F) {
	f.Add([]byte("go 1.24\nuse (\n\t./a // x\n\t./b\n)\nuse ./c\n"))
	f.Add([]byte(`{"workspaces": ["src/*", "libs/a"]}`))
	f.Add([]byte(`{"workspaces": {"packages": ["p/*"]}}`))
	f.Add([]byte("module x\nrequire (\n\tgithub.com/mark3labs/mcp-go v0.1 // indirect\n)\nrequire a.b/c v1\n"))
	f.Add([]byte("mcp[cli]>=1.2; python_version>'3'"))
	f.Add([]byte("use 0\r0"))
	f.Fuzz(func(t *testing.T, data []byte) {
		workspacePatterns(data) // JSON strings may hold anything: only no panic
		for _, list := range [][]string{goWorkUses(data), goRequires(data), {requirementName(string(data))}} {
			for _, s := range list {
				if strings.ContainsAny(s, "\n\r") {
					t.Fatalf("%q holds a line break", s)
				}
			}
		}
		if n := requirementName(string(data)); strings.ContainsAny(n, " \t[<>=;") {
			t.Fatalf("requirementName(%q) = %q", data, n)
		}
	})
}

// FuzzImagesIn: reading docker lines out of a README never panics, and
// every image use it returns is a stdio docker run: -i --rm, never -d.
func FuzzImagesIn(f *testing.F) {
	f.Add([]byte("```bash\ndocker pull ghcr.io/a/b:1\ndocker run --rm -i -e K=v a/b:1 --flag\n```\n"))
	f.Add([]byte("docker build -t x/y .\ndocker run -i --rm x/y\n"))
	f.Add([]byte("docker run -d -p 80:80 a/b\n`ghcr.io/o/r` and docker run \\\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		uses, _ := imagesIn(data, map[string]string{})
		for _, u := range uses {
			if len(u.args) < 4 || u.args[0] != "run" || u.args[1] != "-i" || u.args[2] != "--rm" {
				t.Fatalf("not a stdio docker run: %q", u.args)
			}
			for i := 3; i < len(u.args) && strings.HasPrefix(u.args[i], "-"); i += 2 { // docker's own flags, each with its value
				if a := u.args[i]; a == "-d" || a == "--detach" {
					t.Fatalf("detached: %q", u.args)
				}
			}
		}
	})
}
