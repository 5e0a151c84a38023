package walbench

import "slices"

// Steps is the number of lines Run gives its progress function: one per
// case and round.
func (c Config) Steps() int { return c.Rounds * len(c.cases()) }

// CountSteps is the number of lines CountAll gives its progress function:
// one per case with one writer.
func (c Config) CountSteps() int {
	var seen []Case
	for _, cs := range c.cases() {
		cs.Writers = 1
		if !slices.Contains(seen, cs) {
			seen = append(seen, cs)
		}
	}
	return len(seen)
}

// Cases is the number of cases (cells of the results) Run measures.
func (c Config) Cases() int { return len(c.cases()) }
