package state

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
)

// An interface URL of exactly maxURILength bytes is taken; one byte more is
// refused, naming the field.
func TestInterfaceURLAtItsCap(t *testing.T) {
	s := open(t, Options{})
	for extra, ok := range map[int]bool{0: true, 1: false} {
		u := "https://example.test/"
		u += strings.Repeat("a", maxURILength-len(u)+extra)
		svc := endpointService()
		svc.Interfaces = []*resource.Interface{{Url: u, ProtocolBinding: "HTTP_JSON"}}
		_, err := s.CreateService("", parent, "url-"+strconv.Itoa(len(u)), svc)
		if ok && err != nil {
			t.Errorf("an interface URL of %d bytes: %v", len(u), err)
		}
		if !ok {
			wantCode(t, err, InvalidArgument)
			if !slices.Contains(fields(err), "interfaces[0].url") {
				t.Errorf("an interface URL of %d bytes: %v, want interfaces[0].url named", len(u), err)
			}
		}
	}
}
