package tooltext

import (
	"strings"
	"testing"
)

// instruction-tag quotes the tag from its first opening mark to the end of
// its name: up to three marks ("<<", "<</", "[[") open a tag, and an
// attribute after a space is not part of the name.
func TestTags_quoteOpeningMarksAndName(t *testing.T) {
	for text, want := range map[string]string{
		`Adds. <IMPORTANT>Read it.</IMPORTANT>`:     `"<IMPORTANT>"`,
		`Adds. <IMPORTANT priority="high">Read it.`: `"<IMPORTANT "`,
		`<<SYS>> Read it. <</SYS>>`:                 `"<<SYS>"`,
		`Adds. <<</SYSTEM> read`:                    `"<<</SYSTEM>"`,
		`Adds. <<<</SYSTEM> read`:                   `"<<</SYSTEM>"`,
		`Adds. [SYSTEM DIRECTIVE]: read`:            `"[SYSTEM DIRECTIVE]"`,
		`Adds. [INST] read [/INST]`:                 `"[INST]"`,
	} {
		got := message(t, described(text), "instruction-tag")
		if got != "Instruction tag aimed at the model: "+want {
			t.Errorf("%s: %s, want the quote %s", text, got, want)
		}
	}
}

// A tag's name is read up to 47 characters, wherever the tag is in the
// text.
func TestTags_nameLengthAndPlace(t *testing.T) {
	name := func(n int) string { return "SYSTEM_" + strings.Repeat("X", n-len("SYSTEM_")) }
	checkDescriptions(t, "instruction-tag", map[string]bool{
		"Adds. <" + name(47) + "> read":                              true,
		"Adds. <" + name(48) + "> read":                              false,
		strings.Repeat("Adds two numbers. ", 5) + "<IMPORTANT>":      true,
		strings.Repeat("Adds two numbers. ", 5) + "<IMPORTANT attr>": true,
	})
}
