//go:build linux

package syscalls

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// DirectIOAlignment asks the file system what direct I/O on f needs (statx
// STATX_DIOALIGN, Linux 6.1+): the alignment of buffer addresses (mem) and of
// file offsets and lengths (off). It returns zeros when the kernel does not
// say (older kernels); a misaligned write then fails with EINVAL instead.
func DirectIOAlignment(f *File) (mem, off int, err error) {
	var st unix.Statx_t
	err = unix.Statx(f.Fd, "", unix.AT_EMPTY_PATH, unix.STATX_DIOALIGN, &st)
	if errors.Is(err, unix.ENOSYS) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, fmt.Errorf("statx %s: %w", f.Name(), err)
	}
	if st.Mask&unix.STATX_DIOALIGN == 0 {
		return 0, 0, nil
	}
	return int(st.Dio_mem_align), int(st.Dio_offset_align), nil
}
