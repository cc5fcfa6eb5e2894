package emitters

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/internal/buildid"
	"github.com/mcpsync/mcpsync/ledger"
)

// What an entry is written from names the build, the client, its file and
// scope, the options (as the location takes them) and the definition: a
// target plan's own writtenFrom, which makes the first part once, says
// exactly what WrittenFrom says, for every options and definition, and
// sees the options change.
func TestWrittenFromOfATargetPlan(t *testing.T) {
	sb := newSandbox(t)
	tgt := sb.target(lineAdapter{id: "fake"}, "")
	tp := &TargetPlan{Target: tgt}
	want := func(opts formats.EncodeOptions, hash string) string {
		h := sha256.New()
		h.Write(buildid.ID())
		fmt.Fprintf(h, "\x00%s\x00%s\x00%s\x00%+v\x00%s", tgt.Adapter.ID(), tgt.Location.Path, tgt.Location.Scope, opts.For(tgt.Location), hash)
		return hex.EncodeToString(h.Sum(nil))
	}
	for _, opts := range []formats.EncodeOptions{{}, {OS: "windows"}, {BridgeRemote: true}, {}, {PromptInputs: true, OS: "darwin"}} {
		for _, srv := range []canonical.Server{stdio("gh", "npx"), stdio("fs", "uvx", "-y")} {
			h := ledger.Hash(srv)
			if got, w := tp.writtenFrom(h, opts), want(opts, h); got != w {
				t.Errorf("%+v, %s: target plan says %s, want %s", opts, srv.Name, got, w)
			}
			if got, w := WrittenFrom(tgt, srv, opts), want(opts, h); got != w {
				t.Errorf("%+v, %s: WrittenFrom says %s, want %s", opts, srv.Name, got, w)
			}
		}
	}
}
