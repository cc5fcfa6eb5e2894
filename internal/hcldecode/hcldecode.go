// Package hcldecode decodes an HCL body into a Go struct by its `hcl`
// field tags, as gohcl.DecodeBody does for the tags mcpsync's client spec
// schema uses: attributes (required, or optional), blocks (one, a pointer
// to one, or a slice), block labels, and the ranges of attributes, values,
// labels and block headers. Values are converted with go-cty's convert
// and gocty, as gohcl converts them, so the diagnostics are the same.
//
// Why not gohcl itself: linking gohcl links hclwrite, and hclwrite links
// github.com/google/go-cmp, whose package initialisation every mcpsync
// command paid at start (see internal/hclfmt). FuzzBody holds the two
// decoders equal: the same values and the same diagnostics.
package hcldecode

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/gocty"
)

var (
	exprType = reflect.TypeFor[hcl.Expression]()
	attrType = reflect.TypeFor[*hcl.Attribute]()
)

// Body decodes body into the struct v points to. Expressions are
// evaluated without a context: only constant values, no variables or
// functions.
func Body(body hcl.Body, v any) hcl.Diagnostics {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("hcldecode.Body: want a pointer to a struct, not %T", v))
	}
	return decodeBody(body, rv.Elem(), fieldsOf(rv.Elem().Type()))
}

// fields is what a struct's tags say, by field index.
type fields struct {
	attrs      map[string]int
	optional   map[string]bool
	blocks     map[string]int
	labels     []label
	labelRange map[string]int
	attrRange  map[string]int // the whole name = value
	nameRange  map[string]int
	valueRange map[string]int
	defRange   int // -1: none
	typeRange  int // -1: none
}

type label struct {
	name  string
	field int
}

func fieldsOf(t reflect.Type) *fields {
	f := &fields{attrs: map[string]int{}, optional: map[string]bool{}, blocks: map[string]int{},
		labelRange: map[string]int{}, attrRange: map[string]int{}, nameRange: map[string]int{}, valueRange: map[string]int{},
		defRange: -1, typeRange: -1}
	for i := range t.NumField() {
		tag := t.Field(i).Tag.Get("hcl")
		if tag == "" {
			continue
		}
		name, kind, found := strings.Cut(tag, ",")
		if !found {
			kind = "attr"
		}
		switch kind {
		case "attr":
			f.attrs[name] = i
		case "optional":
			f.attrs[name] = i
			f.optional[name] = true
		case "block":
			f.blocks[name] = i
		case "label":
			f.labels = append(f.labels, label{name, i})
		case "label_range":
			f.labelRange[name] = i
		case "attr_range":
			f.attrRange[name] = i
		case "attr_name_range":
			f.nameRange[name] = i
		case "attr_value_range":
			f.valueRange[name] = i
		case "def_range":
			f.defRange = i
		case "type_range":
			f.typeRange = i
		default:
			// remain and body are gohcl's too; no schema here uses them.
			panic(fmt.Sprintf("hcldecode: tag kind %q on %s.%s is not supported", kind, t, t.Field(i).Name))
		}
	}
	return f
}

// blockElem is the struct type a block field holds: T, *T, []T or []*T.
func blockElem(t reflect.Type) (elem reflect.Type, slice, ptr bool) {
	if t.Kind() == reflect.Slice {
		slice, t = true, t.Elem()
	}
	if t.Kind() == reflect.Pointer {
		ptr, t = true, t.Elem()
	}
	return t, slice, ptr
}

// schemaOf is the body schema t's tags describe: every attribute required
// unless optional, a pointer, or an hcl.Expression (whose absence is a
// null); every block with the labels its struct names.
func schemaOf(t reflect.Type, f *fields) *hcl.BodySchema {
	s := &hcl.BodySchema{}
	for _, name := range slices.Sorted(maps.Keys(f.attrs)) {
		ft := t.Field(f.attrs[name]).Type
		required := !ft.AssignableTo(exprType) && ft.Kind() != reflect.Pointer && !f.optional[name]
		s.Attributes = append(s.Attributes, hcl.AttributeSchema{Name: name, Required: required})
	}
	for _, name := range slices.Sorted(maps.Keys(f.blocks)) {
		elem, _, _ := blockElem(t.Field(f.blocks[name]).Type)
		if elem.Kind() != reflect.Struct {
			panic(fmt.Sprintf("hcldecode: block %q needs a struct, not %s", name, elem))
		}
		var labels []string
		for _, l := range fieldsOf(elem).labels {
			labels = append(labels, l.name)
		}
		s.Blocks = append(s.Blocks, hcl.BlockHeaderSchema{Type: name, LabelNames: labels})
	}
	return s
}

// decodeBody decodes body into v, whose tags f describes.
func decodeBody(body hcl.Body, v reflect.Value, f *fields) hcl.Diagnostics {
	content, diags := body.Content(schemaOf(v.Type(), f))
	if content == nil {
		return diags
	}
	for _, name := range slices.Sorted(maps.Keys(f.attrs)) {
		field := v.Field(f.attrs[name])
		attr := content.Attributes[name]
		if attr == nil {
			if field.Type().AssignableTo(exprType) {
				// Absent: a null the caller can test in cty's terms.
				field.Set(reflect.ValueOf(hcl.StaticExpr(cty.NullVal(cty.DynamicPseudoType), body.MissingItemRange())))
			}
			continue
		}
		setRange(v, f.attrRange, name, attr.Range)
		setRange(v, f.nameRange, name, attr.NameRange)
		setRange(v, f.valueRange, name, attr.Expr.Range())
		switch {
		case attrType.AssignableTo(field.Type()):
			field.Set(reflect.ValueOf(attr))
		case exprType.AssignableTo(field.Type()):
			field.Set(reflect.ValueOf(attr.Expr))
		default:
			diags = append(diags, Expression(attr.Expr, field.Addr().Interface())...)
		}
	}
	byType := content.Blocks.ByType()
	for _, name := range slices.Sorted(maps.Keys(f.blocks)) {
		diags = append(diags, decodeBlocks(body, v, f.blocks[name], name, byType[name])...)
	}
	return diags
}

func setRange(v reflect.Value, where map[string]int, name string, r hcl.Range) {
	if i, ok := where[name]; ok {
		v.Field(i).Set(reflect.ValueOf(r))
	}
}

// decodeBlocks decodes the blocks of one type into field i of v.
func decodeBlocks(body hcl.Body, v reflect.Value, i int, name string, blocks hcl.Blocks) hcl.Diagnostics {
	field := v.Field(i)
	elem, slice, ptr := blockElem(field.Type())
	switch {
	case len(blocks) > 1 && !slice:
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("Duplicate %s block", name),
			Detail:   fmt.Sprintf("Only one %s block is allowed. Another was defined at %s.", name, blocks[0].DefRange.String()),
			Subject:  &blocks[1].DefRange,
		}}
	case len(blocks) == 0 && (slice || ptr):
		return nil
	case len(blocks) == 0:
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("Missing %s block", name),
			Detail:   fmt.Sprintf("A %s block is required.", name),
			Subject:  body.MissingItemRange().Ptr(),
		}}
	}
	var diags hcl.Diagnostics
	one := func(b *hcl.Block) reflect.Value {
		target := reflect.New(elem)
		diags = append(diags, decodeBlock(b, target.Elem())...)
		if ptr {
			return target
		}
		return target.Elem()
	}
	if !slice {
		field.Set(one(blocks[0]))
		return diags
	}
	list := reflect.MakeSlice(field.Type(), 0, len(blocks))
	for _, b := range blocks {
		list = reflect.Append(list, one(b))
	}
	field.Set(list)
	return diags
}

func decodeBlock(b *hcl.Block, v reflect.Value) hcl.Diagnostics {
	f := fieldsOf(v.Type())
	diags := decodeBody(b.Body, v, f)
	for i, l := range f.labels {
		if i >= len(b.Labels) {
			break
		}
		v.Field(l.field).SetString(b.Labels[i])
		setRange(v, f.labelRange, l.name, b.LabelRanges[i])
	}
	if f.typeRange >= 0 {
		v.Field(f.typeRange).Set(reflect.ValueOf(b.TypeRange))
	}
	if f.defRange >= 0 {
		v.Field(f.defRange).Set(reflect.ValueOf(b.DefRange))
	}
	return diags
}

// Expression evaluates expr with no context and stores its value in the
// Go value ptr points to, converted as gocty converts it.
func Expression(expr hcl.Expression, ptr any) hcl.Diagnostics {
	val, diags := expr.Value(nil)
	ty, err := gocty.ImpliedType(ptr)
	if err != nil {
		panic(fmt.Sprintf("hcldecode: cannot decode into %T: %s", ptr, err))
	}
	if val, err = convert.Convert(val, ty); err == nil {
		err = gocty.FromCtyValue(val, ptr)
	}
	if err != nil {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unsuitable value type",
			Detail:   fmt.Sprintf("Unsuitable value: %s", err.Error()),
			Subject:  expr.StartRange().Ptr(),
			Context:  expr.Range().Ptr(),
		})
	}
	return diags
}
