package winshim

import (
	"slices"
	"strings"
	"testing"
)

// FuzzWrapUnwrap: whatever the command line, Unwrap of Wrap gives it back
// for a shim, and Unwrap never invents a command: what it returns is one
// of the words it was given, lowercased and without .cmd.
func FuzzWrapUnwrap(f *testing.F) {
	f.Add("npx", "-y\x00pkg")
	f.Add("cmd.exe", "/s\x00/c\x00NPX.cmd\x00p")
	f.Add("cmd", "/c")
	f.Fuzz(func(t *testing.T, command, joined string) {
		args := strings.Split(joined, "\x00")
		if c, a, ok := Wrap(command, args); ok {
			back, backArgs, ok := Unwrap(c, a)
			if !ok || !strings.EqualFold(back, strings.TrimSuffix(strings.ToLower(command), ".cmd")) || !slices.Equal(backArgs, args) {
				t.Fatalf("Unwrap(Wrap(%q, %q)) = %q %q %v", command, args, back, backArgs, ok)
			}
		}
		got, rest, ok := Unwrap(command, args)
		if !ok {
			if got != command || !slices.Equal(rest, args) {
				t.Fatalf("Unwrap changed what it did not unwrap: %q %q", got, rest)
			}
			return
		}
		if !IsShim(got) || len(rest) > len(args) {
			t.Fatalf("Unwrap(%q, %q) = %q %q", command, args, got, rest)
		}
	})
}
