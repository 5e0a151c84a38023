package sqlitebench

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParseLists(t *testing.T) {
	for _, tc := range []struct {
		parse func(string) ([]string, error)
		in    string
		want  []string
		err   string
	}{
		{ParseJournalModes, "WAL, delete", []string{"wal", "delete"}, ""},
		{ParseJournalModes, "wal2", nil, `journal mode "wal2": use one or more of delete, truncate, persist, wal, memory, off`},
		{ParseJournalModes, "wal,WAL", nil, `journal mode "WAL" is given twice: give each once`},
		{ParseSynchronous, "0,NORMAL,2,extra", []string{"off", "normal", "full", "extra"}, ""},
		{ParseSynchronous, "ful", nil, `synchronous level "ful": use one or more of off, normal, full, extra`},
		{ParseSynchronous, "full,2", nil, `synchronous level "2" is given twice: give each once`},
		{ParseFullFsync, "off,on", []string{"0", "1"}, ""},
		{ParseFullFsync, "2", nil, `fullfsync value "2": use one or more of 0, 1`},
		{ParseCheckpointFullFsync, "default,1,no", []string{"default", "1", "0"}, ""},
		{ParseCheckpointFullFsync, "apple", nil, `checkpoint_fullfsync value "apple": use one or more of default, 0, 1`},
		{ParseEngines, "system,modernc", []string{"system", "modernc"}, ""},
		{ParseEngines, "sqlite3", nil, `engine "sqlite3": use one or more of modernc, mattn, system`},
		{ParseEngines, " , ", nil, `no engine given in " , ": use one or more of modernc, mattn, system`},
	} {
		got, err := tc.parse(tc.in)
		if tc.err == "" {
			if err != nil || !slices.Equal(got, tc.want) {
				t.Errorf("parse %q = %q, %v; want %q", tc.in, got, err, tc.want)
			}
			continue
		}
		if err == nil || !strings.HasSuffix(err.Error(), tc.err) {
			t.Errorf("parse %q: error %v, want one ending %q", tc.in, err, tc.err)
		}
	}
}

func TestValidate(t *testing.T) {
	ok := smallConfig("modernc")
	if err := ok.Validate(); err != nil {
		t.Fatalf("valid config refused: %v", err)
	}
	for _, tc := range []struct {
		edit func(*Config)
		want string
	}{
		{func(c *Config) { c.Engines = nil }, "no engine given"},
		{func(c *Config) { c.Engines = []string{"sqlite"} }, `engine "sqlite": use one or more of modernc, mattn, system`},
		{func(c *Config) { c.JournalModes = []string{"wal", "wal"} }, `journal mode "wal" is given twice`},
		{func(c *Config) { c.Synchronous = []string{"2"} }, `synchronous level "2": use one or more of off, normal, full, extra`},
		{func(c *Config) { c.CheckpointFullFsync = nil }, "no checkpoint_fullfsync value given"},
		{func(c *Config) { c.Commits = 0 }, "0 measured commits: need at least one"},
		{func(c *Config) { c.Warmup = -1 }, "-1 warm-up commits: must be 0 or more"},
		{func(c *Config) { c.Rounds = 0 }, "0 rounds: need at least one"},
		{func(c *Config) { c.RowsPerCommit = 0 }, "0 rows per commit: need at least one"},
		{func(c *Config) { c.RowBytes = -1 }, "rows of -1 bytes: use 0 to 1000000000"},
	} {
		c := ok
		tc.edit(&c)
		if err := c.Validate(); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate = %v, want ErrConfig saying %q", err, tc.want)
		}
	}
}

func TestCasesInTableOrder(t *testing.T) {
	cfg := smallConfig("modernc")
	cfg.Engines = []string{"system", "modernc"}
	cfg.FullFsync = []string{"0", "1"}
	var names []string
	for _, c := range cfg.cases() {
		names = append(names, c.Name())
	}
	want := []string{
		"system-delete-normal-ff0-ckptdefault", "system-delete-normal-ff1-ckptdefault",
		"system-delete-full-ff0-ckptdefault", "system-delete-full-ff1-ckptdefault",
		"system-wal-normal-ff0-ckptdefault", "system-wal-normal-ff1-ckptdefault",
		"system-wal-full-ff0-ckptdefault", "system-wal-full-ff1-ckptdefault",
		"modernc-delete-normal-ff0-ckptdefault", "modernc-delete-normal-ff1-ckptdefault",
		"modernc-delete-full-ff0-ckptdefault", "modernc-delete-full-ff1-ckptdefault",
		"modernc-wal-normal-ff0-ckptdefault", "modernc-wal-normal-ff1-ckptdefault",
		"modernc-wal-full-ff0-ckptdefault", "modernc-wal-full-ff1-ckptdefault",
	}
	if !slices.Equal(names, want) {
		t.Errorf("cases %q, want %q", names, want)
	}
}
