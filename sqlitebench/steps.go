package sqlitebench

// Steps is the number of lines Run gives its progress function: one per
// engine for its defaults, then one per case and round.
func (c Config) Steps() int { return len(c.Engines) + c.Rounds*len(c.cases()) }

// CountSteps is the number of lines CountAll gives its progress function.
func (c Config) CountSteps() int { return len(c.cases()) }

// Cases is the number of cases (cells of the matrix) Run measures.
func (c Config) Cases() int { return len(c.cases()) }
