package tooltext

import (
	"strings"
	"testing"
)

// Each class of hidden character fires its rule from its first character
// to its last, and not on the characters beside the range.
func TestCharacters_rangesFireToTheirEnds(t *testing.T) {
	for _, c := range []struct {
		text, rule string
		fire       bool
	}{
		{"a\U000E0000b", "unicode-tags", true},
		{"a\U000E007Fb", "unicode-tags", true},
		{"a\U000E0080b", "unicode-tags", false},
		{"a\u202Ab", "bidi-control", true},
		{"a\u202Eb", "bidi-control", true},
		{"a\u2066b", "bidi-control", true},
		{"a\u2069b", "bidi-control", true},
		{"a\u2065b", "bidi-control", false},
		{"a\u206Ab", "bidi-control", false},
		{"a\u0080b", "terminal-escape", true},
		{"a\u009Fb", "terminal-escape", true},
		{"a\u00A0b", "terminal-escape", false},
		{"\U0001F600\uFE00\uFE00", "variation-selector-run", true},
		{"\U0001F600\uFE0F\uFE0F", "variation-selector-run", true},
		{"\U0001F600\U000E0100\U000E0100", "variation-selector-run", true},
		{"\U0001F600\U000E01EF\U000E01EF", "variation-selector-run", true},
		{"\U0001F600\U000E01F0\U000E01F0", "variation-selector-run", false},
		{"\U0001F600\uFE0F", "variation-selector-run", false},
	} {
		if got := fires(t, described(c.text), c.rule); got != c.fire {
			t.Errorf("%+q: %s fired %v, want %v", c.text, c.rule, got, c.fire)
		}
	}
}

// The characters that draw nothing, at both ends of each of their ranges:
// four in a row are an invisible run; four of a character just outside a
// range are not.
func TestCharacters_invisibleSetAtItsBounds(t *testing.T) {
	invisible := []rune{0xad, 0x34f, 0x61c, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x180b, 0x180f, 0x200b, 0x200f,
		0x202a, 0x202e, 0x2060, 0x206f, 0x3164, 0xfeff, 0xffa0, 0xfff9, 0xfffb, 0x1d173, 0x1d17a, 0xe0000, 0xe0fff}
	visible := []rune{0xac, 0xae, 0x34e, 0x350, 0x61b, 0x61d, 0x115e, 0x1161, 0x17b3, 0x17b6, 0x180a, 0x1810,
		0x2010, 0x2070, 0x3163, 0x3165, 0xfefe, 0xff00, 0xff9f, 0xffa1, 0xfff8, 0xfffc, 0x1d172, 0x1d17b, 0xe1000}
	for _, r := range invisible {
		if !fires(t, described("Adds."+strings.Repeat(string(r), 4)+"x"), "invisible-run") {
			t.Errorf("four U+%04X in a row are not an invisible run", r)
		}
	}
	for _, r := range visible {
		if fires(t, described("Adds."+strings.Repeat(string(r), 4)+"x"), "invisible-run") {
			t.Errorf("four U+%04X in a row are an invisible run", r)
		}
	}
}

// Four characters that draw nothing make a run, spaces between them
// aside; three do not.
func TestCharacters_invisibleRunOfFour(t *testing.T) {
	checkDescriptions(t, "invisible-run", map[string]bool{
		"Adds.\u200b\u200c\u200d\u2060 x":    true,
		"Adds.\u200b \u200c \u200d \u2060 x": true,
		"Adds.\u200b\u200c\u200d x":          false,
		"Adds.\u200b\u200c\u200d x\u200b":    false,
	})
}

// Padding is 64 blank characters, or 16 line breaks, followed by text;
// the message quotes the text from where the blank run starts.
func TestCharacters_paddingThresholds(t *testing.T) {
	checkDescriptions(t, "padding", map[string]bool{
		"Adds." + strings.Repeat(" ", 64) + "Also read the notes.":  true,
		"Adds." + strings.Repeat(" ", 63) + "Also read the notes.":  false,
		"Adds." + strings.Repeat("\n", 16) + "Also read the notes.": true,
		"Adds." + strings.Repeat("\n", 15) + "Also read the notes.": false,
		"Adds." + strings.Repeat(" ", 100):                          false,
	})
	got := message(t, described("Adds."+strings.Repeat(" ", 64)+"Also read the notes."), "padding")
	want := `Padding that pushes text out of view: "Adds.` + strings.Repeat(" ", 40) + `..."`
	if got != want {
		t.Errorf("message\n got %q\nwant %q", got, want)
	}
}

// A zero-width character fires zero-width-in-text beside a printable ASCII
// character ("!" to "~"), not beside a space, a control or nothing.
func TestCharacters_zeroWidthBesideASCII(t *testing.T) {
	checkDescriptions(t, "zero-width-in-text", map[string]bool{
		"ig\u200bnore": true,
		"!\u200b":      true,
		"\u200b~":      true,
		"a \u200b b":   false,
		"\u200b":       false,
		"\u200b\u007f": false,
		"\u007f\u200b": false,
	})
}

// A message quotes up to 20 characters before what fired and 40 from it,
// characters not bytes, with "..." where it cut, and names the first
// place in the text that fired, even at its very start.
func TestCharacters_messageExcerpt(t *testing.T) {
	digits, letters := strings.Repeat("0123456789", 5), strings.Repeat("abcdefghij", 5)
	accents := strings.Repeat("é", 25)
	for _, c := range []struct{ text, want string }{
		{digits + "\u202e" + letters, `"...` + digits[30:] + `\u202e` + letters[:39] + `..."`},
		{accents + "\u202e" + letters, `"...` + accents[10:] + `\u202e` + letters[:39] + `..."`},
		{"x\u202ey", `"x\u202ey"`},
		{"\u202e" + letters + "\u202e", `"\u202e` + letters[:39] + `..."`},
		{letters[:19] + "\u202e" + letters[:20], `"` + letters[:19] + `\u202e` + letters[:20] + `"`},
	} {
		got := message(t, described(c.text), "bidi-control")
		if want := "Bidirectional control character: " + c.want; got != want {
			t.Errorf("%+q:\n got %s\nwant %s", c.text, got, want)
		}
	}
}

// A finding at the start of a text is recorded there, and a second one
// further on does not move it: the message quotes the start of the text.
func TestCharacters_firstPlaceAtOffsetZero(t *testing.T) {
	later := " " + strings.Repeat("x", 30) + " "
	for rule, hidden := range map[string]string{
		"unicode-tags":           "\U000E0041",
		"bidi-control":           "\u202e",
		"terminal-escape":        "\u001b[0m",
		"control-character":      "\b",
		"invisible-run":          "\u200b\u200b\u200b\u200b",
		"variation-selector-run": "\uFE01\uFE02",
	} {
		got := message(t, described(hidden+later+hidden), rule)
		if want := `"` + escapeHidden(hidden) + " xxx"; !strings.Contains(got, want) {
			t.Errorf("%s: the message does not quote the start of the text (%s): %s", rule, want, got)
		}
	}
}
