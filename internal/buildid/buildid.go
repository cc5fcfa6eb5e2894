// Package buildid names the running build of mcpsync, for what is kept
// between runs and valid only for the code that made it (a parse cache
// entry, the encoding an entry was written with).
package buildid

import (
	"fmt"
	"os"
	"sync"
)

// ID names this build: the executable's path, size and modification time.
// A new build, even one of the same version, is another ID.
var ID = sync.OnceValue(func() []byte {
	exe, err := os.Executable()
	if err != nil {
		return []byte("unknown")
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return []byte(exe)
	}
	return fmt.Appendf(nil, "%s\x00%d\x00%d", exe, fi.Size(), fi.ModTime().UnixNano())
})
