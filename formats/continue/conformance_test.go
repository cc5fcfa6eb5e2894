package continuedev

import (
	"flag"
	"testing"

	"github.com/mcpsync/mcpsync/formats/formatstest"
)

var _ = flag.Bool("update", false, "rewrite the want sections of the golden cases (or UPDATE_GOLDEN=1)")

const (
	caseDir   = "../../testdata/clients/continue"
	corpusDir = "../../../shared/corpus/wild/continue"
)

func TestConformance(t *testing.T) {
	formatstest.Run(t, Adapter(), caseDir)
}

func TestCorpusConformance(t *testing.T) {
	loc := Adapter().Locations(formatstest.Env)[1] // the corpus holds workspace blocks
	res := formatstest.RunCorpus(t, Adapter(), corpusDir, formatstest.WithLocation(loc))
	if res.Imported == 0 {
		t.Errorf("no corpus file imported: %s", res)
	}
}

func FuzzConformance(f *testing.F) {
	formatstest.FuzzInputs(f, Adapter(), caseDir, corpusDir)
}
