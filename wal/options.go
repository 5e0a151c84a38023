package wal

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/syscalls"
)

// IOMode is how the writer's bytes reach the file.
type IOMode uint8

// The I/O modes.
const (
	// Buffered writes through the page cache; the sync writes it back.
	Buffered IOMode = iota
	// Direct bypasses the page cache: O_DIRECT on Linux, F_NOCACHE on
	// darwin. Every write's offset and length are multiples of the
	// alignment, and the buffer's address is aligned to it.
	Direct
)

var ioModeNames = []string{Buffered: "buffered", Direct: "direct"}

// String returns the mode's flag name.
func (m IOMode) String() string {
	if int(m) < len(ioModeNames) {
		return ioModeNames[m]
	}
	return fmt.Sprintf("iomode(%d)", uint8(m))
}

// ParseIOMode returns the I/O mode named s: "buffered" or "direct".
func ParseIOMode(s string) (IOMode, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	for i, n := range ioModeNames {
		if n == name {
			return IOMode(i), nil
		}
	}
	return 0, fmt.Errorf("I/O mode %q: use buffered or direct", s)
}

// Clock is the time source for MinSyncInterval. Tests inject one that moves
// only when told to.
type Clock interface {
	Now() time.Time
	Sleep(d time.Duration)
}

// systemClock is the monotonic system clock.
type systemClock struct{}

func (systemClock) Now() time.Time        { return time.Now() }
func (systemClock) Sleep(d time.Duration) { time.Sleep(d) }

// Defaults for the zero values of Options.
const (
	DefaultAlignment     = 4096
	DefaultMaxBatchBytes = 1 << 20
	minAlignment         = 512
)

// Options configure a Writer. Dir, SegmentSize and Method are required.
type Options struct {
	// Dir is the log's directory. It must exist and hold no segment.
	Dir string
	// SegmentSize is each segment's capacity in bytes. A record that does
	// not fit in what is left of the segment starts the next one. With
	// Direct I/O it must be a multiple of Alignment.
	SegmentSize int64
	// Layout is the state each new segment is created in: fixtures.Append
	// (empty, grows), Fallocate or Initialized (SegmentSize bytes, fixed).
	Layout fixtures.State
	// Method is the call that makes records durable. It must sync
	// explicitly: fsync or fdatasync, or on darwin barrier or full.
	Method syscalls.Method
	// IOMode is Buffered or Direct.
	IOMode IOMode
	// Alignment is the address alignment of the write buffer and, with
	// Direct I/O, the granule of every write's offset and length: a power
	// of two, at least 512 and at least what the file system asks for
	// direct I/O. 0 means DefaultAlignment.
	Alignment int
	// MaxBatchBytes caps the record bytes one write carries; a larger
	// record is written alone. Callers wait while the batch is full. 0
	// means DefaultMaxBatchBytes.
	MaxBatchBytes int
	// MinSyncInterval, if positive, is the least time between the starts
	// of two syncs. A caller about to sync sooner waits out the rest, and
	// records that arrive meanwhile join its sync.
	MinSyncInterval time.Duration
	// Clock times MinSyncInterval. nil means the system clock.
	Clock Clock

	// wrap, if set, wraps each segment file the writer opens: tests observe
	// writes and inject failures through it.
	wrap func(segmentFile) segmentFile
}

// ErrOptions is wrapped by every error about invalid Options.
var ErrOptions = errors.New("wal: invalid options")

// withDefaults returns o with its zero values replaced by the defaults, or an
// error naming the first invalid option and what to use instead.
func (o Options) withDefaults() (Options, error) {
	bad := func(format string, args ...any) (Options, error) {
		return o, fmt.Errorf("%w: "+format, append([]any{ErrOptions}, args...)...)
	}
	if o.Alignment == 0 {
		o.Alignment = DefaultAlignment
	}
	if o.MaxBatchBytes == 0 {
		o.MaxBatchBytes = DefaultMaxBatchBytes
	}
	if o.Clock == nil {
		o.Clock = systemClock{}
	}
	switch {
	case o.Dir == "":
		return bad("no directory: set Dir to the log's directory")
	case o.Alignment < minAlignment || o.Alignment&(o.Alignment-1) != 0:
		return bad("alignment %d is not a power of two of at least %d: use the device's logical block size, or %d", o.Alignment, minAlignment, DefaultAlignment)
	case o.MaxBatchBytes < 0:
		return bad("max batch bytes %d is negative: use 0 for the default %d", o.MaxBatchBytes, DefaultMaxBatchBytes)
	case o.MinSyncInterval < 0:
		return bad("min sync interval %v is negative: use 0 to sync as soon as asked", o.MinSyncInterval)
	case !o.Method.SyncsExplicitly():
		return bad("sync method %s makes no sync call of its own: use fsync or fdatasync (on darwin also barrier or full)", o.Method)
	case o.Layout > fixtures.Initialized:
		return bad("layout %s: use append, fallocate or initialized", o.Layout)
	case o.IOMode > Direct:
		return bad("I/O mode %s: use buffered or direct", o.IOMode)
	case o.SegmentSize < HeaderSize+FrameAlign:
		return bad("segment size %d cannot hold a record: use at least %d bytes", o.SegmentSize, HeaderSize+FrameAlign)
	case o.IOMode == Direct && o.SegmentSize%int64(o.Alignment) != 0:
		return bad("segment size %d is not a multiple of the alignment %d, so a direct write at its end would pass it: round it to %d",
			o.SegmentSize, o.Alignment, o.SegmentSize/int64(o.Alignment)*int64(o.Alignment))
	}
	return o, nil
}

// granule is the unit of a write's offset and length: the alignment with
// direct I/O, one byte through the page cache.
func (o Options) granule() int {
	if o.IOMode == Direct {
		return o.Alignment
	}
	return 1
}
