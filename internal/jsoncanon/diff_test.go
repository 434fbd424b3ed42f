package jsoncanon

import (
	"fmt"
	"testing"
)

func TestDiff(t *testing.T) {
	a := `{"version":"1.0","name":"x","skills":[{"id":"a","tags":["t"]},{"id":"b"}],"n":1,"gone":true,"a/b":1}`
	b := `{"name":"x","version":"1.1","skills":[{"id":"a","tags":["t","u"]},{"id":"b"}],"n":1.0,"new":null,"a/b":2}`
	got, err := Diff([]byte(a), []byte(b), 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`/a~1b 1 2`,
		`/gone true <nil>`,
		`/new <nil> null`,
		`/skills/0/tags ["t"] ["t","u"]`,
		`/version "1.0" "1.1"`,
	}
	if len(got) != len(want) {
		t.Fatalf("got %d changes %q, want %q", len(got), got, want)
	}
	for i, c := range got {
		s := fmt.Sprintf("%s %s %s", c.Pointer, show(c.A), show(c.B))
		if s != want[i] {
			t.Errorf("change %d = %s, want %s", i, s, want[i])
		}
	}
	if got, _ := Diff([]byte(a), []byte(b), 2); len(got) != 2 {
		t.Errorf("limit 2: %d changes", len(got))
	}
	if got, _ := Diff([]byte(`{"a":[1,2]}`), []byte(` { "a" : [ 1.0 , 2 ] } `), 10); len(got) != 0 {
		t.Errorf("equal documents: %q", got)
	}
	if got, _ := Diff([]byte(`[1]`), []byte(`{}`), 10); len(got) != 1 || got[0].Pointer != "" {
		t.Errorf("root change: %q", got)
	}
	if _, err := Diff([]byte(`{`), []byte(`{}`), 10); err == nil {
		t.Error("invalid document: no error")
	}
}

func show(b []byte) string {
	if b == nil {
		return "<nil>"
	}
	return string(b)
}
