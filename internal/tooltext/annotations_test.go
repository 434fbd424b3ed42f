package tooltext

import "testing"

// read-only-contradiction takes the verb from the tool's name first, then
// from its description's first word (a third person's "s" or "es"
// dropped), and reads a tool that has neither without failing.
func TestReadOnly_verbOfNameThenDescription(t *testing.T) {
	const ro = `,"inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}`
	for tool, want := range map[string]string{
		`{"name":"delete_file","description":"Removes a file."` + ro:                                  `"delete"`,
		`{"name":"_delete_all","description":"Lists files."` + ro:                                     `"delete"`,
		`{"description":"Deletes a file."` + ro:                                                       `"deletes"`,
		`{"name":"","description":"Deletes a file."` + ro:                                             `"deletes"`,
		`{"name":"git","description":"Pushes commits."` + ro:                                          `"pushes"`,
		`{"name":"disk","description":"Erases the disk."` + ro:                                        `"erases"`,
		`{"name":"list_files"` + ro:                                                                   "",
		`{"name":"list_files","description":""` + ro:                                                  "",
		`{"name":"list_files","description":"Lists files."` + ro:                                      "",
		`{"name":"delete_file","description":"Deletes a file.","annotations":{"readOnlyHint":false}}`: "",
	} {
		fs := ofRule(analyzeTool(t, tool), "read-only-contradiction")
		switch {
		case want == "" && len(fs) > 0:
			t.Errorf("%s: fired: %s", tool, fs[0].Message)
		case want != "" && len(fs) != 1:
			t.Errorf("%s: fired %d times, want once", tool, len(fs))
		case want != "" && fs[0].Message != "readOnlyHint contradicted by the tool's own text: readOnlyHint is true, and the tool says "+want:
			t.Errorf("%s: message %q, want the verb %s", tool, fs[0].Message, want)
		case want != "" && fs[0].Pointer != "/tools/0/annotations/readOnlyHint":
			t.Errorf("%s: pointer %s", tool, fs[0].Pointer)
		}
	}
}
