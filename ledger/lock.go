package ledger

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/internal/atomicfile"
	"github.com/mcpsync/mcpsync/internal/jsonwrite"
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

// Holder is who holds a lock: written into the lock file by the process
// that takes it, so that a process kept waiting can say whom it waits for.
type Holder struct {
	PID     int       `json:"pid"`
	Command string    `json:"command,omitempty"`
	Since   time.Time `json:"since"`
}

func (h Holder) String() string {
	if h.PID == 0 {
		return "another mcpsync"
	}
	s := fmt.Sprintf("mcpsync (pid %d", h.PID)
	if h.Command != "" {
		s += ": " + h.Command
	}
	if !h.Since.IsZero() {
		s += ", since " + h.Since.Local().Format("15:04:05")
	}
	return s + ")"
}

// LockedError says that the lock stayed taken for the whole wait.
type LockedError struct {
	Path   string
	Holder Holder // zero when the holder did not say
	Waited time.Duration
}

func (e *LockedError) Error() string {
	msg := fmt.Sprintf("%s: %s is writing (the state directory is locked)", e.Path, e.Holder)
	if e.Waited > 0 {
		msg += fmt.Sprintf("; waited %s", e.Waited.Round(10*time.Millisecond))
	}
	return msg + "; wait for it to finish and run the command again (a crashed mcpsync never holds the lock: the system drops it)"
}

// Is makes errors.Is(err, ErrLocked) true.
func (e *LockedError) Is(target error) bool { return target == ErrLocked }

// LockOptions tune AcquireWith.
type LockOptions struct {
	// Wait is how long to wait for another process to let go.
	Wait time.Duration
	// Command describes this process to a process kept waiting
	// ("export --to all").
	Command string
	// OnWait, when set, is called once, as soon as the lock is found taken,
	// with whoever holds it.
	OnWait func(Holder)
}

// Acquire takes the lock on dir, waiting up to wait for another process to
// let go. The directory is created (0700) if needed.
func Acquire(dir string, wait time.Duration) (*Lock, error) {
	return AcquireWith(dir, LockOptions{Wait: wait})
}

// AcquireWith takes the lock on dir as Acquire does, records this process
// as the holder, and on a timeout returns a *LockedError naming the holder.
func AcquireWith(dir string, o LockOptions) (*Lock, error) {
	// Made durable with the first durable write in it (the state, a
	// backup: atomicfile.MkdirAllLater), not before the lock is taken: the
	// lock file itself need not outlive a crash.
	if err := atomicfile.MkdirAllLater(dir, 0o700); err != nil {
		return nil, fmt.Errorf("%s: cannot create mcpsync's state directory: %w", dir, err)
	}
	path := filepath.Join(dir, LockFileName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot open the lock file: %w", path, err)
	}
	start := time.Now()
	deadline := start.Add(o.Wait)
	told := false
	for {
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: cannot lock: %w", path, err)
		}
		if ok {
			writeHolder(f, Holder{PID: os.Getpid(), Command: o.Command, Since: time.Now().UTC()})
			return &Lock{f: f}, nil
		}
		if !told && o.OnWait != nil {
			told = true
			o.OnWait(ReadHolder(dir))
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, &LockedError{Path: path, Holder: ReadHolder(dir), Waited: time.Since(start)}
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// writeHolder records h in the lock file. It is best effort: the lock
// works without it, and a reader that finds nothing names no holder.
func writeHolder(f *os.File, h Holder) {
	data, _ := h.appendJSON(nil)
	if f.Truncate(0) == nil {
		f.WriteAt(append(data, '\n'), 0)
	}
}

// appendJSON appends h as json.Marshal writes it (FuzzHolderJSON holds
// that), without encoding/json: its first use builds the encoder of the
// type, and taking the lock is on the way of every command that writes
// (half a millisecond of a 50-server export, before anything else).
func (h Holder) appendJSON(b []byte) ([]byte, error) {
	b = strconv.AppendInt(append(b, `{"pid":`...), int64(h.PID), 10)
	b = jsonwrite.AppendStringField(b, "command", h.Command)
	b, err := appendTime(append(b, `,"since":`...), h.Since)
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// ReadHolder returns who last took the lock on dir: the holder while the
// lock is taken. It is zero when the file says nothing readable.
func ReadHolder(dir string) Holder {
	var h Holder
	data, err := os.ReadFile(filepath.Join(dir, LockFileName))
	if err == nil {
		json.Unmarshal([]byte(strings.TrimSpace(string(data))), &h)
	}
	return h
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
