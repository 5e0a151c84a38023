package main

// The documentation checks: every public command has a page in
// docs/commands whose help block is what the command prints now, measured
// output shown there is dated, every relative link in README.md and docs/
// resolves, and the README stays short.
//
// go test ./cmd/durabench -run TestDocs -update rewrites the generated
// blocks (and creates the page of a command that has none).

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"unicode"

	"github.com/durabench/durabench/internal/golden"
)

// repoRoot is the repository's top directory, seen from this package.
const repoRoot = "../.."

const updateHint = "go test ./cmd/durabench -run TestDocs -update"

// Generated blocks sit between these lines; what follows "BEGIN GENERATED:"
// names what produced the block.
const (
	beginGenerated = "<!-- BEGIN GENERATED: "
	generatedTail  = " (do not edit: " + updateHint + " rewrites it) -->"
	endGenerated   = "<!-- END GENERATED -->"
)

// publicCommand is a command as the overview lists it.
type publicCommand struct{ name, summary string }

// publicCommands reads the public commands from durabench --help, the list
// users see: hidden roles never appear there.
func publicCommands(t *testing.T, overview string) []publicCommand {
	t.Helper()
	_, list, ok := strings.Cut(overview, "\nCommands:\n")
	if !ok {
		t.Fatalf("durabench --help has no Commands: section:\n%s", overview)
	}
	var cmds []publicCommand
	for _, line := range strings.Split(list, "\n") {
		if !strings.HasPrefix(line, "  ") {
			break
		}
		name, summary, _ := strings.Cut(strings.TrimSpace(line), " ")
		cmds = append(cmds, publicCommand{name, strings.TrimSpace(summary)})
	}
	if len(cmds) == 0 {
		t.Fatalf("no command listed in durabench --help:\n%s", overview)
	}
	return cmds
}

// helpBlock is the generated block of a page: a command's --help as the
// current code prints it.
func helpBlock(args, output string) string {
	return beginGenerated + "durabench " + args + generatedTail + "\n```text\n$ durabench " + args + "\n" +
		strings.TrimRight(output, "\n") + "\n```\n" + endGenerated
}

// replaceGenerated replaces the generated block named by what in page with
// block. ok is false when the page has no such block.
func replaceGenerated(page, what, block string) (string, bool) {
	start := strings.Index(page, beginGenerated+what+generatedTail)
	if start < 0 {
		return page, false
	}
	end := strings.Index(page[start:], endGenerated)
	if end < 0 {
		return page, false
	}
	end += start + len(endGenerated)
	return page[:start] + block + page[end:], true
}

// checkGenerated compares (or with -update rewrites) the block named by what
// in the file at path. newPage makes the page when it does not exist.
func checkGenerated(t *testing.T, path, what, block string, newPage func() string) {
	t.Helper()
	b, err := os.ReadFile(path)
	switch {
	case os.IsNotExist(err) && golden.Updating():
		if err := os.WriteFile(path, []byte(newPage()), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("created %s: add what the command is for and a dated example of its output", path)
		return
	case os.IsNotExist(err):
		t.Errorf("%s is missing: every public command has a page in docs/commands.\n"+
			"Run %s to create it with the command's --help, then say what the command is for and show a real, dated example of its output.", path, updateHint)
		return
	case err != nil:
		t.Fatal(err)
	}
	page := string(b)
	got, ok := replaceGenerated(page, what, block)
	if !ok {
		if !golden.Updating() {
			t.Errorf("%s has no generated block for %q.\nRun %s to add it (at the end of the page; move it where it belongs).", path, what, updateHint)
			return
		}
		got = strings.TrimRight(page, "\n") + "\n\n## Flags\n\n" + block + "\n"
	}
	if got == page {
		return
	}
	if golden.Updating() {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s shows %q as an older build printed it.\nRun %s to regenerate it, and check that the page's prose still holds.", path, what, updateHint)
}

// TestDocsCommandPages checks that each public command has a page showing
// its current --help, and that the commands index shows the overview and
// links every page.
func TestDocsCommandPages(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the pages show the Linux help text (default sync methods differ per OS)")
	}
	overview, _, _ := durabench(t, "--help")
	cmds := publicCommands(t, overview)
	dir := filepath.Join(repoRoot, "docs", "commands")

	var index strings.Builder
	index.WriteString("| command | what it does |\n|---|---|\n")
	for _, c := range cmds {
		fmt.Fprintf(&index, "| [`%s`](%s.md) | %s |\n", c.name, c.name, c.summary)
	}
	indexBlock := beginGenerated + "command index" + generatedTail + "\n" + index.String() + endGenerated
	checkGenerated(t, filepath.Join(dir, "README.md"), "command index", indexBlock, nil)
	checkGenerated(t, filepath.Join(dir, "README.md"), "durabench --help", helpBlock("--help", overview), nil)

	for _, c := range cmds {
		help, stderr, code := durabench(t, c.name, "--help")
		if code != 0 {
			t.Errorf("durabench %s --help: exit %d: %s", c.name, code, stderr)
			continue
		}
		what := "durabench " + c.name + " --help"
		newPage := func() string {
			return fmt.Sprintf("# durabench %s\n\n%s.\n\n## Flags\n\n%s\n", c.name, upperFirst(c.summary), helpBlock(c.name+" --help", help))
		}
		checkGenerated(t, filepath.Join(dir, c.name+".md"), what, helpBlock(c.name+" --help", help), newPage)
	}
}

// subcommandHelp matches the name of a generated block that shows a
// subcommand's --help, e.g. "durabench crash sqlite --help".
var subcommandHelp = regexp.MustCompile(`^durabench ([a-z-]+) ([a-z-]+) --help$`)

// TestDocsSubcommandHelp checks every generated block in docs/commands that
// shows a subcommand's --help (crash sqlite, advise pragmas, ...) against
// what the current code prints: TestDocsCommandPages covers the commands
// themselves, and a subcommand's flags change as often.
func TestDocsSubcommandHelp(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the pages show the Linux help text (default sync methods differ per OS)")
	}
	pages, _ := filepath.Glob(filepath.Join(repoRoot, "docs", "commands", "*.md"))
	checked := 0
	for _, path := range pages {
		for _, line := range readLines(t, path) {
			what, ok := strings.CutPrefix(line, beginGenerated)
			if !ok {
				continue
			}
			what, ok = strings.CutSuffix(what, generatedTail)
			m := subcommandHelp.FindStringSubmatch(what)
			if !ok || m == nil {
				continue
			}
			help, stderr, code := durabench(t, m[1], m[2], "--help")
			if code != 0 {
				t.Errorf("%s: durabench %s %s --help: exit %d: %s", path, m[1], m[2], code, stderr)
				continue
			}
			checkGenerated(t, path, what, helpBlock(m[1]+" "+m[2]+" --help", help), nil)
			checked++
		}
	}
	if checked == 0 {
		t.Error("no generated subcommand help block in docs/commands: the check would pass on nothing")
	}
}

func upperFirst(s string) string {
	for i, r := range s {
		return string(unicode.ToUpper(r)) + s[i+len(string(r)):]
	}
	return s
}

// datePattern is a date as the docs write it.
var datePattern = regexp.MustCompile(`\b20[0-9]{2}-[01][0-9]-[0-3][0-9]\b`)

// TestDocsExamplesAreDated checks that output shown in docs/commands outside
// the generated blocks (a run measured on some machine, some day) says when:
// one of the three non-blank lines before a block that opens with a run of
// durabench ("$ durabench", "$ go run ./cmd/durabench") carries a date.
func TestDocsExamplesAreDated(t *testing.T) {
	pages, _ := filepath.Glob(filepath.Join(repoRoot, "docs", "commands", "*.md"))
	if len(pages) == 0 {
		t.Fatal("no page in docs/commands")
	}
	for _, path := range pages {
		lines := readLines(t, path)
		generated, fenced := false, false
		for i, line := range lines {
			switch {
			case strings.HasPrefix(line, beginGenerated):
				generated = true
			case line == endGenerated:
				generated = false
			case strings.HasPrefix(line, "```"):
				fenced = !fenced
				if !fenced || generated || i+1 >= len(lines) || !showsRun(lines[i+1]) {
					continue
				}
				if !datedBefore(lines, i) {
					t.Errorf("%s:%d: output of %q is not dated: say on the line before when (YYYY-MM-DD) and where it was measured, or generate it", path, i+2, lines[i+1])
				}
			}
		}
	}
}

// showsRun reports whether a code block's first line shows a run of
// durabench.
func showsRun(line string) bool {
	for _, p := range []string{"$ durabench", "$ ./durabench", "$ go run ./cmd/durabench"} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// datedBefore reports whether one of the three non-blank lines before line i
// holds a date.
func datedBefore(lines []string, i int) bool {
	for j, seen := i-1, 0; j >= 0 && seen < 3; j-- {
		if strings.TrimSpace(lines[j]) == "" {
			continue
		}
		seen++
		if datePattern.MatchString(lines[j]) {
			return true
		}
	}
	return false
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(b), "\n")
}

// markdownFiles returns README.md and every .md file under docs/.
func markdownFiles(t *testing.T) []string {
	t.Helper()
	files := []string{filepath.Join(repoRoot, "README.md")}
	err := filepath.WalkDir(filepath.Join(repoRoot, "docs"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// linkPattern matches an inline Markdown link or image: [text](target).
var linkPattern = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// TestDocsLinksResolve checks every relative link in README.md and docs/:
// the file must exist, and an anchor into a Markdown file must name one of
// its headings.
func TestDocsLinksResolve(t *testing.T) {
	anchors := map[string]map[string]bool{}
	for _, path := range markdownFiles(t) {
		for _, l := range links(t, path) {
			target, anchor, _ := strings.Cut(l.target, "#")
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file := path
			if target != "" {
				file = filepath.Join(filepath.Dir(path), target)
			}
			if _, err := os.Stat(file); err != nil {
				t.Errorf("%s:%d: link %q: %s does not exist", path, l.line, l.target, file)
				continue
			}
			if anchor == "" || !strings.HasSuffix(file, ".md") {
				continue
			}
			if anchors[file] == nil {
				anchors[file] = headingAnchors(t, file)
			}
			if !anchors[file][anchor] {
				t.Errorf("%s:%d: link %q: %s has no heading with anchor #%s", path, l.line, l.target, file, anchor)
			}
		}
	}
}

type link struct {
	target string
	line   int
}

// links returns the links of a Markdown file outside code blocks and code
// spans.
func links(t *testing.T, path string) []link {
	var out []link
	fenced := false
	for i, line := range readLines(t, path) {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		for _, m := range linkPattern.FindAllStringSubmatch(withoutCodeSpans(line), -1) {
			out = append(out, link{m[1], i + 1})
		}
	}
	return out
}

var codeSpan = regexp.MustCompile("`[^`]*`")

// withoutCodeSpans blanks `code` spans, where brackets are not links. A link
// whose text is a code span ([`sync`](sync.md)) keeps its target.
func withoutCodeSpans(line string) string {
	return codeSpan.ReplaceAllString(line, "x")
}

// headingAnchors returns the anchors GitHub gives the headings of a
// Markdown file: lower case, spaces to "-", punctuation other than "-" and
// "_" dropped, repeats numbered -1, -2, ...
func headingAnchors(t *testing.T, path string) map[string]bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[string]int{}
	anchors := map[string]bool{}
	fenced := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
		}
		if fenced || !strings.HasPrefix(line, "#") {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			anchors[fmt.Sprintf("%s-%d", a, n)] = true
		} else {
			anchors[a] = true
		}
		seen[a]++
	}
	return anchors
}

// TestDocsReadmeIsShort keeps the README a guide: findings and reference
// material belong in docs/.
func TestDocsReadmeIsShort(t *testing.T) {
	if n := len(strings.Split(strings.TrimRight(string(mustRead(t, filepath.Join(repoRoot, "README.md"))), "\n"), "\n")); n > 200 {
		t.Errorf("README.md has %d lines, over 200: move detail into docs/ and link it", n)
	}
}

// TestDocsWording checks two words the project settled: "neighbor" is spelt
// one way, and "the reference" is not used for the published measurements
// (name them: see docs/design/method.md).
func TestDocsWording(t *testing.T) {
	undefined := regexp.MustCompile(`(?i)\bthe (?:linux |macos )?reference(?:'s)?\b`)
	var files []string
	files = append(files, markdownFiles(t)...)
	filepath.WalkDir(repoRoot, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") && p != repoRoot {
			return filepath.SkipDir
		}
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "docs_test.go") {
			files = append(files, p)
		}
		return nil
	})
	for _, path := range files {
		for i, line := range readLines(t, path) {
			if strings.Contains(strings.ToLower(line), "neighbo"+"ur") {
				t.Errorf("%s:%d: spell it neighbor: %s", path, i+1, strings.TrimSpace(line))
			}
			if undefined.MatchString(line) {
				t.Errorf("%s:%d: \"the reference\" is undefined: name the published measurement (see docs/design/method.md): %s", path, i+1, strings.TrimSpace(line))
			}
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
