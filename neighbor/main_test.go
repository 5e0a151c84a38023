package neighbor

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/dirtest"
	"github.com/durabench/durabench/syscalls"
)

// The test binary plays the other processes of the tests, chosen by
// roleEnv: "child" is the neighbor role (what `durabench neighbor
// __neighbor` runs), "parent" starts a neighbor, says where it is, and
// waits to be killed.
const roleEnv = "DURABENCH_NEIGHBOR_TEST_ROLE"

func TestMain(m *testing.M) {
	switch os.Getenv(roleEnv) {
	case "child":
		if err := ServeChild(os.Args[1:], os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "neighbor:", err)
			os.Exit(1)
		}
		os.Exit(0)
	case "parent":
		playParent()
	}
	os.Exit(m.Run())
}

// playParent starts a neighbor with an 8 MiB backlog in the directory named
// by its one argument, waits until it is ready, prints "<pid> <dir>" and
// blocks until killed.
func playParent() {
	n, err := startNeighbor(testLaunch(), childConfig{Mode: modeBacklog, Dir: os.Args[1], Bytes: 8 << 20, Timeout: time.Minute})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	if _, err := n.expect(msgReady); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	fmt.Printf("%d %s\n", n.pid(), n.dir)
	select {}
}

// testLaunch starts this test binary in the neighbor role.
func testLaunch() Launch {
	return Launch{Path: os.Args[0], Env: []string{roleEnv + "=child"}}
}

// testConfig is a small, fast configuration of both modes' common part.
func testConfig(methods ...syscalls.Method) Config {
	return Config{Methods: methods, Timeout: time.Minute, Launch: testLaunch()}
}

// newRun makes a run directory under a fresh temporary directory.
func newRun(t *testing.T) *fixtures.Run {
	t.Helper()
	run, err := fixtures.NewRun(t.TempDir(), "neighbor-test", false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { run.Close() })
	return run
}

// noNeighborLeft fails if any neighbor directory is left in the run.
func noNeighborLeft(t *testing.T, run *fixtures.Run) {
	t.Helper()
	for _, name := range dirtest.Names(t, run.Dir) {
		if strings.Contains(name, "neighbor-") {
			t.Errorf("neighbor directory %s left behind", name)
		}
	}
}

// readLine reads one line from a reader, failing the test at EOF.
func readLine(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	line, err := r.ReadString('\n')
	if err != nil {
		t.Fatalf("reading a line: %v (got %q)", err, line)
	}
	return strings.TrimSpace(line)
}
