package units

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
)

// Invariants: every size, count and product that durabench derives from a
// flag goes through Mul or Add (or a Calc), which refuse negative operands
// and results past math.MaxInt64 instead of wrapping, and whose errors carry
// the true figure (computed exactly), so that no limit check can be passed by
// a number that wrapped to a small one.

// ErrOverflow is wrapped by every error Mul, Add and Calc return for a result
// that does not fit in an int64.
var ErrOverflow = errors.New("too large to compute")

// ErrNegative is wrapped by every error Mul, Add and Calc return for a
// negative operand.
var ErrNegative = errors.New("negative operand")

// Mul returns the product of xs, none of them negative. The error wraps
// ErrOverflow, with the exact product, if it passes math.MaxInt64. A zero
// factor makes the product 0; the product of nothing is 1.
func Mul(xs ...int64) (int64, error) {
	zero := false
	for _, x := range xs {
		if x < 0 {
			return 0, fmt.Errorf("%w: %d", ErrNegative, x)
		}
		zero = zero || x == 0
	}
	if zero {
		return 0, nil
	}
	p := int64(1)
	for _, x := range xs {
		if p > math.MaxInt64/x {
			return 0, overflow("×", xs)
		}
		p *= x
	}
	return p, nil
}

// Add returns the sum of xs, none of them negative. The error wraps
// ErrOverflow, with the exact sum, if it passes math.MaxInt64.
func Add(xs ...int64) (int64, error) {
	var s int64
	for _, x := range xs {
		if x < 0 {
			return 0, fmt.Errorf("%w: %d", ErrNegative, x)
		}
		if s > math.MaxInt64-x {
			return 0, overflow("+", xs)
		}
		s += x
	}
	return s, nil
}

// overflow says what xs come to under op, exactly.
func overflow(op string, xs []int64) error {
	exact := big.NewInt(1)
	if op == "+" {
		exact.SetInt64(0)
	}
	terms := make([]string, len(xs))
	for i, x := range xs {
		terms[i] = fmt.Sprint(x)
		if op == "+" {
			exact.Add(exact, big.NewInt(x))
		} else {
			exact.Mul(exact, big.NewInt(x))
		}
	}
	return fmt.Errorf("%w: %s = %s (%s), past the largest figure this tool handles, %d (8 EiB)",
		ErrOverflow, strings.Join(terms, " "+op+" "), exact, HumanBig(exact), int64(math.MaxInt64))
}

// Calc chains checked arithmetic: the first overflow or negative operand
// sticks, later steps do nothing, and Result returns it. The zero value
// holds 0.
type Calc struct {
	n   int64
	err error
}

// Of starts a Calc at n (which must not be negative).
func Of(n int64) *Calc {
	if n < 0 {
		return &Calc{err: fmt.Errorf("%w: %d", ErrNegative, n)}
	}
	return &Calc{n: n}
}

// Mul multiplies the value by xs.
func (c *Calc) Mul(xs ...int64) *Calc {
	if c.err == nil {
		c.n, c.err = Mul(append([]int64{c.n}, xs...)...)
	}
	return c
}

// Add adds xs to the value.
func (c *Calc) Add(xs ...int64) *Calc {
	if c.err == nil {
		c.n, c.err = Add(append([]int64{c.n}, xs...)...)
	}
	return c
}

// Result returns the value, or the first error.
func (c *Calc) Result() (int64, error) { return c.n, c.err }

// Saturate returns n, or math.MaxInt64 if computing it failed (err from
// Mul, Add or Result): a figure that only has to compare as too large,
// where the true one was refused with its error already.
func Saturate(n int64, err error) int64 {
	if err != nil {
		return math.MaxInt64
	}
	return n
}

// Human prints a byte count readably with a binary unit, one decimal:
// "64.0 MiB", "9.0 EiB", "512 bytes".
func Human(n int64) string { return HumanBig(big.NewInt(n)) }

// HumanBig is Human for a count that may be past int64.
func HumanBig(n *big.Int) string {
	if n.Sign() >= 0 && n.Cmp(big.NewInt(1024)) < 0 {
		return n.String() + " bytes"
	}
	f, _ := new(big.Float).SetInt(n).Float64()
	for _, u := range []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"} {
		f /= 1024
		if math.Abs(f) < 1024 || u == "YiB" {
			return fmt.Sprintf("%.1f %s", f, u)
		}
	}
	panic("unreachable")
}
