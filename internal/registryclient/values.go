package registryclient

// CountValues counts the JSON values of a document on its bytes, without
// decoding it, as the caps of a read count an answer (countValues): one for
// each object, array, string, number and literal, an upper bound for a
// document with empty containers. The provider counts a record's documents
// with it before it parses them.
func CountValues(doc []byte) int64 { return countValues(doc) }
