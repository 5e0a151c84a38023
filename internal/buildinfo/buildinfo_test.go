package buildinfo

import (
	"bytes"
	"reflect"
	"runtime/debug"
	"strings"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	bi := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "github.com/durabench/durabench", Version: "v0.0.0-20261130194512-183fe529ee3c+dirty"},
		Settings: []debug.BuildSetting{
			{Key: "CGO_ENABLED", Value: "1"},
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "183fe529ee3c008e6647eb5540a44b498aef084a"},
			{Key: "vcs.time", Value: "2026-11-30T19:45:12Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	got := fromBuildInfo(bi, []string{"modernc", "mattn", "system"})
	want := Info{
		Module: "github.com/durabench/durabench", Version: "v0.0.0-20261130194512-183fe529ee3c+dirty",
		Revision: "183fe529ee3c008e6647eb5540a44b498aef084a", Modified: true, Time: "2026-11-30T19:45:12Z",
		GoVersion: "go1.26.8", CGO: true, Engines: []string{"modernc", "mattn", "system"},
	}
	if strings.Join(got.Engines, ",") != strings.Join(want.Engines, ",") {
		t.Errorf("engines %v, want %v", got.Engines, want.Engines)
	}
	got.Engines, want.Engines = nil, nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fromBuildInfo =\n%+v\nwant\n%+v", got, want)
	}
	var buf bytes.Buffer
	if err := fromBuildInfo(bi, []string{"modernc", "mattn", "system"}).Write(&buf); err != nil {
		t.Fatal(err)
	}
	wantText := `durabench  v0.0.0-20261130194512-183fe529ee3c+dirty
module     github.com/durabench/durabench
revision   183fe529ee3c008e6647eb5540a44b498aef084a (modified: uncommitted changes)
committed  2026-11-30T19:45:12Z
go         go1.26.8
cgo        on
engines    modernc, mattn, system
`
	if buf.String() != wantText {
		t.Errorf("Write:\n%s\nwant:\n%s", buf.String(), wantText)
	}
}

func TestShortVersionAndRevisionWithoutVCS(t *testing.T) {
	tests := []struct {
		info    Info
		version string
		rev     string
	}{
		{Info{Version: "(devel)"}, "devel", "unknown (not recorded: build with go build or go install inside a git clone)"},
		{Info{Version: "(devel)", Revision: "0123456789abcdef0123"}, "devel-0123456789ab", "0123456789abcdef0123"},
		{Info{Revision: "0123456789abcdef0123", Modified: true}, "devel-0123456789ab+dirty", "0123456789abcdef0123 (modified: uncommitted changes)"},
		{Info{Version: "v1.2.3", Revision: "abc"}, "v1.2.3", "abc"},
	}
	for _, tt := range tests {
		if got := tt.info.ShortVersion(); got != tt.version {
			t.Errorf("%+v: ShortVersion = %q, want %q", tt.info, got, tt.version)
		}
		word := tt.info.Revision
		if word == "" {
			word = "unknown"
		} else if tt.info.Modified {
			word += "+dirty"
		}
		if got := tt.info.RevisionWord(); got != word {
			t.Errorf("%+v: RevisionWord = %q, want %q", tt.info, got, word)
		}
		if got := tt.info.RevisionText(); got != tt.rev {
			t.Errorf("%+v: RevisionText = %q, want %q", tt.info, got, tt.rev)
		}
	}
}

func TestReadNoBuildInfo(t *testing.T) {
	got := fromBuildInfo(nil, []string{"modernc"})
	if got.Module != "" || got.Revision != "" || got.GoVersion == "" || len(got.Engines) != 1 {
		t.Errorf("fromBuildInfo(nil) = %+v, want only the running Go version and the engines", got)
	}
}
