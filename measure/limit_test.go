package measure

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckBuffers(t *testing.T) {
	if err := CheckBuffers(MaxBufferBytes / SampleBytes); err != nil {
		t.Errorf("buffers at the bound refused: %v", err)
	}
	err := CheckBuffers(MaxBufferBytes/SampleBytes + 1)
	if !errors.Is(err, ErrTooManySamples) || !strings.Contains(err.Error(), "1.0 GiB") {
		t.Errorf("one sample past the bound: %v", err)
	}
	// 2^62 samples × 24 bytes does not fit in int64: the error must say so,
	// not wrap to a small figure that passes.
	err = CheckBuffers(1 << 62)
	if !errors.Is(err, ErrTooManySamples) || !strings.Contains(err.Error(), "110680464442257309696") {
		t.Errorf("2^62 samples: %v", err)
	}
}
