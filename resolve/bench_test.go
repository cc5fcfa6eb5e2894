package resolve

import (
	"testing"
)

// BenchmarkReadmeCandidates extracts every candidate from each corpus
// README (the README step's whole work once the file is fetched).
func BenchmarkReadmeCandidates(b *testing.B) {
	files := corpusFilesB(b, "readme/*.md")
	if len(files) == 0 {
		b.Skip("resolver corpus not available")
	}
	size := 0
	for _, f := range files {
		size += len(f)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			ReadmeCandidates(f, ReadmeOptions{File: "README.md", Name: "x", Repo: "x"})
		}
	}
}

// BenchmarkServerJSON reads and builds every corpus server.json.
func BenchmarkServerJSON(b *testing.B) {
	files := corpusFilesB(b, "server-json/*.json")
	if len(files) == 0 {
		b.Skip("resolver corpus not available")
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			if sj, _, err := ParseServerJSON(f); err == nil {
				sj.Candidates(BuildOptions{})
			}
		}
	}
}
