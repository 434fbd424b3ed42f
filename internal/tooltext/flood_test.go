package tooltext

import (
	"encoding/json"
	"strings"
	"testing"
)

// floodDoc is a document whose tools have descriptions of these lengths in
// characters (-1: no description).
func floodDoc(t *testing.T, lengths ...int) []byte {
	t.Helper()
	var tools []map[string]any
	for i, n := range lengths {
		tool := map[string]any{"name": "tool" + strings.Repeat("x", i), "inputSchema": map[string]any{"type": "object"}}
		if n >= 0 {
			tool["description"] = strings.Repeat("x ", n/2) + strings.Repeat("x", n%2)
		}
		tools = append(tools, tool)
	}
	doc, err := json.Marshal(map[string]any{"tools": tools})
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// description-flood fires on a description of more than 4,000 characters
// and more than eight times the median of the document's descriptions,
// when the document has more than three of them.
func TestFlood_thresholds(t *testing.T) {
	for _, c := range []struct {
		name    string
		lengths []int
		want    bool
	}{
		{"eight times the median and one", []int{600, 600, 600, 4801}, true},
		{"exactly eight times the median", []int{600, 600, 600, 4800}, false},
		{"4,001 characters", []int{100, 100, 100, 4001}, true},
		{"exactly 4,000 characters", []int{100, 100, 100, 4000}, false},
		{"three descriptions only", []int{100, 100, 5000}, false},
		{"a tool without a description is no peer", []int{100, -1, 100, 5000}, false},
		{"four descriptions among five tools", []int{100, -1, 100, 100, 5000}, true},
	} {
		fs, err := Analyze(floodDoc(t, c.lengths...))
		if err != nil {
			t.Fatal(err)
		}
		if got := len(ofRule(fs, "description-flood")) > 0; got != c.want {
			t.Errorf("%s %v: description-flood fired %v, want %v", c.name, c.lengths, got, c.want)
		}
	}
	fs, _ := Analyze(floodDoc(t, 600, 600, 600, 4801))
	want := "Description far beyond its peers: the description has 4801 characters; the median of this document's descriptions is 600"
	if got := ofRule(fs, "description-flood"); len(got) != 1 || got[0].Message != want || got[0].Pointer != "/tools/3/description" {
		t.Errorf("findings %+v, want one at /tools/3/description: %s", got, want)
	}
}
