package neighbor

import "testing"

// TestBucketPacesToRate drives the bucket with a fake clock: a writer that
// waits exactly as told writes the burst at once, then one chunk per
// chunk/rate, and never more than burst + rate·t by time t.
func TestBucketPacesToRate(t *testing.T) {
	const rate = 100 << 20 // bytes per second
	b := newBucket(rate, 4*chunk, 0)
	var now, written int64
	var waits []int64
	for range 104 {
		wait := b.take(chunk, now)
		waits = append(waits, wait)
		now += wait
		written += chunk
		if limit := 4*chunk + rate*now/1e9; written > limit {
			t.Fatalf("at %d ns %d bytes written, more than burst + rate·t = %d", now, written, limit)
		}
	}
	for i, w := range waits[:4] {
		if w != 0 {
			t.Errorf("write %d within the burst waited %d ns", i, w)
		}
	}
	perChunk := int64(chunk) * 1e9 / rate // 10 ms at 100 MiB/s
	for i, w := range waits[4:] {
		if w < perChunk-1 || w > perChunk+1 {
			t.Errorf("write %d after the burst waited %d ns, want %d", i+4, w, perChunk)
		}
	}
	// 100 writes after the burst take one second: the rate is kept.
	if now < 1e9-100 || now > 1e9+100 {
		t.Errorf("104 chunks took %d ns, want 1 s", now)
	}
}

// TestBucketLateWriterCatchesUpOnlyTheBurst: a writer that was away for a
// second gets at most the burst at once, not a second's worth.
func TestBucketLateWriterCatchesUpOnlyTheBurst(t *testing.T) {
	b := newBucket(100<<20, 4*chunk, 0)
	for range 4 {
		b.take(chunk, 0)
	}
	free := 0
	for b.take(chunk, 1e9) == 0 {
		free++
		if free > 100 {
			break
		}
	}
	if free != 4 {
		t.Errorf("after a second away, %d chunks went without waiting, want the burst of 4", free)
	}
}
