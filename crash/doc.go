// Package crash simulates power cuts: from a recorded workload's event log
// it builds the disk states a cut could leave under a persistence model, and
// checks each one.
package crash
