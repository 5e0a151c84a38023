package neighbor

// Steps is the number of lines RunBacklog gives its progress function: one
// per trial of every cell.
func (c BacklogConfig) Steps() int { return len(BacklogSchedule(c.Backlogs, c.Methods, c.Trials)) }

// Steps is the number of lines RunStream gives its progress function: one
// per pass of every cell.
func (c StreamConfig) Steps() int { return len(StreamSchedule(c.Rates, c.Methods, c.Passes)) }
