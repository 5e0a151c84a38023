package wal

// Metrics count a writer's work since it was opened.
type Metrics struct {
	Records           uint64 // records framed
	PayloadBytes      int64  // their payload bytes
	Writes            uint64 // write calls
	WrittenBytes      int64  // bytes those calls wrote: headers, padding and rewritten tail blocks included
	Syncs             uint64 // sync calls
	SyncedRecords     uint64 // records made durable by them: the sum of the group sizes
	MaxRecordsPerSync uint64 // the largest group one sync made durable
	Rotations         int    // segments started after the first
	PendingBytes      int64  // bytes framed and not yet written, when Metrics was called
}

// RecordsPerSync returns the mean group size: records made durable per sync.
func (m Metrics) RecordsPerSync() float64 { return ratio(float64(m.SyncedRecords), float64(m.Syncs)) }

// BytesPerSync returns the bytes written per sync.
func (m Metrics) BytesPerSync() float64 { return ratio(float64(m.WrittenBytes), float64(m.Syncs)) }

// WriteAmplification returns the bytes written per payload byte: framing,
// padding and, with direct I/O, rewritten partial blocks make it exceed 1.
func (m Metrics) WriteAmplification() float64 {
	return ratio(float64(m.WrittenBytes), float64(m.PayloadBytes))
}

// Since returns the counts of the work done after prev was taken.
// MaxRecordsPerSync and PendingBytes, which are not counts, are m's.
func (m Metrics) Since(prev Metrics) Metrics {
	return Metrics{
		Records:           m.Records - prev.Records,
		PayloadBytes:      m.PayloadBytes - prev.PayloadBytes,
		Writes:            m.Writes - prev.Writes,
		WrittenBytes:      m.WrittenBytes - prev.WrittenBytes,
		Syncs:             m.Syncs - prev.Syncs,
		SyncedRecords:     m.SyncedRecords - prev.SyncedRecords,
		MaxRecordsPerSync: m.MaxRecordsPerSync,
		Rotations:         m.Rotations - prev.Rotations,
		PendingBytes:      m.PendingBytes,
	}
}

// ratio returns a/b, or 0 when b is 0.
func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// Plus returns the sums of m's and o's counts, the larger of their largest
// groups, and no pending bytes: the total of several runs' work.
func (m Metrics) Plus(o Metrics) Metrics {
	return Metrics{
		Records:           m.Records + o.Records,
		PayloadBytes:      m.PayloadBytes + o.PayloadBytes,
		Writes:            m.Writes + o.Writes,
		WrittenBytes:      m.WrittenBytes + o.WrittenBytes,
		Syncs:             m.Syncs + o.Syncs,
		SyncedRecords:     m.SyncedRecords + o.SyncedRecords,
		MaxRecordsPerSync: max(m.MaxRecordsPerSync, o.MaxRecordsPerSync),
		Rotations:         m.Rotations + o.Rotations,
	}
}
