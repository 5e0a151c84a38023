package main

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/durabench/durabench/internal/units"
	"github.com/durabench/durabench/runner"
	"github.com/durabench/durabench/syscalls"
	"github.com/spf13/pflag"
)

// Every list flag is a listValue: pflag calls Set with the whole
// comma-separated text, the list's parser (runner.ParseList underneath, so
// one error style) refuses a bad item, and pflag reports it as
// `invalid argument "X" for "--flag" flag: ...`, refused input (exit 2)
// before any file is touched.

// listValue is a comma-separated list flag of T, as a pflag.Value.
type listValue[T any] struct {
	dst   *[]T
	text  string
	parse func(csv string) ([]T, error)
}

// Set parses csv into the list, replacing any value it had.
func (v *listValue[T]) Set(csv string) error {
	l, err := v.parse(csv)
	if err != nil {
		return err
	}
	*v.dst, v.text = l, csv
	return nil
}

// String returns the list as given.
func (v *listValue[T]) String() string { return v.text }

// Type names the value in --help.
func (v *listValue[T]) Type() string { return "list" }

// listVar defines a list flag name that parses into dst with parse; def is
// its default as a user would type it ("" for none: dst stays nil unless
// the flag is given). A default parse refuses is a programming error.
func listVar[T any](fs *pflag.FlagSet, dst *[]T, name, def, usage string, parse func(string) ([]T, error)) {
	v := &listValue[T]{dst: dst, parse: parse}
	if def != "" {
		if err := v.Set(def); err != nil {
			panic(fmt.Sprintf("durabench: default of --%s: %v", name, err))
		}
	}
	fs.Var(v, name, usage)
}

// The parsers of the lists that several commands take.
var (
	parseSizes   = func(csv string) ([]int64, error) { return runner.ParseList(csv, "size", "", units.ParseSize) }
	parseMethods = func(csv string) ([]syscalls.Method, error) {
		return runner.ParseList(csv, "sync method", "use one or more of "+strings.Join(syscalls.MethodNames(), ", "), syscalls.ParseMethod)
	}
	parseCounts = func(csv string) ([]int, error) { return runner.ParseList(csv, "count", "use e.g. 1,2,4", parseCount) }
)

// parseCount parses one whole number.
func parseCount(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a whole number", s)
	}
	return n, nil
}

// refuse turns a runner's configuration error into refused input that
// names the flags behind it: each field of a *runner.ConfigError becomes
// the flag of fs that sets it, found by kebab-casing the field name
// ("SyncEvery" is --sync-every) unless renamed lists it ("FileSize":
// "stream-size"). Other errors are refused as they are.
func refuse(err error, fs *pflag.FlagSet, renamed map[string]string) error {
	if err == nil {
		return nil
	}
	fields, msg, ok := runner.FieldsOf(err)
	if !ok {
		return asUsage(err)
	}
	var flags []string
	for _, f := range fields {
		name, ok := renamed[f]
		if !ok {
			name = kebab(f)
		}
		if fs.Lookup(name) != nil {
			flags = append(flags, "--"+name)
		}
	}
	if len(flags) == 0 {
		return asUsage(err)
	}
	return usageErrorf("%s: %s", strings.Join(flags, ", "), msg)
}

// kebab turns a Go field name into a flag name: "MaxCaseBytes" is
// "max-case-bytes".
func kebab(field string) string {
	var b strings.Builder
	for i, r := range field {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('-')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
