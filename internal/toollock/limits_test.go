package toollock

import (
	"fmt"
	"strings"
	"testing"
)

// A tool with exactly MaxChangesPerTool changed fields lists them all and no
// count; one more lists MaxChangesPerTool and counts the one left.
func TestCompareListsChangesUpToTheLimit(t *testing.T) {
	for _, n := range []int{MaxChangesPerTool, MaxChangesPerTool + 1} {
		var approvedProps, nowProps []string
		for i := range n {
			approvedProps = append(approvedProps, fmt.Sprintf(`"p%02d":{"type":"string"}`, i))
			nowProps = append(nowProps, fmt.Sprintf(`"p%02d":{"type":"number"}`, i))
		}
		tool := `{"name":"t","inputSchema":{"type":"object","properties":{%s}}}`
		got := diffsOf(t, spec(fmt.Sprintf(tool, strings.Join(approvedProps, ","))), spec(fmt.Sprintf(tool, strings.Join(nowProps, ","))))
		last := got[len(got)-1]
		switch {
		case n == MaxChangesPerTool && (len(got) != n || strings.Contains(last, "more changes")):
			t.Errorf("%d changes: %d lines, the last %q; want each change and no count", n, len(got), last)
		case n > MaxChangesPerTool && (len(got) != MaxChangesPerTool+1 || last != `tool "t": and 1 more changes`):
			t.Errorf("%d changes: %d lines, the last %q; want %d changes and a count of 1", n, len(got), last, MaxChangesPerTool)
		}
	}
}

// An element added to an array, or taken from its end, is named as added or
// removed at its index, never as changed to or from null.
func TestCompareNamesArrayElementsAddedAndRemoved(t *testing.T) {
	tool := `{"name":"t","inputSchema":{"type":"object","properties":{"unit":{"type":"string","enum":[%s]}}}}`
	short, long := spec(fmt.Sprintf(tool, `"C"`)), spec(fmt.Sprintf(tool, `"C","F"`))
	for _, c := range []struct{ approved, now, want string }{
		{short, long, `tool "t", inputSchema at /properties/unit/enum/1: added, now "F"`},
		{long, short, `tool "t", inputSchema at /properties/unit/enum/1: removed, approved "F"`},
	} {
		if got := diffsOf(t, c.approved, c.now); len(got) != 1 || got[0] != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

// Where the shared text before a change starts inside a character, the text
// shown starts at that character, whole: never a byte of its middle.
func TestCompareShowsWholeCharactersBeforeAChange(t *testing.T) {
	common := strings.Repeat("€", 10) + strings.Repeat("z", 59) // 60 bytes before the change start inside the last €
	tool := `{"name":"t","description":%q,"inputSchema":{"type":"object"}}`
	got := diffsOf(t, spec(fmt.Sprintf(tool, common+"old")), spec(fmt.Sprintf(tool, common+"new")))
	tail := "€" + strings.Repeat("z", 59)
	want := fmt.Sprintf(`tool "t", description: approved "…%sold", now "…%snew"`, tail, tail)
	if len(got) != 1 || got[0] != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// A value shown of exactly maxShown bytes is shown whole; one byte more is
// cut, with a count of the rest.
func TestCompareShowsValuesUpToTheLimit(t *testing.T) {
	for _, n := range []int{maxShown, maxShown + 1} {
		text := strings.Repeat("d", n-2) // quoted: n bytes
		got := diffsOf(t, spec(`{"name":"t","inputSchema":{"type":"object"}}`),
			spec(`{"name":"t","description":"`+text+`","inputSchema":{"type":"object"}}`))
		whole := `tool "t", description: added, now "` + text + `"`
		if cutOff := len(got) != 1 || got[0] != whole; cutOff != (n > maxShown) {
			t.Errorf("a value of %d bytes shown: %q", n, got)
		}
	}
}

// A lock of exactly MaxLockBytes is read; one byte more is refused.
func TestParseReadsLocksUpToTheLimit(t *testing.T) {
	good := mustMake(t, weather)
	at := string(good) + strings.Repeat(" ", MaxLockBytes-len(good))
	if _, err := Parse([]byte(at)); err != nil {
		t.Errorf("a lock of %d bytes: %v", len(at), err)
	}
	if _, err := Parse([]byte(at + " ")); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("the lock has %d bytes, over the limit of %d bytes", MaxLockBytes+1, MaxLockBytes)) {
		t.Errorf("a lock of %d bytes: %v", MaxLockBytes+1, err)
	}
}

// A value an error describes is shown when it is at most 60 bytes of
// compact JSON, else named by its type alone.
func TestParseErrorsDescribeShortValues(t *testing.T) {
	for _, n := range []int{60, 61} {
		value := `"` + strings.Repeat("v", n-2) + `"`
		_, err := Parse([]byte(`{"tools":{},"version":` + value + `}`))
		shown := err != nil && strings.Contains(err.Error(), "/version: expected 1, found string "+value)
		typeOnly := err != nil && strings.Contains(err.Error(), "/version: expected 1, found a string")
		if shown != (n <= 60) || typeOnly != (n > 60) {
			t.Errorf("a version of %d bytes: %v", n, err)
		}
	}
}

// A text changed from or to nothing shows both sides, the empty one as "".
func TestCompareShowsATextChangedFromNothing(t *testing.T) {
	tool := `{"name":"t","description":%q,"inputSchema":{"type":"object"}}`
	for _, c := range []struct{ approved, now, want string }{
		{"", "Reads ~/.ssh.", `tool "t", description: approved "", now "Reads ~/.ssh."`},
		{"Returns the forecast.", "", `tool "t", description: approved "Returns the forecast.", now ""`},
	} {
		if got := diffsOf(t, spec(fmt.Sprintf(tool, c.approved)), spec(fmt.Sprintf(tool, c.now))); len(got) != 1 || got[0] != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}
