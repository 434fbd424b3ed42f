package skillpkg

import (
	"errors"
	"testing"
)

// The server parses front matter and archives from any client: neither may
// panic, and a refusal is always a *ValidationError or a plain error.
func FuzzParseFrontmatter(f *testing.F) {
	f.Add([]byte(goodMD), "pdf-tools")
	f.Add([]byte("---\nmetadata:\n  a: [1]\n---\n"), "")
	f.Add([]byte("---\n- a\n---\n"), "x")
	f.Fuzz(func(t *testing.T, md []byte, folder string) {
		fm, err := ParseFrontmatter(md, folder)
		var ve *ValidationError
		if err != nil && (!errors.As(err, &ve) || len(ve.Problems) == 0) {
			t.Fatalf("error without problems: %v", err)
		}
		if err == nil && (fm == nil || fm.Name == "") {
			t.Fatalf("accepted without a name: %+v", fm)
		}
	})
}

func FuzzReadSkillFile(f *testing.F) {
	z, _ := Zip(map[string][]byte{"SKILL.md": []byte(goodMD)})
	f.Add(z)
	f.Add([]byte("PK\x05\x06"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _, _ = ReadSkillFile(b)
	})
}
