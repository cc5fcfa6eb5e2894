package engine_test

import (
	"os"
	"testing"

	"github.com/mcpsync/mcpsync/internal/hugeheap"
)

// TestMain starts the test binary's heap as the command starts its own:
// marked for huge pages before it grows (internal/earlyheap does it for
// mcpsync), so that the engine calls the benchmarks time run on the heap
// the command's run on, under the collector settings productGC gives them.
// Without it, a no-op sync of 10,000 servers timed here cost 1.2 times the
// fresh export; in the command, and here with it, about as much.
func TestMain(m *testing.M) {
	hugeheap.Mark()
	os.Exit(m.Run())
}
