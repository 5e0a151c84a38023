package measure

// Set is the sample buffers of one case: one per thread or writer, each
// preallocated for every round, so that rounds append without allocating and
// a round's samples are those added since its marks.
type Set []*Samples

// NewSet returns n buffers with room for capacity samples each.
func NewSet(n, capacity int) Set {
	s := make(Set, n)
	for i := range s {
		s[i] = NewSamples(capacity)
	}
	return s
}

// Marks returns how many samples each buffer holds now; a round starts by
// taking them.
func (s Set) Marks() []int {
	m := make([]int, len(s))
	for i, b := range s {
		m[i] = b.Len()
	}
	return m
}

// Since returns the samples every buffer gained after marks, pooled: the
// whole intervals and their write and sync parts, element i of each
// belonging to the same sample.
func (s Set) Since(marks []int) (total, write, sync []int64) {
	for i, b := range s {
		total = append(total, b.Total[marks[i]:]...)
		write = append(write, b.Write[marks[i]:]...)
		sync = append(sync, b.Sync[marks[i]:]...)
	}
	return total, write, sync
}

// All returns every sample of every buffer, pooled.
func (s Set) All() (total, write, sync []int64) { return s.Since(make([]int, len(s))) }

// Summary is a stretch of samples in figures: how many, and the statistics
// of the whole intervals and of their write and sync parts.
type Summary struct {
	N                  int
	Total, Write, Sync Stats
}

// SummarizeSince returns the Summary of the samples every buffer gained
// after marks, pooled; nil marks mean all of them.
func (s Set) SummarizeSince(marks []int) Summary {
	if marks == nil {
		marks = make([]int, len(s))
	}
	total, write, sync := s.Since(marks)
	return Summary{N: len(total), Total: Summarize(total), Write: Summarize(write), Sync: Summarize(sync)}
}
