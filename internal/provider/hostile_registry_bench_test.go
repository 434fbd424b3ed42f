package provider

// The registry cases of BenchmarkHostileLiveDocuments (issue 35): a registry
// that pages without end, read by a data source and by a `terraform query`
// list with include_resource, each in a process of its own whose peak RSS
// is printed beside the live documents' cases.

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func registryHostileCases() []hostileCase {
	serve := func(page func(n int64) (int, int, string)) func(b *testing.B) string {
		return func(b *testing.B) string {
			srv := httptest.NewServer(&hostilePages{page: page})
			b.Cleanup(srv.Close)
			return srv.URL
		}
	}
	full := func(n int64) (int, int, string) { return 100, 8 << 10, fmt.Sprint("t", n) }
	empty := func(n int64) (int, int, string) { return 0, 0, fmt.Sprint("t", n) }
	huge := func(n int64) (int, int, string) { return 0, 0, fmt.Sprint(n, strings.Repeat("t", 256<<10)) }
	agents := func(ctx context.Context, url string) string {
		return rpcRead(ctx, url, "agentregistry_agents", false)
	}
	query := func(ctx context.Context, url string) string {
		return rpcRead(ctx, url, "agentregistry_agent", true)
	}
	return []hostileCase{
		{"registry: endless full pages, agents data source", serve(full), agents},
		{"registry: endless full pages, query of agents", serve(full), query},
		{"registry: endless empty pages, agents data source", serve(empty), agents},
		{"registry: endless empty pages, query of agents", serve(empty), query},
		{"registry: 256 KB page tokens, agents data source", serve(huge), agents},
	}
}

// rpcRead configures the provider for the registry at url and reads the
// agents data source (query "x"), or lists typ with include_resource and no
// limit Terraform would stop at; it returns the first error's summary and
// detail.
func rpcRead(ctx context.Context, url, typ string, list bool) string {
	s := providerserver.NewProtocol6(New("test")())()
	schemas, err := s.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		return err.Error()
	}
	object := func(t tftypes.Type, set map[string]string) (*tfprotov6.DynamicValue, error) {
		ot, _ := t.(tftypes.Object)
		attrs := map[string]tftypes.Value{}
		for name, at := range ot.AttributeTypes {
			attrs[name] = tftypes.NewValue(at, nil)
		}
		for name, v := range set {
			attrs[name] = tftypes.NewValue(tftypes.String, v)
		}
		dv, err := tfprotov6.NewDynamicValue(ot, tftypes.NewValue(ot, attrs))
		return &dv, err
	}
	cfg, err := object(schemas.Provider.ValueType(), map[string]string{"endpoint": url, "project": "test-project"})
	if err != nil {
		return err.Error()
	}
	if _, err := s.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{TerraformVersion: "1.16.3", Config: cfg}); err != nil {
		return err.Error()
	}
	first := func(diags []*tfprotov6.Diagnostic) string {
		for _, d := range diags {
			if d.Severity == tfprotov6.DiagnosticSeverityError {
				return d.Summary + ": " + d.Detail
			}
		}
		return ""
	}
	if !list {
		dv, err := object(schemas.DataSourceSchemas[typ].ValueType(), map[string]string{"query": "x"})
		if err != nil {
			return err.Error()
		}
		resp, err := s.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: typ, Config: dv})
		if err != nil {
			return err.Error()
		}
		return first(resp.Diagnostics)
	}
	dv, err := object(schemas.ListResourceSchemas[typ].ValueType(), nil)
	if err != nil {
		return err.Error()
	}
	lister, ok := s.(tfprotov6.ListResourceServer)
	if !ok {
		return "the provider serves no list resources"
	}
	stream, err := lister.ListResource(ctx, &tfprotov6.ListResourceRequest{TypeName: typ, Config: dv, IncludeResource: true, Limit: 1 << 40})
	if err != nil {
		return err.Error()
	}
	for res := range stream.Results {
		if msg := first(res.Diagnostics); msg != "" {
			return msg
		}
	}
	return ""
}
