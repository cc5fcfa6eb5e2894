package interop_test

import (
	"os"
	"testing"
)

// interopOff says why the real-client checks do not run, or "" when they
// do. They run by default, so that `go test ./...` is the whole suite; -short
// and MCPSYNC_INTEROP=0 turn them off for a quick local run.
func interopOff() string {
	if testing.Short() {
		return "SKIP: -short skips installing the real clients from npm"
	}
	if os.Getenv("MCPSYNC_INTEROP") == "0" {
		return "SKIP: MCPSYNC_INTEROP=0 skips installing the real clients from npm"
	}
	return ""
}
