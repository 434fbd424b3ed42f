package tooltext

import (
	"sort"
	"strconv"
	"unicode/utf8"
)

// Flooding: a description far beyond its peers'.

// Flooding: a description more than floodRatio times the median of the
// document's other descriptions, and over floodMinimum characters.
const (
	floodRatio   = 8
	floodMinimum = 4000
	floodPeers   = 3
)

func (a *analysis) checkFlood() {
	lengths := make([]int, len(a.info))
	var all []int
	for i, t := range a.info {
		lengths[i] = utf8.RuneCountInString(t.description)
		if t.descPointer != "" {
			all = append(all, lengths[i])
		}
	}
	if len(all) <= floodPeers {
		return
	}
	sort.Ints(all)
	median := max(all[len(all)/2], 1)
	for i, t := range a.info {
		if t.descPointer != "" && lengths[i] > floodMinimum && lengths[i] > floodRatio*median {
			a.add(i, t.descPointer, "description-flood", "the description has "+strconv.Itoa(lengths[i])+
				" characters; the median of this document's descriptions is "+strconv.Itoa(median))
		}
	}
}
