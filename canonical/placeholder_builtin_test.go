package canonical

import "testing"

// An environment variable named like an editor builtin ($userHome in a
// Gemini file) is not the builtin: its canonical spelling keeps it an
// environment reference (found by FuzzPlaceholderRoundTrip).
func TestEnvRefNamedLikeABuiltinRoundTrips(t *testing.T) {
	for _, name := range []string{"userHome", "workspaceFolder", "pathSeparator"} {
		c, problems := Parse("$"+name, DialectShell).Render(DialectCanonical)
		if c != "${env:"+name+"}" || len(problems) != 0 {
			t.Fatalf("%s: canonical %q %v", name, c, problems)
		}
		back := Parse(c, DialectCanonical)
		if len(back) != 1 || back[0].Kind != EnvRef || back[0].Name != name {
			t.Fatalf("%s: %q reads back as %+v", name, c, back)
		}
		// Written for a client it is that client's spelling again.
		if out, _ := back.Render(DialectShell); out != "${"+name+"}" {
			t.Fatalf("%s: for Gemini %q", name, out)
		}
	}
	// The builtin itself is unchanged.
	if c, _ := Parse("${userHome}/x", DialectEnvColon).Render(DialectCanonical); c != "${userHome}/x" {
		t.Fatalf("builtin: %q", c)
	}
}
