package wal

import "github.com/durabench/durabench/syscalls"

// batch is a write buffer: the records framed for the next write, preceded
// with direct I/O by the partial block the previous write ended in.
//
// Invariants:
//   - buf starts on an Options.Alignment boundary and its length is a
//     multiple of the alignment, hence of the granule.
//   - base, the file offset of buf[0], is a multiple of the granule.
//   - buf[:carry] is already in the file: the head of the last granule the
//     previous write ended in (carry < granule; always 0 through the page
//     cache). buf[carry:n] are framed records not yet written.
//   - A write covers buf[:n] rounded up to the granule; the bytes past n
//     are zeros, which Replay reads as the end of the log until records
//     overwrite them.
type batch struct {
	buf      []byte
	base     int64
	carry, n int
}

// newBatch returns an empty batch at file offset 0 with size bytes of room.
func newBatch(size, align int) *batch {
	return &batch{buf: syscalls.AlignedBuffer(roundUp(size, align), align)}
}

// pending returns the bytes framed and not yet written.
func (b *batch) pending() int { return b.n - b.carry }

// end returns the file offset just past the last framed byte.
func (b *batch) end() int64 { return b.base + int64(b.n) }

// reserve makes room for size more bytes, written whole granules at a time.
// Only a record larger than the batch limit needs more than newBatch gave;
// the buffer then grows once, keeping its contents.
func (b *batch) reserve(size, gran, align int) {
	need := roundUp(b.n+size, gran)
	if need <= len(b.buf) {
		return
	}
	grown := syscalls.AlignedBuffer(roundUp(need, align), align)
	copy(grown, b.buf[:b.n])
	b.buf = grown
}

// handOff returns what to write, buf[:n] padded with zeros to whole
// granules, and its file offset, and starts next where it ends: at the last
// partial granule, which next carries and the following write rewrites in
// place with the same bytes plus new records.
func (b *batch) handOff(next *batch, gran int) (data []byte, off int64) {
	size := roundUp(b.n, gran)
	clear(b.buf[b.n:size])
	tail := b.n % gran
	next.base = b.base + int64(b.n-tail)
	next.carry = copy(next.buf[:tail], b.buf[b.n-tail:b.n])
	next.n = next.carry
	return b.buf[:size], b.base
}

// reset empties the batch and places it at the start of a new segment.
func (b *batch) reset() { b.base, b.carry, b.n = 0, 0, 0 }

// roundUp rounds n up to a multiple of gran, a power of two or 1.
func roundUp(n, gran int) int { return (n + gran - 1) &^ (gran - 1) }
