package jsoncanon

import "testing"

// The registry keeps numbers as doubles: what it echoes is the same stored
// document when only the doubles' rounding differs, and a different one
// otherwise.
func TestStoredEqual(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{`{"n":9007199254740993}`, `{"n":9007199254740992}`, true},
		{`{"n":9007199254740993}`, `{"n":9007199254740994}`, false},
		{`{"pi":3.14159265358979323846}`, `{"pi":3.141592653589793}`, true},
		{`{"a":1,"b":[1.0,"x"]}`, `{"b":[1,"x"],"a":1e0}`, true},
		{`{"a":1}`, `{"a":2}`, false},
		{`{"a":"x"}`, `{"a":"y"}`, false},
	} {
		got, err := StoredEqual([]byte(c.a), []byte(c.b))
		if err != nil || got != c.want {
			t.Errorf("StoredEqual(%s, %s) = %v, %v; want %v", c.a, c.b, got, err, c.want)
		}
	}
	if _, err := StoredEqual([]byte(`{"a":1,"a":2}`), []byte(`{}`)); err == nil {
		t.Error("a duplicate key must be an error")
	}
}
