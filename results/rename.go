package results

import (
	"errors"
	"io/fs"
	"os"
)

// renameChecked renames from to to if to does not exist. Between the check
// and the rename another process could create to; rename(2) then still
// refuses to replace a directory that is not empty.
func renameChecked(from, to string) error {
	if _, err := os.Lstat(to); err == nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: fs.ErrExist}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return os.Rename(from, to)
}
