package provider

// What the live-document data sources (agentregistry_agent_card,
// agentregistry_mcp_tool_spec) share: the url, headers and timeout
// attributes, and how a fetched document is checked with the resources' own
// validators.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"golang.org/x/text/unicode/norm"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/mcpauth"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/termsafe"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/validators"
)

// liveBase receives the provider's signature settings and OAuth clients.
// Unlike dataSourceBase it ignores the registry's configuration errors (a
// missing project): these data sources never talk to the registry.
type liveBase struct {
	signatures   signatureSettings
	oauthClients oauthClients
}

func (b *liveBase) Configure(_ context.Context, req datasource.ConfigureRequest, _ *datasource.ConfigureResponse) {
	if data, ok := req.ProviderData.(*providerData); ok {
		b.signatures, b.oauthClients = data.Signatures, data.OAuthClients
	}
}

// liveNetworkNote states where a live fetch may go (livedoc's dial guard).
const liveNetworkNote = "A fetch that starts at a public address never reaches an address that is not globally " +
	"reachable, whether a redirect, an announced endpoint or a later DNS answer leads there: loopback, link-local " +
	"(such as `169.254.169.254`), private, shared (`100.64.0.0/10`), benchmarking, documentation, reserved and every " +
	"other block the IANA special-purpose address registries mark so, with the IPv4 address carried in an " +
	"IPv4-mapped, NAT64 (`64:ff9b::/96`) or 6to4 (`2002::/16`) address judged as itself. Every destination is " +
	"judged by the addresses its host resolves to on the machine running Terraform: with `HTTP_PROXY` or " +
	"`HTTPS_PROXY` set, before the request is handed to the proxy (a host that does not resolve there is refused: " +
	"list it in `NO_PROXY` or make it resolvable), and on every connection made directly (no proxy, or a " +
	"`NO_PROXY` host) again; the error says which block an address is in. A URL whose own address is loopback or " +
	"private (the bundled server, an agent on the runner's network) keeps working. An error never quotes a body that " +
	"came from another origin (scheme, host and port) than the URL's."

// liveAttributes are url, headers and timeout; what names the document fetched.
func liveAttributes(what, urlDescription string) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"url": schema.StringAttribute{
			Required:            true,
			MarkdownDescription: urlDescription + " " + liveNetworkNote,
			Validators:          []validator.String{validators.AbsoluteURL()},
		},
		"headers": schema.MapAttribute{
			Optional:    true,
			Sensitive:   true,
			ElementType: types.StringType,
			MarkdownDescription: "HTTP headers sent with every request for the " + what + ", such as " +
				"`{ Authorization = \"Bearer ${var.token}\" }`. Sensitive: never logged nor shown in messages, and sent " +
				"only to the origin of `url`, its scheme, host and port (not to another origin a redirect leads to). " + blankingNote,
		},
		"timeout": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "How long the whole fetch may take, redirects included, as a Go duration such as " +
				"`10s` or `1m30s`. Defaults to `10s`; at most `2m`, so that a slow server cannot hold a plan for longer.",
			Validators: []validator.String{validators.Duration(livedoc.MaxTimeout)},
		},
	}
}

// blankingNote says how a sensitive value is kept out of messages (redact).
var blankingNote = fmt.Sprintf("A value (and the token of a `Bearer` or `Basic` value) of at least %d characters that "+
	"the server echoes is blanked in every error, warning and log line: whole, wrapped over lines, base64-encoded "+
	"(standard or URL alphabet, padded or not, inside a longer encoded text too), percent-encoded (any of its bytes, "+
	"upper or lower case hex: a query or path escape, Python's `quote`, JavaScript's `encodeURIComponent`), "+
	"JSON-escaped (`\\/`, `\\uXXXX` in either case, every character escaped), hex-encoded (either case), or cut at "+
	"the edge of a quoted excerpt (a part of %d characters or more). Shorter values are not blanked: they would "+
	"blank ordinary words.", redact.MinLength, redact.MinFragment)

// liveComputed is a computed string attribute of a live data source.
func liveComputed(description string) schema.StringAttribute {
	return schema.StringAttribute{Computed: true, MarkdownDescription: description}
}

// addLiveDocumentAttributes adds json and sha256: the fetched document, ready
// for the resource attribute it feeds, and the digest a module pins.
func addLiveDocumentAttributes(attrs map[string]schema.Attribute, document, jsonDescription string) {
	attrs["json"] = liveComputed(jsonDescription + " " + nfcNote)
	attrs["sha256"] = liveComputed("The SHA-256 of the " + document + "'s RFC 8785 canonical form, in lowercase hex: " +
		"pin it in a `check` block to notice any change of the " + document + ".")
}

// liveOptions turns headers and timeout into fetch options, whose Secrets
// are those of the read (see liveSecrets).
func liveOptions(ctx context.Context, secrets *redact.Secrets, headers types.Map, timeout types.String, diags *diag.Diagnostics) livedoc.Options {
	opts := livedoc.Options{Timeout: livedoc.DefaultTimeout, Secrets: secrets}
	if !headers.IsNull() {
		diags.Append(headers.ElementsAs(ctx, &opts.Headers, false)...)
	}
	if !timeout.IsNull() {
		opts.Timeout, _ = time.ParseDuration(timeout.ValueString()) // checked by validators.Duration
	}
	return opts
}

// liveSecrets are the values a live read never shows, registered once
// (livedoc.NewSecrets) and handed to the read (liveOptions): the values of its
// headers and env, and what its OAuth client holds (nil: none). The returned
// context masks them in the provider's logs; every diagnostic of the read is
// blanked with them (blankDiagnostics), and Terraform writes diagnostics to
// its trace log too.
func liveSecrets(ctx context.Context, headers, env types.Map, oauth *mcpauth.Client) (context.Context, *redact.Secrets) {
	secrets := livedoc.NewSecrets(knownStrings(headers), knownStrings(env), oauth)
	ctx = tflog.MaskMessageStrings(ctx, secrets.Strings()...)
	return tflog.MaskAllFieldValuesStrings(ctx, secrets.Strings()...), secrets
}

// knownStrings are the known string values of m, by key.
func knownStrings(m types.Map) map[string]string {
	out := map[string]string{}
	for k, e := range m.Elements() {
		if s, ok := e.(types.String); ok && !s.IsNull() && !s.IsUnknown() {
			out[k] = s.ValueString()
		}
	}
	return out
}

// blankDiagnostics returns diags with the secrets blanked from every summary
// and detail, each diagnostic keeping its severity and attribute.
func blankDiagnostics(secrets *redact.Secrets, diags diag.Diagnostics) diag.Diagnostics {
	out := make(diag.Diagnostics, 0, len(diags))
	for _, d := range diags {
		summary, detail := secrets.Blank(d.Summary()), secrets.Blank(d.Detail())
		wp, hasPath := d.(diag.DiagnosticWithPath)
		switch {
		case hasPath && d.Severity() == diag.SeverityWarning:
			out.AddAttributeWarning(wp.Path(), summary, detail)
		case hasPath:
			out.AddAttributeError(wp.Path(), summary, detail)
		case d.Severity() == diag.SeverityWarning:
			out.AddWarning(summary, detail)
		default:
			out.AddError(summary, detail)
		}
	}
	return out
}

// liveFailureNote ends the description of each live data source.
const liveFailureNote = "A failed read fails the plan; inside a `check` block (a scoped data source) it is a warning: " +
	"see the guide *Register what you deploy*."

// acceptLiveDocument checks a fetched document with the validator of the
// resource attribute it feeds, so that the messages are the same (saying
// where the document came from), and returns its RFC 8785 form and the hex
// SHA-256 of that form, the digest a module pins. ok is false after an error.
func acceptLiveDocument(ctx context.Context, v validator.String, doc []byte, source string, diags *diag.Diagnostics) (canon []byte, sum string, ok bool) {
	var vr validator.StringResponse
	v.ValidateString(ctx, validator.StringRequest{Path: path.Root("url"), ConfigValue: types.StringValue(string(doc))}, &vr)
	for _, d := range vr.Diagnostics {
		detail := "The document served at " + source + ":\n\n" + termsafe.Text(d.Detail())
		if d.Severity() == diag.SeverityError {
			diags.AddAttributeError(path.Root("url"), d.Summary(), detail)
		} else {
			diags.AddAttributeWarning(path.Root("url"), d.Summary(), detail)
		}
	}
	if diags.HasError() {
		return nil, "", false
	}
	canon, err := jsoncanon.Canonical(doc)
	if err != nil {
		diags.AddAttributeError(path.Root("url"), "Cannot Canonicalize Document",
			fmt.Sprintf("The document served at %s has no RFC 8785 canonical form: %v", source, err))
		return nil, "", false
	}
	digest := sha256.Sum256(canon)
	return canon, hex.EncodeToString(digest[:]), true
}

// nfcNote explains terraformSafe in the docs of the json outputs.
const nfcNote = "Terraform and OpenTofu normalise every string to Unicode NFC; when the document holds text that is " +
	"not NFC, its non-ASCII characters are written as `\\u` escapes so that the text, and any signature over it, " +
	"survives: the same JSON value, and then `sha256` is not the digest of these exact bytes."

// terraformSafe returns a JSON document in bytes that Terraform keeps as they
// are. Terraform and OpenTofu (cty) normalise every string to Unicode NFC, so
// a document with text outside NFC (a decomposed "é", U+FB33...) would reach
// the state changed, and a signature over it would no longer verify. Such a
// document gets every non-ASCII character written as a \u escape: the same
// JSON value, spelt in ASCII, which NFC leaves alone. The common document,
// already NFC, is returned unchanged. Non-ASCII bytes occur only inside JSON
// strings, so escaping them all is safe.
func terraformSafe(doc []byte) string {
	if norm.NFC.IsNormal(doc) {
		return string(doc)
	}
	var b strings.Builder
	for _, r := range string(doc) {
		switch {
		case r < utf8.RuneSelf:
			b.WriteRune(r)
		case r > 0xFFFF:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}
