package testkit

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"
)

// Reader follows a page's blocks as its reader does, in one folder: each
// ```sh block runs in bash and the ```text block after it must appear in what
// it printed (MissingLines), with the exit code the text implies
// (ExpectedExit); a block the page says to save ("save as `main.tf`:", or a
// first line "# approve/main.tf") is saved there; every other block is shown
// only. The page's conventions that are the test's own (an address, a server
// it starts itself, a step it makes itself) are the Reader's fields.
type Reader struct {
	Page *Page
	// Dir is the reader's folder: where blocks run and files are saved.
	Dir string
	// Clone is where a block whose first line is "# in the clone" runs.
	Clone string
	// Env is the environment of the blocks (UserEnv).
	Env []string
	// Replace turns the page's text into the test's (its registry's
	// address in place of 127.0.0.1:8787) in every block run or saved. A
	// block's lines are replaced as they run, so that an Instead that starts
	// a server can set it for the lines after its own.
	Replace *strings.Replacer
	// Instead names lines of ```sh blocks that the test does itself.
	Instead []Instead
	// Own handles the blocks the test handles itself (a step the page
	// describes in prose, a block it checks): true when it did.
	Own func(b Block) (bool, error)
	// Before is called before the first block of the level-two section
	// whose heading starts with its key ("## 3."): what happens there in
	// the reader's world (a server changes a tool).
	Before map[string]func() error
	// Output turns what a block printed into what the page shows (the
	// run's version written as the page writes it).
	Output func(string) string
	// Format, when set, is the CLI that checks that every .tf and .hcl file
	// the page saves is formatted as it formats it.
	Format string
	// Warnings, when not nil, asks that every warning a block prints be shown
	// in the text after it, but these (a summary's start).
	Warnings []string
	// Timeout bounds each block (10 minutes when zero).
	Timeout time.Duration
	// Logf logs what the reader did not run, and why (t.Logf).
	Logf func(format string, args ...any)

	vars   []string // the variables earlier blocks set (R=...), for the next
	before map[string]bool
}

// Instead is a line of the page's ```sh blocks (matching Line) that the test
// does itself, with Do (a server it starts), or not at all when Do is nil,
// for the reason Why. The lines around it run as usual, before and after it.
type Instead struct {
	Line *regexp.Regexp
	Why  string
	Do   func(line string) error
}

// Follow follows blocks, in order.
func (r *Reader) Follow(blocks []Block) error {
	for _, b := range blocks {
		if err := r.follow(b); err != nil {
			return fmt.Errorf("%s:%d (%s): %w", r.Page.Path, b.Line, b.Section, err)
		}
	}
	return nil
}

// FollowSection follows the blocks of the section under heading.
func (r *Reader) FollowSection(heading string) error {
	blocks, err := r.Page.Section(heading)
	if err != nil {
		return err
	}
	return r.Follow(blocks)
}

func (r *Reader) follow(b Block) error {
	if err := r.beforeSection(b); err != nil {
		return err
	}
	if r.Own != nil {
		if own, err := r.Own(b); own || err != nil {
			if own && b.Lang == "sh" {
				r.Page.Ran(b)
			}
			return err
		}
	}
	switch {
	case b.Lang == "sh":
		return r.runBlock(b)
	case SaveAs(b) != "":
		return r.save(SaveAs(b), b.Text)
	}
	return nil
}

func (r *Reader) beforeSection(b Block) error {
	for prefix, do := range r.Before {
		if strings.HasPrefix(b.Section, prefix) && !r.before[prefix] {
			if r.before == nil {
				r.before = map[string]bool{}
			}
			r.before[prefix] = true
			if err := do(); err != nil {
				return err
			}
		}
	}
	return nil
}

// BeforeAllCalled is an error naming the sections of Before that the reader
// never reached: the page lost them, and what happens there never happened.
func (r *Reader) BeforeAllCalled() error {
	var missed []string
	for prefix := range r.Before {
		if !r.before[prefix] {
			missed = append(missed, prefix)
		}
	}
	if len(missed) > 0 {
		slices.Sort(missed)
		return fmt.Errorf("%s has no section %q any more", r.Page.Path, missed)
	}
	return nil
}

// runBlock runs a ```sh block, unless the page's test said it is not run,
// and judges it by the ```text block after it.
func (r *Reader) runBlock(b Block) error {
	if why := r.Page.NotRunWhy(b); why != "" {
		r.logf("%s:%d not run: %s", r.Page.Path, b.Line, why)
		return nil
	}
	out, code, err := r.Run(b.Text)
	if err != nil {
		return err
	}
	next := r.Page.Next(b)
	if want := ExpectedExit(b, next); code != want {
		return fmt.Errorf("exit code %d, want %d\n--- the block:\n%s--- its output:\n%s", code, want, b.Text, out)
	}
	shown := ""
	if next != nil && next.Lang == "text" {
		shown = next.Text
		if missing := MissingLines(out, shown); len(missing) > 0 {
			return fmt.Errorf("the page says these lines appear, and they do not:\n  %s\n--- the block:\n%s--- its output:\n%s",
				strings.Join(missing, "\n  "), b.Text, out)
		}
	}
	if r.Warnings != nil {
		if unshown := UnshownWarnings(out, shown, r.Warnings); len(unshown) > 0 {
			return fmt.Errorf("the block prints warnings the page does not show after it:\n  %s\n--- the block:\n%s--- its output:\n%s",
				strings.Join(unshown, "\n  "), b.Text, out)
		}
	}
	r.Page.Ran(b)
	return nil
}

// Run runs a ```sh block's text, as Follow does, and returns what it printed
// (through Output) and its exit code. A block whose first line is "#!" is a
// script, run as written; any other runs in bash with -euo pipefail and the
// variables that earlier blocks set. The lines of Instead split it: each
// part runs in turn, with Replace as it is then, and the first that fails
// ends it.
func (r *Reader) Run(text string) (string, int, error) {
	dir := r.Dir
	if strings.HasPrefix(text, "# in the clone\n") {
		if r.Clone == "" {
			return "", 0, errors.New("a block runs \"# in the clone\", and the test gave no clone")
		}
		dir = r.Clone
	}
	if strings.HasPrefix(text, "#!") {
		return r.bash(dir, r.replace(text))
	}
	var out strings.Builder
	var part []string
	for _, line := range strings.Split(text, "\n") {
		i := slices.IndexFunc(r.Instead, func(in Instead) bool { return in.Line.MatchString(line) })
		if i < 0 {
			part = append(part, line)
			continue
		}
		printed, code, err := r.bashPart(dir, part)
		out.WriteString(printed)
		if err != nil || code != 0 {
			return r.output(out.String()), code, err
		}
		part = nil
		if err := r.instead(r.Instead[i], r.replace(line)); err != nil {
			return r.output(out.String()), 0, err
		}
	}
	printed, code, err := r.bashPart(dir, part)
	out.WriteString(printed)
	return r.output(out.String()), code, err
}

func (r *Reader) instead(in Instead, line string) error {
	if in.Do == nil {
		r.logf("not run: %s: %s", strings.TrimSpace(line), in.Why)
		return nil
	}
	if err := in.Do(line); err != nil {
		return fmt.Errorf("%s (%s): %w", strings.TrimSpace(line), in.Why, err)
	}
	return nil
}

var assignment = regexp.MustCompile(`(?m)^[A-Z][A-Z0-9_]*=\S*$`)

// replace is text with Replace as it is now.
func (r *Reader) replace(text string) string {
	if r.Replace == nil {
		return text
	}
	return r.Replace.Replace(text)
}

// bashPart runs lines of a block, after the variables earlier blocks set.
func (r *Reader) bashPart(dir string, lines []string) (string, int, error) {
	script := r.replace(strings.Join(lines, "\n"))
	if strings.TrimSpace(script) == "" {
		return "", 0, nil
	}
	out, code, err := r.bash(dir, "set -euo pipefail\n"+strings.Join(r.vars, "\n")+"\n"+script)
	r.vars = append(r.vars, assignment.FindAllString(script, -1)...)
	return out, code, err
}

// bash runs a script in dir, in a process group of its own that is killed
// with what it started when the block takes longer than the timeout.
func (r *Reader) bash(dir, script string) (string, int, error) {
	timeout := r.Timeout
	if timeout == 0 {
		timeout = 10 * time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script)
	cmd.Dir, cmd.Env = dir, r.Env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second // a process left in the background holds the output open
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return string(out), 0, fmt.Errorf("the block did not end within %s:\n%s\n--- its output:\n%s", timeout, script, out)
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return string(out), exit.ExitCode(), nil
	}
	return string(out), 0, err
}

func (r *Reader) output(s string) string {
	if r.Output != nil {
		return r.Output(s)
	}
	return s
}

func (r *Reader) logf(format string, args ...any) {
	if r.Logf != nil {
		r.Logf(format, args...)
	}
}

// save writes a block the page says to save into the reader's folder (after
// Replace), and checks its format with Format.
func (r *Reader) save(name, text string) error {
	text = r.replace(text)
	path := filepath.Join(r.Dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		return err
	}
	if r.Format == "" || (!strings.HasSuffix(name, ".tf") && !strings.HasSuffix(name, ".hcl")) {
		return nil
	}
	cmd := exec.Command(r.Format, "fmt", "-check", "-diff", name)
	cmd.Dir, cmd.Env = r.Dir, r.Env
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s is not formatted as %s fmt formats it: %v\n%s", name, filepath.Base(r.Format), err, out)
	}
	return nil
}

var (
	saveCaption = regexp.MustCompile("(?i)save .*as `([^`]+)`:$")
	fileLine    = regexp.MustCompile(`^# ([\w./-]+\.(?:tf|hcl|json|tfvars))$`)
)

// SaveAs is the file a page says to save a block as: its caption ends "save
// ... as `NAME`:", or its first line is "# NAME" (a file's own comment). ""
// for a block that is only shown.
func SaveAs(b Block) string {
	if b.Lang == "sh" || b.Lang == "text" {
		return ""
	}
	if m := saveCaption.FindStringSubmatch(b.Caption); m != nil {
		return m[1]
	}
	if m := fileLine.FindStringSubmatch(b.FirstLine()); m != nil {
		return m[1]
	}
	return ""
}

var (
	errorLine     = regexp.MustCompile(`(?m)(^|\s)Error: `)
	detailedPlan  = regexp.MustCompile(`\bplan\b.*-detailed-exitcode`)
	commentOrNone = regexp.MustCompile(`^\s*(#.*)?$`)
)

// ExpectedExit is the exit code a ```sh block must end with, by what the
// page shows after it (next, nil when nothing): 1 when the text shows an
// error; 2 when its last command is a `plan -detailed-exitcode` (not followed
// by `||`) and the text does not say "No changes."; else 0.
func ExpectedExit(b Block, next *Block) int {
	shown := ""
	if next != nil && next.Lang == "text" {
		shown = next.Text
	}
	if errorLine.MatchString(shown) {
		return 1
	}
	lines := strings.Split(b.Text, "\n")
	last := ""
	for i := len(lines) - 1; i >= 0 && last == ""; i-- {
		if !commentOrNone.MatchString(lines[i]) {
			last = lines[i]
		}
	}
	if detailedPlan.MatchString(last) && !strings.Contains(last, "||") && !strings.Contains(shown, "No changes.") {
		return 2
	}
	return 0
}

var warningLine = regexp.MustCompile(`(?m)Warning: (.+)$`)

// UnshownWarnings lists the warnings in out that shown (the text a page shows
// after the block) does not show, but those that start with one of allowed: a
// reader who sees a warning the page never mentions is left to wonder.
func UnshownWarnings(out, shown string, allowed []string) []string {
	shown = normalize(shown)
	var unshown []string
	for _, m := range warningLine.FindAllStringSubmatch(normalize(out), -1) {
		summary := strings.TrimSpace(m[1])
		if strings.Contains(shown, "Warning: "+summary) ||
			slices.ContainsFunc(allowed, func(a string) bool { return strings.HasPrefix(summary, a) }) {
			continue
		}
		unshown = append(unshown, "Warning: "+summary)
	}
	return unshown
}
