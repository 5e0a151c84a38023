package syncbench

// Steps is the number of lines Run gives its progress function: one per
// case and round, or per group of interleaved methods and round.
func (c Config) Steps() int {
	n := len(c.cases())
	if c.Order == Interleaved && len(c.Methods) > 0 {
		n /= len(c.Methods)
	}
	return c.Rounds * n
}

// CountSteps is the number of lines CountAll gives its progress function.
func (c Config) CountSteps() int { return len(c.Workloads) * len(c.BlockSizes) * len(c.Methods) }

// Cases is the number of cases (cells of the results) Run measures.
func (c Config) Cases() int { return len(c.cases()) }
