package registryserver

// len is the number of live documents in the index.
func (ix *index) len() int { return len(ix.ids) }
