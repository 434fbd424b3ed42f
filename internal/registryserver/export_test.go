package registryserver

// PageToken is the token this server would issue for a page of a list whose
// query hashes from query and whose last record is after: for tests of a
// token the server has no occasion to issue itself.
func PageToken(after string, query ...string) string {
	return encodePageToken(after, queryHash(query...))
}
