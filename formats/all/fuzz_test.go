package all

import (
	"path/filepath"
	"testing"

	"github.com/mcpsync/mcpsync/formats/formatstest"
)

// FuzzAdapters feeds any input to any registered client: Decode and Encode
// never panic, errors sit at a line, a clean input comes back byte for byte,
// and removing a server leaves a file that still decodes.
func FuzzAdapters(f *testing.F) {
	adapters := NewRegistry(Options{}).All()
	for i, a := range adapters {
		seeds := formatstest.Seeds(
			[]string{filepath.Join(clientsDir, a.ID())},
			[]string{filepath.Join(corpusDir, a.ID())})
		for _, s := range seeds {
			f.Add(uint8(i), s)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		if len(data) > 64<<10 {
			return
		}
		formatstest.CheckInput(t, adapters[int(which)%len(adapters)], data)
	})
}
