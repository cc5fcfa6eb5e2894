// Package lazyre compiles a regular expression the first time it is used,
// not when the program starts: a package-level regexp.MustCompile runs in
// every command (mcpsync version included), though most commands never
// match it.
package lazyre

import (
	"regexp"
	"sync"
)

// RE is a regular expression compiled on first use.
type RE struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

// New returns src, to be compiled on first use. A src that does not
// compile panics then, as regexp.MustCompile would at start; the tests of
// the package that holds it reach it.
func New(src string) *RE { return &RE{src: src} }

// Get returns the compiled expression.
func (r *RE) Get() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.src) })
	return r.re
}
