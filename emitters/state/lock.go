package state

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// LockFileName is the advisory lock file inside the state directory.
const LockFileName = "lock"

// ErrLocked means another mcpsync process holds the lock.
var ErrLocked = errors.New("another mcpsync is writing (the state directory is locked)")

// A Lock is an advisory, exclusive lock on a state directory, held by one
// process from Lock until Unlock. The operating system drops it when the
// process dies, so a crash never leaves a stale lock behind.
type Lock struct {
	f *os.File
}

// Acquire takes the lock on dir, waiting up to wait for another process to
// let go. The directory is created (0700) if needed.
func Acquire(dir string, wait time.Duration) (*Lock, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("%s: cannot create mcpsync's state directory: %w", dir, err)
	}
	path := filepath.Join(dir, LockFileName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot open the lock file: %w", path, err)
	}
	deadline := time.Now().Add(wait)
	for {
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: cannot lock: %w", path, err)
		}
		if ok {
			return &Lock{f: f}, nil
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("%s: %w; wait for it to finish and run the command again", path, ErrLocked)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Unlock releases the lock. It is safe to call on a nil Lock and more than once.
func (l *Lock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := unlock(l.f)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	return err
}
