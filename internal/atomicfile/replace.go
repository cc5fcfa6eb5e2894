package atomicfile

import (
	"fmt"
	"time"
)

// Replace runs rename, the step that puts a fully written temporary file
// in place of path. Where the system refuses to replace a file another
// program holds open (Windows: a sharing violation while a client has its
// file open), it tries again for a little while, then says which file and
// what to do. The temporary file is complete and synced before: the
// target holds either its old bytes or the new ones, never part of them.
func Replace(path string, rename func() error) error {
	return replace(path, rename, busy, 2*time.Second)
}

func replace(path string, rename func() error, busy func(error) bool, within time.Duration) error {
	wait := 10 * time.Millisecond
	deadline := time.Now().Add(within)
	for {
		err := rename()
		if err == nil || !busy(err) {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("cannot replace %s: another program has it open (most likely the client whose file it is: "+
				"close it, or wait until it has saved, and run the command again); the file is unchanged: %w", path, err)
		}
		time.Sleep(wait)
		wait = min(wait*2, 200*time.Millisecond)
	}
}
