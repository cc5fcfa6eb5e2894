package store_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/hcl/v2/hclwrite"

	"github.com/mcpsync/mcpsync/formats/all"
	"github.com/mcpsync/mcpsync/formats/formatstest"
	"github.com/mcpsync/mcpsync/store"
)

// corpusDir is the shared wild corpus, next to the repository.
const corpusDir = "../../shared/corpus/wild"

// TestCorpusBlocksAsHclwrite: every server of the real-world configs in the
// shared corpus, as its client reads it, written as a store block, is text
// hclwrite.Format leaves as it is. The store lays its blocks out with
// internal/hclfmt, not hclwrite (FuzzFormat holds the two equal on any
// text); these are the shapes users' servers really have, extra and oauth
// blocks included.
func TestCorpusBlocksAsHclwrite(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skipf("no corpus at %s (it is in the shared reference material, ../shared, next to the repository)", corpusDir)
	}
	servers, nested := 0, 0
	for _, a := range all.NewRegistry(all.Options{}).All() {
		files, _ := filepath.Glob(filepath.Join(corpusDir, a.ID(), "*"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			set, diags := a.Decode(formatstest.DefaultLocation(a), data)
			if diags.HasErrors() {
				continue // refused files are the adapters' tests' business
			}
			for _, srv := range set.Servers {
				block := store.Format(srv)
				if laid := hclwrite.Format(bytes.Clone(block)); !bytes.Equal(laid, block) {
					t.Errorf("%s: server %q:\n%s\nhclwrite.Format makes it:\n%s", f, srv.Name, block, laid)
				}
				servers++
				if bytes.Contains(block, []byte("\n  extra ")) || bytes.Contains(block, []byte("\n  oauth {")) {
					nested++
				}
			}
		}
	}
	if servers == 0 {
		t.Fatal("no server decoded from the corpus")
	}
	t.Logf("%d servers, %d of them with extra or oauth blocks", servers, nested)
}
