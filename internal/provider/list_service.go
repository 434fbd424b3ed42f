package provider

// The one list resource behind every service kind (agentregistry_agent,
// agentregistry_mcp_server, agentregistry_endpoint): services.list, a page at
// a time, keeping the services of the kind; with a query, only those whose
// derived record the kind's search returns. With include_resource, each
// result is the resource exactly as Read stores it after an import
// (serviceResource.fromService), with the derived record's id taken from the
// kind's derived-record list rather than one GET per service.

import (
	"context"
	"fmt"
	"iter"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/searchquery"
)

// derivedRecord is a derived record's name and id (an Agent's name and agentId).
type derivedRecord struct{ name, id string }

// derivedPages yields pages of derived records.
type derivedPages = func(ctx context.Context, c *registryclient.Client, parent string) iter.Seq2[[]derivedRecord, error]

// serviceListKind is what a service kind's list adds to the resource's kind.
type serviceListKind struct {
	plural, description string
	// derived lists the kind's derived records, for their ids.
	derived derivedPages
	// query and search are the kind's search grammar and a search's hits;
	// nil for a kind the registry does not search.
	query  *searchquery.Schema
	search func(ctx context.Context, c *registryclient.Client, parent, query string) iter.Seq2[[]derivedRecord, error]
	// searchMethod names the search in the docs ("agents:search").
	searchMethod string
}

// serviceList lists the services of one kind.
type serviceList[M any, P kindModel[M]] struct {
	listBase
	res  *serviceResource[M, P]
	kind serviceListKind
}

func newServiceList[M any, P kindModel[M]](res resource.Resource, kind serviceListKind) *serviceList[M, P] {
	r, ok := res.(*serviceResource[M, P])
	if !ok {
		panic(fmt.Sprintf("newServiceList: %T is not the *serviceResource of its model", res)) // a bug in the list's constructor
	}
	l := &serviceList[M, P]{
		listBase: listBase{resourceBase: resourceBase{naming: r.naming}, plural: kind.plural, query: kind.query, search: kind.searchMethod},
		res:      r, kind: kind,
	}
	// The framework's interfaces a service list implements, whatever its
	// kind: go build checks them here for every M and P.
	var _ interface {
		list.ListResourceWithConfigure
		list.ListResourceWithValidateConfig
	} = l
	return l
}

// Configure hands the provider data to the list and to the resource whose
// Read the results follow.
func (l *serviceList[M, P]) Configure(ctx context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.listBase.Configure(ctx, req, resp)
	l.res.Configure(ctx, req, resp)
}

const serviceFilterDoc = "Lists only the services that match this filter of `services.list` (AIP-160): fields " +
	"`name`, `display_name` and `description` (Google's registry also filters on `labels`), such as " +
	"`display_name:billing` or `name=\"projects/p/locations/global/services/billing-agent\"`."

func (l *serviceList[M, P]) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = l.listSchema(l.kind.description, serviceFilterDoc)
}

func (l *serviceList[M, P]) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	l.run(ctx, req, stream, func(s *listStream, cfg listConfig) error {
		c := l.data.Client
		var ids func(name string) (string, error)
		var hits map[string]string
		if cfg.query != "" {
			var err error
			if hits, err = collectDerived(l.kind.search(ctx, c, cfg.parent, cfg.query)); err != nil || len(hits) == 0 {
				return err
			}
			ids = func(name string) (string, error) { return hits[name], nil } //nolint:unparam // the signature of derivedIndex.id
		} else if req.IncludeResource {
			index, stop := newDerivedIndex(l.kind.derived(ctx, c, cfg.parent))
			defer stop()
			ids = index.id
		}
		found := 0
		return emitPages(c.ServicePages(ctx, cfg.parent, cfg.filter, listPageSize), func(svc *agentregistry.Service) (bool, error) {
			if _, hit := hits[svc.RegistryResource]; serviceKindOf(svc) != l.naming.typeSuffix || (hits != nil && !hit) {
				return true, nil
			}
			found++
			more, err := l.emit(ctx, s, svc, ids)
			// Once every hit is listed, the other pages hold none.
			return more && (hits == nil || found < len(hits)), err
		})
	})
}

// emit sends one service; with include_resource, the resource as Read
// stores it after an import.
func (l *serviceList[M, P]) emit(ctx context.Context, s *listStream, svc *agentregistry.Service, ids func(string) (string, error)) (bool, error) {
	var derivedID string
	if s.req.IncludeResource && svc.RegistryResource != "" {
		var err error
		if derivedID, err = ids(svc.RegistryResource); err != nil {
			return false, err
		}
	}
	n, _ := l.naming.parse(svc.Name)
	fill := fillFrom(ctx, func(m *M) {
		base := P(m).service()
		for attr, v := range map[*types.String]string{&base.ID: svc.Name, &base.Name: svc.Name, &base.ServiceID: n.ID,
			&base.Project: n.Project, &base.Location: n.Location} {
			*attr = types.StringValue(v)
		}
		if derivedID != "" { // else fromService reads it, as Read does
			base.RegistryResource = types.StringValue(svc.RegistryResource)
			*P(m).derivedRecordID() = types.StringValue(derivedID)
		}
	}, func(m *M) diag.Diagnostics { return l.res.fromService(ctx, m, svc, "") })
	return s.emit(svc.Name, svc.DisplayName, svc, fill), nil
}

// collectDerived reads every page of derived records into a map from name to id.
func collectDerived(seq iter.Seq2[[]derivedRecord, error]) (map[string]string, error) {
	out := map[string]string{}
	for page, err := range seq {
		if err != nil {
			return nil, err
		}
		for _, r := range page {
			out[r.name] = r.id
		}
	}
	return out, nil
}

// derivedIndex finds derived records' ids, reading the derived-record list
// only as far as needed: the registry lists services and their derived
// records in the same order (by id), so a page of services costs about one
// page of derived records.
type derivedIndex struct {
	next func() ([]derivedRecord, error, bool)
	ids  map[string]string
	done bool
}

func newDerivedIndex(seq iter.Seq2[[]derivedRecord, error]) (*derivedIndex, func()) {
	next, stop := iter.Pull2(seq)
	return &derivedIndex{next: next, ids: map[string]string{}}, stop
}

// id is the id of the derived record with this name; "" when the registry
// lists no such record.
func (x *derivedIndex) id(name string) (string, error) {
	for {
		if id, ok := x.ids[name]; ok || x.done {
			return id, nil
		}
		page, err, ok := x.next()
		if !ok {
			x.done = true
			continue
		}
		if err != nil {
			return "", err
		}
		for _, r := range page {
			x.ids[r.name] = r.id
		}
	}
}

// mapPages turns a stream of pages of T into pages of derived records.
func mapPages[T any](seq iter.Seq2[[]T, error], record func(T) derivedRecord) iter.Seq2[[]derivedRecord, error] {
	return func(yield func([]derivedRecord, error) bool) {
		for page, err := range seq {
			out := make([]derivedRecord, 0, len(page))
			for _, item := range page {
				out = append(out, record(item))
			}
			if !yield(out, err) {
				return
			}
		}
	}
}
