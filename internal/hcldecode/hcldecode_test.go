package hcldecode_test

import (
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/mcpsync/mcpsync/internal/hcldecode"
	"github.com/mcpsync/mcpsync/internal/hcldecode/hcldecodetest"
)

// doc uses every tag kind the package supports.
type doc struct {
	Name      string         `hcl:"name"`
	NameRange hcl.Range      `hcl:"name,attr_value_range"`
	AttrRange hcl.Range      `hcl:"name,attr_range"`
	KeyRange  hcl.Range      `hcl:"name,attr_name_range"`
	Count     int            `hcl:"count,optional"`
	Flag      *bool          `hcl:"flag"`
	Tags      []string       `hcl:"tags,optional"`
	Expr      hcl.Expression `hcl:"expr"`
	Attr      *hcl.Attribute `hcl:"attr,optional"`
	One       inner          `hcl:"one,block"`
	Maybe     *inner         `hcl:"maybe,block"`
	Many      []item         `hcl:"many,block"`
	Pointers  []*item        `hcl:"pointer,block"`
}

type inner struct {
	Value string    `hcl:"value,optional"`
	Def   hcl.Range `hcl:",def_range"`
	Type  hcl.Range `hcl:",type_range"`
}

type item struct {
	ID      string    `hcl:"id,label"`
	IDRange hcl.Range `hcl:"id,label_range"`
	Kind    string    `hcl:"kind,label"`
	N       int       `hcl:"n,optional"`
}

var docSeeds = []string{
	"name = \"a\"\ncount = 2\nflag = true\ntags = [\"x\", \"y\"]\nexpr = 1 + 2\nattr = \"z\"\none { value = \"v\" }\nmaybe {}\nmany \"a\" \"b\" { n = 1 }\nmany \"c\" \"d\" {}\npointer \"p\" \"q\" { n = 3 }\n",
	"name = 1\nflag = \"maybe\"\ncount = \"x\"\ntags = \"one\"\none {}\none {}\n",
	"count = 1.5\nunknown = 1\nmany \"only-one-label\" {}\n",
	"name = var.x\nflag = null\none {}\nmaybe {}\nmaybe {}\n",
	"name = \"a\"\nflag = false\ntags = [null]\none { value = [1] }\n",
}

// FuzzBody: Body decodes as gohcl.DecodeBody does, values and diagnostics.
func FuzzBody(f *testing.F) {
	for _, s := range docSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { hcldecodetest.Same[doc](t, src) })
}

// TestBodyReportsWhere: a value of the wrong type is an error at the value,
// a required block left out an error that names it.
func TestBodyReportsWhere(t *testing.T) {
	file, _ := hclparse.NewParser().ParseHCL([]byte("name = [1]\nflag = true\n"), "doc.hcl")
	var d doc
	ds := hcldecodetest.Texts(hcldecode.Body(file.Body, &d))
	want := []string{
		"doc.hcl:1,1-1: Missing one block; A one block is required.",
		"doc.hcl:1,8-9: Unsuitable value type; Unsuitable value: string required, but have tuple context doc.hcl:1,8-11",
	}
	if !slices.Equal(ds, want) {
		t.Errorf("diagnostics:\n%q\nwant:\n%q", ds, want)
	}
}
