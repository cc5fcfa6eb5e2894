package strquote

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"go.yaml.in/yaml/v3"
	"golang.org/x/text/unicode/norm"
)

// FuzzReadsBack: what each spelling writes between its quotes reads back,
// by that format's own decoder, as the string spelled (HCL's as cty holds
// it, in NFC), and JSON's is what encoding/json writes without HTML
// escaping.
func FuzzReadsBack(f *testing.F) {
	for _, s := range []string{"plain", `a"b\c&d<e>`, "tab\tnl\nesc\x1bdel\x7f", "ünï\u0085\u2028\u00a0", "${x} %{y}", "it's"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // no value mcpsync writes is other than UTF-8
		}
		var js string
		if err := json.Unmarshal([]byte(`"`+JSON(s)+`"`), &js); err != nil || js != s {
			t.Errorf("JSON %q reads back as %q (%v)", JSON(s), js, err)
		}
		if strings.ContainsAny(JSON(s), "<>&") != strings.ContainsAny(s, "<>&") {
			t.Errorf("JSON %q escapes HTML", JSON(s))
		}
		var tm struct{ K string }
		if _, err := toml.Decode(`K = "`+TOML(s)+`"`, &tm); err != nil || tm.K != s {
			t.Errorf("TOML %q reads back as %q (%v)", TOML(s), tm.K, err)
		}
		e, diags := hclsyntax.ParseExpression([]byte(`"`+HCL(s)+`"`), "x.hcl", hcl.InitialPos)
		if !diags.HasErrors() {
			if v, diags := e.Value(nil); diags.HasErrors() || v.AsString() != norm.NFC.String(s) {
				t.Errorf("HCL %q reads back as %#v (%v)", HCL(s), v, diags)
			}
		} else {
			t.Errorf("HCL %q does not parse: %v", HCL(s), diags)
		}
		var y string
		if err := yaml.Unmarshal([]byte(`"`+YAMLDouble(s)+`"`), &y); err != nil || y != s {
			t.Errorf("YAML double %q reads back as %q (%v)", YAMLDouble(s), y, err)
		}
	})
}
