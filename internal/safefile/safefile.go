// Package safefile is the one way mcpsync opens a file it reads or writes
// for a client, a store or a pasted config: a file that came with a
// cloned repository is untrusted content, and so is a link in it.
//
// Every read refuses what is not a regular file (a FIFO would block, a
// device such as /dev/zero never ends) before reading a byte, and stops at
// MaxSize. A file inside a root (a project's directory, for its
// project-scope files and its mcpsync.hcl) is opened beneath that root
// only: a link, at any component, that leads out of it is refused with an
// error naming the link and its target (LinkOutError), and a write is made
// by creating the temporary file and renaming it through the same handle on
// the root (os.Root, openat2 RESOLVE_BENEATH where the kernel has it), so
// that what was checked is what is replaced, even when a link is swapped
// in between. Links that stay inside the root are followed. A file with no
// root (the user's own files) is opened as the user's links say: dotfile
// managers link them on purpose.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/mcpsync/mcpsync/internal/atomicfile"
	"github.com/mcpsync/mcpsync/internal/hugeheap"
)

// MaxSize is the most bytes mcpsync reads from one config file: far more
// than any real one holds, and a bound on what a link to a huge file costs.
const MaxSize = 32 << 20

// LinkOutError is a path under a root whose link leads out of the root.
type LinkOutError struct {
	Path   string // the file asked for
	Link   string // the component that is a link
	Target string // what the link points at, as written
	Root   string
}

func (e *LinkOutError) Error() string {
	return fmt.Sprintf("%s is a link to %s, outside %s: mcpsync does not follow a project's links out of it "+
		"(a cloned repository could point them at your own files); replace the link with a file", e.Link, e.Target, e.Root)
}

// NotRegularError is a path that is not a regular file.
type NotRegularError struct {
	Path string
	Type fs.FileMode
}

func (e *NotRegularError) Error() string {
	kind := "not a regular file"
	switch {
	case e.Type&fs.ModeNamedPipe != 0:
		kind = "a named pipe (FIFO), not a file"
	case e.Type&fs.ModeDevice != 0 || e.Type&fs.ModeCharDevice != 0:
		kind = "a device, not a file"
	case e.Type&fs.ModeSocket != 0:
		kind = "a socket, not a file"
	case e.Type.IsDir():
		kind = "a directory, not a file"
	}
	return fmt.Sprintf("%s is %s; mcpsync reads and writes only regular files", e.Path, kind)
}

// TooLargeError is a file over MaxSize.
type TooLargeError struct{ Path string }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %d MiB; it is not a config file mcpsync reads", e.Path, MaxSize>>20)
}

// Within reports whether path is root itself or beneath it (lexically),
// and the path relative to root.
func Within(root, path string) (string, bool) {
	rel, err := filepath.Rel(filepath.Clean(root), filepath.Clean(path))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return rel, true
}

// ReadFile reads the file at path, beneath root when root is not "", and
// returns its bytes and mode. A file that does not exist is an error that
// errors.Is(err, fs.ErrNotExist) reports.
func ReadFile(path, root string) ([]byte, fs.FileMode, error) {
	var f *os.File
	var err error
	if root == "" {
		f, err = os.OpenFile(path, os.O_RDONLY|openNonblock, 0)
	} else {
		var r *os.Root
		var rel string
		if r, rel, err = openRoot(root, path); err != nil {
			return nil, 0, err
		}
		defer r.Close()
		if f, err = r.OpenFile(rel, os.O_RDONLY|openNonblock, 0); err != nil {
			err = explain(root, path, err)
		}
	}
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, &NotRegularError{Path: path, Type: fi.Mode().Type()}
	}
	if fi.Size() > MaxSize {
		return nil, 0, &TooLargeError{Path: path}
	}
	// A large input is what makes a reporting command's heap large; it
	// marks that heap for huge pages before the heap grows (hugeheap).
	hugeheap.InputFile(path, fi.Size())
	data, err := readAll(f, fi.Size())
	if err != nil {
		return nil, 0, err
	}
	if len(data) > MaxSize {
		return nil, 0, &TooLargeError{Path: path}
	}
	return data, fi.Mode().Perm(), nil
}

// readAll reads f to its end, or to a byte past MaxSize, into a buffer of
// the size Stat gave and a byte more (to see the end at once), as
// os.ReadFile does. io.ReadAll starts at 512 bytes and doubles: it read a
// store of 6 KB in nine calls, and a client's file of 1.7 MB (10,000
// servers) in a dozen, copying it each time. A file that grew since, or
// one Stat has no size for (in /proc), is read on into a larger buffer.
func readAll(f *os.File, size int64) ([]byte, error) {
	data := make([]byte, 0, size+1)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
		if len(data) > MaxSize {
			return data, nil
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}

// Stat reports on the file at path, beneath root when root is not "":
// what a read would open, without reading it.
func Stat(path, root string) (fs.FileInfo, error) {
	if root == "" {
		return os.Stat(path)
	}
	r, rel, err := openRoot(root, path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	fi, err := r.Stat(rel)
	if err != nil {
		return nil, explain(root, path, err)
	}
	return fi, nil
}

// Resolve returns the file a write of path replaces: through every link
// when root is "" (atomicfile.Resolve), else through the links that stay
// beneath root, refusing one that leaves it.
func Resolve(path, root string) (string, error) {
	if root == "" {
		return atomicfile.Resolve(path)
	}
	r, rel, err := openRoot(root, path)
	if err != nil {
		return "", err
	}
	defer r.Close()
	real, err := resolveIn(r, root, path, rel)
	if err != nil {
		return "", err
	}
	return filepath.Join(root, real), nil
}

// WriteFile atomically replaces the file at path with data: beneath root
// when root is not "" (see the package doc), else as atomicfile.WriteFile
// does. newPerm is the mode of a new file; an existing one keeps its mode.
func WriteFile(path, root string, data []byte, newPerm fs.FileMode) error {
	s, err := Stage(path, root, data, newPerm)
	if err != nil {
		return err
	}
	return s.Finish()
}

// Stage is the first half of WriteFile (atomicfile.Stage): data synced to
// a temporary file beside the file at path, beneath root when root is not
// "", and its missing directories made; nothing is replaced until Commit.
// The write holds the root open until Close, for its directories' syncs.
func Stage(path, root string, data []byte, newPerm fs.FileMode) (*atomicfile.Staged, error) {
	if root == "" {
		return atomicfile.Stage(path, newPerm, bytesWriter(data))
	}
	r, rel, err := openRoot(root, path)
	if err != nil {
		return nil, err
	}
	s, err := stageIn(r, root, path, rel, data, newPerm)
	if err != nil {
		r.Close()
		return nil, err
	}
	return s, nil
}

// bytesWriter writes data.
func bytesWriter(data []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}
}

func stageIn(r *os.Root, root, path, rel string, data []byte, newPerm fs.FileMode) (*atomicfile.Staged, error) {
	rel, err := resolveIn(r, root, path, rel)
	if err != nil {
		return nil, err
	}
	perm := newPerm
	if fi, err := r.Stat(rel); err == nil {
		if !fi.Mode().IsRegular() {
			return nil, &NotRegularError{Path: path, Type: fi.Mode().Type()}
		}
		perm = fi.Mode().Perm()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, explain(root, path, err)
	}
	dirSync := func(d string) atomicfile.DirSync {
		return atomicfile.NewDirSync(filepath.Join(root, d), func() { syncDir(r, d) })
	}
	dir := filepath.Dir(rel)
	var syncs []atomicfile.DirSync
	if err := atomicfile.MkdirAllIn(r, dir, 0o700, func(d string) { syncs = append(syncs, dirSync(d)) }); err != nil {
		return nil, explain(root, path, err)
	}
	atomicfile.CleanStale(filepath.Join(root, rel))
	tmp, tmpRel, err := createTemp(r, rel)
	if err != nil {
		return nil, explain(root, path, err)
	}
	if err := atomicfile.Fill(tmp, perm, bytesWriter(data)); err != nil {
		r.Remove(tmpRel)
		return nil, err
	}
	commit := func() error {
		if err := atomicfile.Replace(path, func() error { return r.Rename(tmpRel, rel) }); err != nil {
			return explain(root, path, err)
		}
		return nil
	}
	return atomicfile.NewStaged(filepath.Join(root, rel), commit, func() { r.Remove(tmpRel) },
		append(syncs, dirSync(dir)), func() { r.Close() }), nil
}

// syncDir makes a rename or a new entry in dir (beneath r) durable; errors
// are ignored, as atomicfile's are. A variable, for the tests to see which
// directories are synced.
var syncDir = func(r *os.Root, dir string) {
	if runtime.GOOS == "windows" {
		return
	}
	if d, err := r.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// Remove removes the file at path, beneath root when root is not "" (the
// link itself when path is one, never what it points at outside).
func Remove(path, root string) error {
	if root == "" {
		return os.Remove(path)
	}
	r, rel, err := openRoot(root, path)
	if err != nil {
		return err
	}
	defer r.Close()
	if err := r.Remove(rel); err != nil {
		return explain(root, path, err)
	}
	return nil
}

// Chmod changes the mode of the file at path, beneath root when root is not
// "" (refusing a link out of it).
func Chmod(path, root string, mode fs.FileMode) error {
	if root == "" {
		return os.Chmod(path, mode)
	}
	if _, err := Resolve(path, root); err != nil {
		return err
	}
	r, rel, err := openRoot(root, path)
	if err != nil {
		return err
	}
	defer r.Close()
	if err := r.Chmod(rel, mode); err != nil {
		return explain(root, path, err)
	}
	return nil
}

func openRoot(root, path string) (*os.Root, string, error) {
	rel, ok := Within(root, path)
	if !ok {
		return nil, "", fmt.Errorf("%s is outside %s; mcpsync reads a project's files only inside the project", path, root)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, "", err
	}
	return r, rel, nil
}

// resolveIn follows the links of rel's last component, and of every
// directory on the way, for as long as they stay beneath the root, and
// returns the path (relative to the root) a write replaces. A dangling link
// resolves to where it points, so that writing creates its target.
func resolveIn(r *os.Root, root, path, rel string) (string, error) {
	for range 40 {
		dir, err := realDir(r, root, path, filepath.Dir(rel))
		if err != nil {
			return "", err
		}
		rel = filepath.Join(dir, filepath.Base(rel))
		fi, err := r.Lstat(rel)
		if errors.Is(err, fs.ErrNotExist) {
			return rel, nil
		}
		if err != nil {
			return "", explain(root, path, err)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return rel, nil
		}
		target, err := r.Readlink(rel)
		if err != nil {
			return "", err
		}
		next := filepath.Join(filepath.Dir(rel), target)
		if filepath.IsAbs(target) || !local(next) {
			return "", &LinkOutError{Path: path, Link: filepath.Join(root, rel), Target: target, Root: root}
		}
		rel = next
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

// realDir resolves the directory dir (relative to the root) through the
// links on its way, refusing one that leaves the root; a directory that
// does not exist yet is returned as it is.
func realDir(r *os.Root, root, path, dir string) (string, error) {
	if dir == "." {
		return dir, nil
	}
	out := "."
	for _, part := range strings.Split(dir, string(filepath.Separator)) {
		next := filepath.Join(out, part)
		for range 40 {
			fi, err := r.Lstat(next)
			if errors.Is(err, fs.ErrNotExist) {
				break
			}
			if err != nil {
				return "", explain(root, path, err)
			}
			if fi.Mode()&fs.ModeSymlink == 0 {
				break
			}
			target, err := r.Readlink(next)
			if err != nil {
				return "", err
			}
			resolved := filepath.Join(filepath.Dir(next), target)
			if filepath.IsAbs(target) || !local(resolved) {
				return "", &LinkOutError{Path: path, Link: filepath.Join(root, next), Target: target, Root: root}
			}
			next = resolved
		}
		out = next
	}
	return out, nil
}

// local reports whether a cleaned relative path stays beneath its base.
func local(rel string) bool {
	rel = filepath.Clean(rel)
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// explain turns os.Root's refusal of an escape (or a not-found through
// a link it would not follow) into a LinkOutError that names the link, when
// one is found on the way.
func explain(root, path string, err error) error {
	if rel, ok := Within(root, path); ok {
		if le := findLinkOut(root, path, rel); le != nil {
			return le
		}
	}
	return err
}

// findLinkOut walks rel's components from the root and returns the first
// link that leads out of it (or is absolute, which os.Root refuses).
func findLinkOut(root, path, rel string) *LinkOutError {
	cur := "."
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		next := filepath.Join(cur, part)
		full := filepath.Join(root, next)
		fi, err := os.Lstat(full)
		if err != nil {
			return nil
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(full)
			if err != nil {
				return nil
			}
			if filepath.IsAbs(target) || !local(filepath.Join(cur, target)) {
				return &LinkOutError{Path: path, Link: full, Target: target, Root: root}
			}
			next = filepath.Join(cur, target)
		}
		cur = next
	}
	return nil
}

// createTemp creates a new temporary file next to rel beneath the root,
// named as atomicfile names its own (so that CleanStale finds one a killed
// writer left).
func createTemp(r *os.Root, rel string) (*os.File, string, error) {
	prefix := filepath.Join(filepath.Dir(rel), "."+filepath.Base(rel)+".mcpsync-"+strconv.Itoa(os.Getpid())+"-")
	for range 100 {
		name := prefix + strconv.FormatUint(rand.Uint64(), 36)
		f, err := r.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, name, err
	}
	return nil, "", fmt.Errorf("%s: cannot create a temporary file", rel)
}
