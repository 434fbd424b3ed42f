package jsoncanon

import "encoding/json"

// Equal reports whether two documents are the same JSON value: object member
// order and whitespace do not matter, array order does, strings compare after
// unescaping, and numbers compare by exact decimal value (1, 1.0, 1e0 and
// 10e-1 are equal; -0 equals 0; 9007199254740993 differs from
// 9007199254740992, though a double cannot tell them apart). The error is
// the first document's *Error, else the second's.
func Equal(a, b []byte) (bool, error) {
	va, err := Decode(a)
	if err != nil {
		return false, err
	}
	vb, err := Decode(b)
	if err != nil {
		return false, err
	}
	return equalValues(va, vb), nil
}

// equalValues is Equal on decoded values.
func equalValues(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equalValues(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalValues(x[i], y[i]) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := b.(json.Number)
		return ok && (x == y || parseDecimal(string(x)).equal(parseDecimal(string(y))))
	default: // string, bool, nil
		return a == b
	}
}

// StoredEqual reports whether two documents are the same once stored as a
// protobuf Struct, as the registry stores a document's content: numbers
// become IEEE doubles there, so 9007199254740993 comes back as
// 9007199254740992 and must not read as a change. RFC 8785 writes every number
// as its nearest double, so the same canonical bytes mean the same stored
// document. Errors are Canonical's.
func StoredEqual(a, b []byte) (bool, error) {
	ca, err := Canonical(a)
	if err != nil {
		return false, err
	}
	cb, err := Canonical(b)
	if err != nil {
		return false, err
	}
	return string(ca) == string(cb), nil
}
