package testkit

// SectionBlocks and Blocks remain for internal/provider's guide_drift_job_test.go
// until the drift guide is folded into the guide table (internal/e2e).

// SectionBlocks is the blocks of a document's section under heading.
func SectionBlocks(doc, heading string) []Block {
	blocks, _ := NewPage("", doc).Section(heading)
	return blocks
}

// Blocks is the blocks of one language.
func Blocks(blocks []Block, lang string) []Block { return Of(blocks, lang) }
