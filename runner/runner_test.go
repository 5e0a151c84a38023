package runner

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestParseList(t *testing.T) {
	atoi := func(s string) (int, error) {
		n, err := strconv.Atoi(s)
		if err != nil {
			return 0, fmt.Errorf("%q is not a whole number", s)
		}
		return n, nil
	}
	got, err := ParseList(" 1, 2,,4 ", "thread count", "", atoi)
	if err != nil || !slices.Equal(got, []int{1, 2, 4}) {
		t.Fatalf("ParseList = %v, %v; want [1 2 4]", got, err)
	}
	for _, tc := range []struct{ in, want string }{
		{"1,x", `"x" is not a whole number`},
		{"1,2,1", `thread count "1" is given twice: give each once`},
		{" , ", `no thread count given in " , ": use e.g. 1,2,4`},
	} {
		_, err := ParseList(tc.in, "thread count", "use e.g. 1,2,4", atoi)
		if err == nil || err.Error() != tc.want {
			t.Errorf("ParseList(%q) = %v, want %q", tc.in, err, tc.want)
		}
	}
}

func TestRefuse(t *testing.T) {
	base := errors.New("invalid configuration")
	err := fmt.Errorf("wrapped: %w", Refuse(base, "Iterations, SyncEvery", "iterations %d is not a multiple of %d", 5, 2))
	if !errors.Is(err, base) {
		t.Errorf("%v does not wrap the base error", err)
	}
	if want := "wrapped: invalid configuration: iterations 5 is not a multiple of 2"; err.Error() != want {
		t.Errorf("Error() = %q, want %q", err, want)
	}
	fields, msg, ok := FieldsOf(err)
	if !ok || !slices.Equal(fields, []string{"Iterations", "SyncEvery"}) || msg != "iterations 5 is not a multiple of 2" {
		t.Errorf("FieldsOf = %v, %q, %v", fields, msg, ok)
	}
	if _, _, ok := FieldsOf(base); ok {
		t.Error("FieldsOf found a ConfigError in a plain error")
	}
}

func TestFill(t *testing.T) {
	p := Payload(30)
	if want := "abcdefghijklmnopqrstuvwxyzabcd"; string(p) != want {
		t.Errorf("Payload(30) = %q, want %q", p, want)
	}
	if strings.Count(string(Payload(4096)), "\x00") != 0 {
		t.Error("payload has a zero byte")
	}
}

func TestQuietAndEach(t *testing.T) {
	Quiet(nil)("nothing happens")
	var got []string
	Quiet(func(l string) { got = append(got, l) })("said")
	if !slices.Equal(got, []string{"said"}) {
		t.Errorf("Quiet(p) dropped or changed the line: %q", got)
	}
	if sq := Each([]int{1, 2, 3}, func(n int) int { return n * n }); !slices.Equal(sq, []int{1, 4, 9}) {
		t.Errorf("Each = %v, want [1 4 9]", sq)
	}
}
