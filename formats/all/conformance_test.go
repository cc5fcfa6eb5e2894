package all

import (
	"path/filepath"
	"testing"

	"github.com/mcpsync/mcpsync/formats/formatstest"
)

// clientsDir holds the golden cases, testdata/clients/<client-id>.
const clientsDir = "../../testdata/clients"

// corpusDir is the shared wild corpus, next to the repository.
const corpusDir = "../../../shared/corpus/wild"

// TestConformance runs the conformance suite against every built-in adapter.
func TestConformance(t *testing.T) {
	for _, a := range NewRegistry(Options{}).All() {
		t.Run(a.ID(), func(t *testing.T) {
			formatstest.Run(t, a, filepath.Join(clientsDir, a.ID()))
		})
	}
}

// TestCorpus decodes every real-world file of the shared corpus for each
// client that has one.
func TestCorpus(t *testing.T) {
	for _, a := range NewRegistry(Options{}).All() {
		t.Run(a.ID(), func(t *testing.T) {
			formatstest.RunCorpus(t, a, filepath.Join(corpusDir, a.ID()))
		})
	}
}
