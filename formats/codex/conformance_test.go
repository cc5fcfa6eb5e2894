package codex

import (
	"flag"
	"testing"

	"github.com/mcpsync/mcpsync/formats/formatstest"
)

var _ = flag.Bool("update", false, "rewrite the want sections of the golden cases (or UPDATE_GOLDEN=1)")

// TestConformance runs the suite every adapter passes over the golden
// cases of testdata/clients/codex.
func TestConformance(t *testing.T) {
	formatstest.Run(t, Adapter(), "../../testdata/clients/codex")
}

// TestCorpusConformance runs the corpus part of the suite over the real
// files in ../shared/corpus/wild/codex.
func TestCorpusConformance(t *testing.T) {
	res := formatstest.RunCorpus(t, Adapter(), "../../../shared/corpus/wild/codex")
	if res.Imported == 0 {
		t.Errorf("no corpus file imported: %s", res)
	}
}

// FuzzConformance is the suite's per-input property over the golden inputs
// and the corpus.
func FuzzConformance(f *testing.F) {
	formatstest.FuzzInputs(f, Adapter(), "../../testdata/clients/codex", "../../../shared/corpus/wild/codex")
}
