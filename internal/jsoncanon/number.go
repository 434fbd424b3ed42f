package jsoncanon

import (
	"encoding/json"
	"math/big"
	"strconv"
	"strings"
)

// decimal is the exact value of a JSON number: digits × 10^exp, with digits
// free of leading and trailing zeros ("" for zero, whose sign is dropped:
// -0 equals 0, as in IEEE 754 and in JCS, which writes both as 0).
type decimal struct {
	neg    bool
	digits string
	exp    int64
	// bigExp replaces exp when the written exponent does not fit an int64
	// (more than 18 digits): rare, but Equal must stay exact.
	bigExp *big.Int
}

// parseDecimal reads a number literal that the reader accepted.
func parseDecimal(lit string) decimal {
	var d decimal
	mant, expText := lit, ""
	if i := strings.IndexAny(lit, "eE"); i >= 0 {
		mant, expText = lit[:i], lit[i+1:]
	}
	if d.neg = strings.HasPrefix(mant, "-"); d.neg {
		mant = mant[1:]
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	trimmed := strings.TrimRight(digits, "0")
	if trimmed == "" {
		return decimal{} // zero, whatever its sign and exponent
	}
	d.digits = trimmed
	shift := int64(len(digits)-len(trimmed)) - int64(len(frac))
	expText = strings.TrimPrefix(expText, "+")
	expNeg := strings.HasPrefix(expText, "-")
	expDigits := strings.TrimLeft(strings.TrimPrefix(expText, "-"), "0")
	if len(expDigits) <= 18 {
		e, _ := strconv.ParseInt("0"+expDigits, 10, 64)
		if expNeg {
			e = -e
		}
		d.exp = e + shift
		return d
	}
	d.bigExp, _ = new(big.Int).SetString(expText, 10)
	d.bigExp.Add(d.bigExp, big.NewInt(shift))
	return d
}

func (d decimal) equal(o decimal) bool {
	if d.neg != o.neg || d.digits != o.digits {
		return false
	}
	if d.bigExp == nil && o.bigExp == nil {
		return d.exp == o.exp
	}
	return d.exponent().Cmp(o.exponent()) == 0
}

func (d decimal) exponent() *big.Int {
	if d.bigExp != nil {
		return d.bigExp
	}
	return big.NewInt(d.exp)
}

// inDoubleRange reports whether a number literal the reader accepted is
// within the range of IEEE 754 doubles. ParseFloat fails on such a literal
// only when its magnitude rounds beyond the largest double; one too small
// for a double rounds to 0 or a subnormal, as RFC 8785 rounds any number.
func inDoubleRange(lit string) bool {
	_, err := strconv.ParseFloat(lit, 64)
	return err == nil
}

// appendES writes a number as RFC 8785 requires: the ECMAScript
// Number.prototype.toString form of the nearest IEEE 754 double. As the RFC
// says, every number becomes that double, so an integer beyond 2^53 that no
// double holds is rounded (9007199254740993 is written 9007199254740992):
// another JCS implementation, a signature verifier's say, writes the same
// bytes. Canonical bytes are for hashing and signing; Equal, which is exact,
// decides whether two documents are the same. The reader refused every
// number beyond the double range, so each has a double.
func appendES(b []byte, n json.Number) []byte {
	f, _ := strconv.ParseFloat(string(n), 64)
	return appendESFloat(b, f)
}

// appendESFloat implements ECMAScript's Number::toString for a finite f.
func appendESFloat(b []byte, f float64) []byte {
	if f == 0 {
		return append(b, '0') // -0 too
	}
	if f < 0 {
		b = append(b, '-')
		f = -f
	}
	// The shortest digits that round-trip, and n: the value is 0.digits × 10^n.
	sci := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±xx
	mant, expText, _ := strings.Cut(sci, "e")
	digits := strings.Replace(mant, ".", "", 1)
	e, _ := strconv.Atoi(expText)
	n, k := e+1, len(digits)
	switch {
	case k <= n && n <= 21:
		b = append(b, digits...)
		return append(b, strings.Repeat("0", n-k)...)
	case 0 < n && n <= 21:
		return append(append(append(b, digits[:n]...), '.'), digits[n:]...)
	case -6 < n && n <= 0:
		b = append(b, "0."...)
		return append(append(b, strings.Repeat("0", -n)...), digits...)
	}
	b = append(b, digits[0])
	if k > 1 {
		b = append(append(b, '.'), digits[1:]...)
	}
	b = append(b, 'e')
	if n-1 >= 0 {
		b = append(b, '+')
	}
	return strconv.AppendInt(b, int64(n-1), 10)
}
