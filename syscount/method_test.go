package syscount

import (
	"errors"
	"strings"
	"testing"
)

func TestMethodPerPlatform(t *testing.T) {
	for _, tt := range []struct{ goos, goarch, want string }{
		{"linux", "amd64", "ptrace"},
		{"linux", "arm64", "ptrace"},
		{"darwin", "arm64", "interpose"},
		{"darwin", "amd64", "interpose"},
	} {
		if got, err := methodFor(tt.goos, tt.goarch); err != nil || got != tt.want {
			t.Errorf("methodFor(%s, %s) = %q, %v; want %q", tt.goos, tt.goarch, got, err, tt.want)
		}
	}
	for _, p := range [][2]string{{"linux", "386"}, {"freebsd", "amd64"}} {
		_, err := methodFor(p[0], p[1])
		if !errors.Is(err, ErrNoCounting) || !strings.Contains(err.Error(), "not on "+p[0]+"/"+p[1]) {
			t.Errorf("methodFor(%s, %s) = %v, want ErrNoCounting naming the platform", p[0], p[1], err)
		}
	}
	if err := Available(); err != nil {
		t.Errorf("Available() on this machine: %v", err)
	}
}
