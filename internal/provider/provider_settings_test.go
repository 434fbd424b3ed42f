package provider

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// configureWarnings configures the provider with the given attributes (the
// others null) and returns the summaries of the warnings Configure reports.
func configureWarnings(t *testing.T, set map[string]string) []string {
	t.Helper()
	for _, env := range []string{"AGENTREGISTRY_ENDPOINT", "AGENTREGISTRY_APPHUB_ENDPOINT", "AGENTREGISTRY_ACCESS_TOKEN", "AGENTREGISTRY_PROJECT"} {
		t.Setenv(env, "")
	}
	s := providerserver.NewProtocol6(&agentRegistryProvider{version: "test"})()
	schemas, err := s.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || len(schemas.Diagnostics) > 0 {
		t.Fatalf("GetProviderSchema: %v %v", err, schemas.Diagnostics)
	}
	typ := schemas.Provider.ValueType()
	attrs := map[string]tftypes.Value{}
	for name, attrType := range as[tftypes.Object](t, typ).AttributeTypes {
		attrs[name] = tftypes.NewValue(attrType, nil)
	}
	for name, v := range set {
		attrs[name] = tftypes.NewValue(tftypes.String, v)
	}
	config, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, attrs))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := s.ConfigureProvider(context.Background(), &tfprotov6.ConfigureProviderRequest{TerraformVersion: "1.10.0", Config: &config})
	if err != nil {
		t.Fatal(err)
	}
	var warnings []string
	for _, d := range resp.Diagnostics {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			t.Fatalf("ConfigureProvider: %s: %s", d.Summary, d.Detail)
		}
		warnings = append(warnings, d.Summary+": "+d.Detail)
	}
	return warnings
}

// Configure (which runs at plan) warns when a token would go to a plain
// http:// endpoint that is not loopback, once per endpoint, whether it was
// configured or comes from Application Default Credentials, and says nothing
// otherwise.
func TestConfigureWarnsOfATokenInClear(t *testing.T) {
	for _, c := range []struct {
		name string
		set  map[string]string
		want []string // endpoints named in warnings
	}{
		{"remote http with a token", map[string]string{"endpoint": "http://registry.example.test:8787", "access_token": "t"}, []string{"http://registry.example.test:8787"}},
		{"remote App Hub over http", map[string]string{"endpoint": "https://registry.example.test", "apphub_endpoint": "http://10.0.0.7", "access_token": "t"}, []string{"http://10.0.0.7"}},
		{"https", map[string]string{"endpoint": "https://registry.example.test", "access_token": "t"}, nil},
		{"loopback IPv4", map[string]string{"endpoint": "http://127.0.0.1:8787", "access_token": "t"}, nil},
		{"loopback IPv6", map[string]string{"endpoint": "http://[::1]:8787", "access_token": "t"}, nil},
		{"localhost", map[string]string{"endpoint": "http://localhost:8787", "access_token": "t"}, nil},
		{"remote http without a token", map[string]string{"endpoint": "http://registry.example.test:8787"}, nil},
		{"remote http with impersonation", map[string]string{"endpoint": "http://registry.example.test:8787",
			"impersonate_service_account": "deployer@p.iam.gserviceaccount.com"}, []string{"http://registry.example.test:8787"}},
		{"Application Default Credentials to Google over http", map[string]string{"endpoint": "http://agentregistry.googleapis.com"},
			[]string{"http://agentregistry.googleapis.com"}},
		{"Application Default Credentials to Google over https", map[string]string{"endpoint": "https://agentregistry.googleapis.com"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			withApplicationDefaultCredentials(t) // found, never asked for a token at configure
			c.set["project"] = "test-project"
			got := configureWarnings(t, c.set)
			if len(got) != len(c.want) {
				t.Fatalf("warnings %q, want %d naming %q", got, len(c.want), c.want)
			}
			for i, w := range got {
				if !strings.HasPrefix(w, "Access Token Sent Over Plain HTTP: ") || !strings.Contains(w, c.want[i]+", a plain http:// URL") {
					t.Errorf("warning %q, want one naming %s", w, c.want[i])
				}
			}
		})
	}
}

// withApplicationDefaultCredentials clears the provider's environment and
// gives Application Default Credentials an authorized_user file whose token
// endpoint is never reached (Configure mints no token).
func withApplicationDefaultCredentials(t *testing.T) {
	t.Helper()
	withoutCredentials(t)
	adc := filepath.Join(t.TempDir(), "adc.json")
	content := `{"type":"authorized_user","client_id":"c","client_secret":"s","refresh_token":"r","token_uri":"http://127.0.0.1:1/token"}`
	if err := os.WriteFile(adc, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", adc)
}

// billing_project without user_project_override does nothing, as in the
// Google provider; Configure says so instead of ignoring it without a word.
func TestConfigureWarnsOfABillingProjectWithoutOverride(t *testing.T) {
	withoutCredentials(t)
	t.Setenv("AGENTREGISTRY_BILLING_PROJECT", "")
	t.Setenv("GOOGLE_BILLING_PROJECT", "")
	got := configureWarnings(t, map[string]string{"endpoint": "http://127.0.0.1:8787", "project": "p", "billing_project": "billing"})
	if len(got) != 1 || !strings.HasPrefix(got[0], "Billing Project Ignored: ") ||
		!strings.Contains(got[0], "user_project_override = true") {
		t.Errorf("warnings %q, want one that billing_project needs user_project_override", got)
	}
	t.Setenv("USER_PROJECT_OVERRIDE", "true")
	if got := configureWarnings(t, map[string]string{"endpoint": "http://127.0.0.1:8787", "project": "p", "billing_project": "billing"}); len(got) != 0 {
		t.Errorf("warnings %q with the override set", got)
	}
}
