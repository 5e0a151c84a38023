package syscalls

import (
	"errors"
	"strings"
	"testing"
)

func TestParseMethodRoundTrip(t *testing.T) {
	for _, m := range Methods() {
		got, err := ParseMethod(m.String())
		if err != nil || got != m {
			t.Errorf("ParseMethod(%q) = %v, %v; want %v", m, got, err, m)
		}
	}
	if got, err := ParseMethod(" FDATASYNC "); err != nil || got != Fdatasync {
		t.Errorf("ParseMethod is not case- and space-tolerant: %v, %v", got, err)
	}
}

func TestParseMethodUnknownListsAvailable(t *testing.T) {
	_, err := ParseMethod("fsnyc")
	if !errors.Is(err, ErrUnknownMethod) {
		t.Fatalf("err = %v, want ErrUnknownMethod", err)
	}
	for _, name := range MethodNames() {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error %q does not list available method %q", err, name)
		}
	}
}

func TestMethodSetsPerOS(t *testing.T) {
	linux := methodSet{os: "linux", table: linuxMethods}
	darwin := methodSet{os: "darwin", table: darwinMethods}
	tests := []struct {
		set     methodSet
		names   string
		promise map[Method]Promise
		refused map[string]string // name -> text the refusal must contain
	}{
		{
			set:   linux,
			names: "none,fsync,fdatasync,dsync,osync,sync_file_range,gostd",
			promise: map[Method]Promise{
				None: PromiseNone, Fsync: PromiseStable, Fdatasync: PromiseStable,
				SyncFileRange: PromiseHandedOff, GoStd: PromiseStable,
			},
			refused: map[string]string{"barrier": "macOS-only", "full": "F_FULLFSYNC"},
		},
		{
			set:   darwin,
			names: "none,fsync,fdatasync,dsync,osync,barrier,full,gostd",
			promise: map[Method]Promise{
				Fsync: PromiseHandedOff, Barrier: PromiseOrdered, Full: PromiseStable, GoStd: PromiseStable,
			},
			refused: map[string]string{"sync_file_range": "Linux-only"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.set.os, func(t *testing.T) {
			if got := strings.Join(tt.set.names(), ","); got != tt.names {
				t.Errorf("methods = %s, want %s", got, tt.names)
			}
			for m, p := range tt.promise {
				if got := tt.set.info(m).promise; got != p {
					t.Errorf("%s promises %q, want %q", m, got, p)
				}
			}
			for name, why := range tt.refused {
				_, err := tt.set.parse(name)
				if !errors.Is(err, ErrMethodNotOnOS) {
					t.Fatalf("parse(%q) err = %v, want ErrMethodNotOnOS", name, err)
				}
				msg := err.Error()
				if !strings.Contains(msg, why) || !strings.Contains(msg, tt.names[:4]) || !strings.Contains(msg, "on "+tt.set.os+" use one of") {
					t.Errorf("refusal %q does not say why (%q) and what to use instead", msg, why)
				}
			}
		})
	}
}

func TestOpenFlagsAndExplicitSync(t *testing.T) {
	if Dsync.OpenFlag() == 0 || Osync.OpenFlag() == 0 || Dsync.OpenFlag() == Osync.OpenFlag() {
		t.Errorf("O_DSYNC/O_SYNC flags = %#x/%#x", Dsync.OpenFlag(), Osync.OpenFlag())
	}
	if Fsync.OpenFlag() != 0 {
		t.Errorf("fsync needs no open flag, got %#x", Fsync.OpenFlag())
	}
	for m, want := range map[Method]bool{None: false, Dsync: false, Osync: false, Fsync: true, GoStd: true} {
		if got := m.SyncsExplicitly(); got != want {
			t.Errorf("%s.SyncsExplicitly() = %v, want %v", m, got, want)
		}
	}
}
