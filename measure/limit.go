package measure

import (
	"errors"
	"fmt"

	"github.com/durabench/durabench/internal/units"
)

// SampleBytes is the memory one sample takes in a Samples buffer: its whole
// interval and its write and sync parts, 8 bytes each.
const SampleBytes = 3 * 8

// MaxBufferBytes bounds the sample buffers one run allocates before its
// clock starts (1 GiB, about 44 million samples): past it a run is refused,
// not started and killed by the OS.
const MaxBufferBytes = 1 << 30

// ErrTooManySamples is wrapped by CheckBuffers' error.
var ErrTooManySamples = errors.New("sample buffers too large")

// CheckBuffers returns an error wrapping ErrTooManySamples, with the true
// figure, unless buffers for samples samples fit in MaxBufferBytes. samples
// is the count the run holds at once, however it was computed (with
// units.Mul, so that it cannot have wrapped).
func CheckBuffers(samples int64) error {
	need, err := units.Mul(samples, SampleBytes)
	if err != nil {
		return fmt.Errorf("%w: %d samples of %d bytes: %w", ErrTooManySamples, samples, SampleBytes, err)
	}
	if need > MaxBufferBytes {
		return fmt.Errorf("%w: %d samples of %d bytes need %s of memory, more than the %s a run may preallocate; measure fewer samples (fewer rounds, iterations or threads)",
			ErrTooManySamples, samples, SampleBytes, units.Human(need), units.Human(MaxBufferBytes))
	}
	return nil
}
