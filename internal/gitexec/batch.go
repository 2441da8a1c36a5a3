package gitexec

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
)

// Batch reads objects through one long-lived `git cat-file --batch`
// process run as Command runs git (the one object reader of polynfi: the
// NFI driver's revisions, mine's histories and retrieval's sources use
// it). Not safe for concurrent use; Close it.
type Batch struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

// Object is one object Batch read: its ID, its type (blob, tree, commit,
// tag) and its size in bytes; Data is its content unless the read asked
// for none or the object was over the limit.
type Object struct {
	ID, Type string
	Size     int
	Data     []byte
}

// NewBatch starts `git cat-file --batch` in dir; its standard error is
// discarded. Cancelling ctx kills it.
func NewBatch(ctx context.Context, dir string) (*Batch, error) {
	cmd, err := Command(ctx, dir, nil, "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start git cat-file in %s: %w", dir, err)
	}
	return &Batch{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<16)}, nil
}

// Read asks for the object name names (an ID, or REV:PATH, or
// REV^{commit}: git's revision syntax) and returns it; ok is false when
// git has no such object, the name is ambiguous, or it holds a line
// break (which the batch protocol cannot carry). Without content, or when
// the object is larger than limit bytes (limit > 0), its bytes are read
// and dropped: Data is nil, Size is set. An error is a broken protocol
// (the process died, a header not as git-cat-file(1) gives it): the
// Batch is unusable after it.
func (b *Batch) Read(name string, content bool, limit int) (obj Object, ok bool, err error) {
	if strings.ContainsAny(name, "\n\r") {
		return Object{}, false, nil
	}
	if _, err := io.WriteString(b.in, name+"\n"); err != nil {
		return Object{}, false, fmt.Errorf("git cat-file: write %s: %w", name, err)
	}
	hdr, err := b.out.ReadString('\n')
	if err != nil {
		return Object{}, false, fmt.Errorf("git cat-file: read the header of %s: %w", name, err)
	}
	f := strings.Fields(hdr)
	if len(f) >= 2 && (f[len(f)-1] == "missing" || f[len(f)-1] == "ambiguous") {
		return Object{}, false, nil
	}
	if len(f) != 3 {
		return Object{}, false, fmt.Errorf("git cat-file %s: unexpected header %q", name, strings.TrimSpace(hdr))
	}
	n, err := strconv.Atoi(f[2])
	if err != nil || n < 0 {
		return Object{}, false, fmt.Errorf("git cat-file %s: bad size %q", name, f[2])
	}
	obj = Object{ID: f[0], Type: f[1], Size: n}
	if !content || (limit > 0 && n > limit) {
		// the content and the trailing newline
		if _, err := io.CopyN(io.Discard, b.out, int64(n)+1); err != nil {
			return Object{}, false, fmt.Errorf("git cat-file %s: %w", name, err)
		}
		return obj, true, nil
	}
	data := make([]byte, n+1)
	if _, err := io.ReadFull(b.out, data); err != nil {
		return Object{}, false, fmt.Errorf("git cat-file %s: %w", name, err)
	}
	obj.Data = data[:n]
	return obj, true, nil
}

// Close ends the git process and returns its exit error, if any.
func (b *Batch) Close() error {
	b.in.Close()
	return b.cmd.Wait()
}

// HasCommit says whether the repository in dir holds commit (any
// revision naming a commit); err is a failure to run git, not its
// answer.
func HasCommit(ctx context.Context, dir, commit string) (bool, error) {
	cmd, err := Command(ctx, dir, nil, "cat-file", "-e", commit+"^{commit}")
	if err != nil {
		return false, err
	}
	err = cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return false, nil
	}
	return err == nil, err
}
