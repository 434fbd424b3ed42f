package validators

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
)

// stringCase is one value given to a string validator: wantErr is "" for a
// value it accepts, else a fragment the error's detail must hold.
type stringCase struct {
	name    string
	value   types.String
	wantErr string
}

func validateString(v validator.String, value types.String) diag.Diagnostics {
	req := validator.StringRequest{Path: path.Root("attr"), ConfigValue: value}
	resp := &validator.StringResponse{}
	v.ValidateString(context.Background(), req, resp)
	return resp.Diagnostics
}

func runStringCases(t *testing.T, v validator.String, cases []stringCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			diags := validateString(v, c.value)
			if c.wantErr == "" {
				if diags.HasError() {
					t.Fatalf("refused %q: %v", c.value.ValueString(), diags)
				}
				return
			}
			if !diags.HasError() {
				t.Fatalf("accepted %q, want an error holding %q", c.value.ValueString(), c.wantErr)
			}
			if got := diags.Errors()[0].Detail(); !strings.Contains(got, c.wantErr) {
				t.Errorf("error = %q, want it to hold %q", got, c.wantErr)
			}
		})
	}
}

// Null and unknown values are left to Required and to apply, for every
// string validator of the package.
func unset() []stringCase {
	return []stringCase{{name: "null", value: types.StringNull()}, {name: "unknown", value: types.StringUnknown()}}
}

func TestEndpointURL(t *testing.T) {
	runStringCases(t, EndpointURL(), append(unset(),
		stringCase{"https", types.StringValue("https://agentregistry.googleapis.com"), ""},
		stringCase{"http with port and path", types.StringValue("http://127.0.0.1:8787/prefix"), ""},
		stringCase{"another scheme", types.StringValue("ftp://registry"), `has scheme "ftp"`},
		stringCase{"no scheme", types.StringValue("ftp//registry"), `has scheme ""`},
		stringCase{"no host", types.StringValue("http://"), "has no host"},
		stringCase{"query", types.StringValue("https://r.example/?a=b"), "has a query or fragment"},
		stringCase{"fragment", types.StringValue("https://r.example/#x"), "has a query or fragment"},
		stringCase{"not a URL", types.StringValue("http://[::1"), "is not a URL"},
	))
}

func TestAbsoluteURL(t *testing.T) {
	runStringCases(t, AbsoluteURL(), append(unset(),
		stringCase{"https", types.StringValue("https://mcp.example.com/mcp"), ""},
		stringCase{"http loopback", types.StringValue("http://127.0.0.1:9000"), ""},
		stringCase{"javascript", types.StringValue("javascript:alert(1)"), "must be an absolute URL"},
		stringCase{"file", types.StringValue("file:///etc/passwd"), "must be an absolute URL"},
		stringCase{"relative", types.StringValue("/mcp"), "must be an absolute URL"},
		stringCase{"no host", types.StringValue("https:///mcp"), "must be an absolute URL"},
	))
}

func TestServiceID(t *testing.T) {
	runStringCases(t, ServiceID(), append(unset(),
		stringCase{"typical", types.StringValue("currency-agent"), ""},
		stringCase{"shortest", types.StringValue("abcd"), ""},
		stringCase{"longest", types.StringValue("a" + strings.Repeat("b", 62)), ""},
		stringCase{"too short", types.StringValue("abc"), "4 to 63 characters"},
		stringCase{"too long", types.StringValue("a" + strings.Repeat("b", 63)), "4 to 63 characters"},
		stringCase{"uppercase", types.StringValue("Currency"), "lowercase letters"},
		stringCase{"starts with a digit", types.StringValue("1abc"), "starting with a letter"},
		stringCase{"underscore", types.StringValue("a_bcd"), "hyphens"},
	))
}

func TestDuration(t *testing.T) {
	runStringCases(t, Duration(2*time.Minute), append(unset(),
		stringCase{"seconds", types.StringValue("10s"), ""},
		stringCase{"compound", types.StringValue("1m30s"), ""},
		stringCase{"the maximum", types.StringValue("2m"), ""},
		stringCase{"over the maximum", types.StringValue("2m0.001s"), `"2m0.001s" is not a positive duration of at most 2m0s`},
		stringCase{"zero", types.StringValue("0s"), "is not a positive duration"},
		stringCase{"negative", types.StringValue("-1s"), "is not a positive duration"},
		stringCase{"no unit", types.StringValue("10"), "is not a positive duration"},
		stringCase{"words", types.StringValue("soon"), `"soon" is not a positive duration`},
	))
}

func TestParseDurationReturnsTheDuration(t *testing.T) {
	d, err := ParseDuration("1m30s", 10*time.Minute)
	if err != nil || d != 90*time.Second {
		t.Fatalf("ParseDuration = %s, %v; want 1m30s", d, err)
	}
}

func TestDocumentValidators(t *testing.T) {
	valid, err := os.ReadFile("../spec/testdata/card/valid-1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	runStringCases(t, AgentCard(), append(unset(),
		stringCase{"valid card", types.StringValue(string(valid)), ""},
		stringCase{"not JSON", types.StringValue("{"), "nothing was sent to the registry"},
		stringCase{"a tool spec", types.StringValue(`{"tools":[]}`), "The A2A Agent Card has"},
		stringCase{"over 10 KB", types.StringValue(`{"name":"` + strings.Repeat("x", 11000) + `"}`), "A2A Agent Card"},
	))
	runStringCases(t, ToolSpec(), []stringCase{
		{"valid tool list", types.StringValue(`{"tools":[{"name":"add","inputSchema":{"type":"object"}}]}`), ""},
		{"duplicate names", types.StringValue(`{"tools":[{"name":"a","inputSchema":{"type":"object"}},{"name":"a","inputSchema":{"type":"object"}}]}`), "MCP Tool Spec"},
	})
}

func TestDescribeProblemsCountsAndLists(t *testing.T) {
	one := []spec.Problem{{Message: "first"}}
	two := []spec.Problem{{Message: "first"}, {Message: "second"}}
	for _, c := range []struct {
		problems []spec.Problem
		want     string
	}{
		{one, "The Card has 1 problem:\n  - "},
		{two, "The Card has 2 problems:\n  - "},
	} {
		got := DescribeProblems("Card", "problem", c.problems)
		if !strings.HasPrefix(got, c.want) || strings.Count(got, "\n  - ") != len(c.problems) {
			t.Errorf("DescribeProblems = %q, want %q and one line per problem", got, c.want)
		}
	}
}

func TestSigningJWK(t *testing.T) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	keyPEM := string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	pubDER, _ := x509.MarshalPKIXPublicKey(priv.Public())
	pubPEM := string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER}))
	const secretish = "hunter2-not-a-key"
	runStringCases(t, SigningJWK(), append(unset(),
		stringCase{"Ed25519 PKCS #8", types.StringValue(keyPEM), ""},
		stringCase{"a public key", types.StringValue(pubPEM), "cannot sign agent cards"},
		stringCase{"garbage", types.StringValue(secretish), "Expected a private key as PEM"},
	))
	// The message never shows the value, which may be a key.
	if d := validateString(SigningJWK(), types.StringValue(secretish)); strings.Contains(d.Errors()[0].Detail(), secretish) {
		t.Errorf("the error shows the value: %q", d.Errors()[0].Detail())
	}
}

func TestWriteOnlyNeedsANewerCLI(t *testing.T) {
	s := schema.Schema{Attributes: map[string]schema.Attribute{"key_wo": schema.StringAttribute{Optional: true}}}
	config := func(v *string) tfsdk.Config {
		typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"key_wo": tftypes.String}}
		var val tftypes.Value
		if v == nil {
			val = tftypes.NewValue(tftypes.String, nil)
		} else {
			val = tftypes.NewValue(tftypes.String, *v)
		}
		return tfsdk.Config{Schema: s, Raw: tftypes.NewValue(typ, map[string]tftypes.Value{"key_wo": val})}
	}
	set := "k"
	for _, c := range []struct {
		name     string
		value    *string
		capable  bool
		wantDiag bool
	}{
		{"set on an old CLI", &set, false, true},
		{"set on a capable CLI", &set, true, false},
		{"unset on an old CLI", nil, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			req := resource.ValidateConfigRequest{Config: config(c.value)}
			req.ClientCapabilities.WriteOnlyAttributesAllowed = c.capable
			resp := &resource.ValidateConfigResponse{}
			WriteOnlyNeedsANewerCLI("key_wo", "sign elsewhere").ValidateResource(context.Background(), req, resp)
			if resp.Diagnostics.HasError() != c.wantDiag {
				t.Fatalf("diagnostics = %v, want an error: %t", resp.Diagnostics, c.wantDiag)
			}
			if c.wantDiag && !strings.Contains(resp.Diagnostics.Errors()[0].Detail(), "Upgrade the CLI, or sign elsewhere.") {
				t.Errorf("error = %q, want the way out", resp.Diagnostics.Errors()[0].Detail())
			}
		})
	}
}

// A document's keys reach a diagnostic inside JSON pointers; a tool spec read
// from an MCP server (or a file made from one) may name a key with terminal
// controls or a bidirectional override, which reach the terminal escaped.
func TestDocumentProblemsShowKeysSafely(t *testing.T) {
	doc := `{"tools":[{"name":"a","inputSchema":{"type":"object"},"\u001b]0;pwned\u0007\u202ex":1,"\u001b]0;pwned\u0007\u202ex":2}]}`
	var resp validator.StringResponse
	ToolSpec().ValidateString(context.Background(), validator.StringRequest{Path: path.Root("tool_spec"), ConfigValue: types.StringValue(doc)}, &resp)
	if resp.Diagnostics.ErrorsCount() != 1 {
		t.Fatalf("want one error, got %v", resp.Diagnostics)
	}
	detail := resp.Diagnostics.Errors()[0].Detail()
	for _, bad := range []string{"\x1b", "\x07", "\u202e"} {
		if strings.Contains(detail, bad) {
			t.Errorf("%q reached the diagnostic: %q", bad, detail)
		}
	}
	if want := `/tools/0/\u001b]0;pwned\u0007\u202ex: duplicate key`; !strings.Contains(detail, want) {
		t.Errorf("%q is not in %q", want, detail)
	}
}
