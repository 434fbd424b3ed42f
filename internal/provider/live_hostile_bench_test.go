package provider

// BenchmarkHostileLiveDocuments measures the provider's peak RSS and time on
// each hostile live document (an answer that never ends, pages that never
// end, a card heavy with signatures). It prints
// figures and asserts none:
//
//	go test ./internal/provider -run '^$' -bench HostileLiveDocuments -benchtime 1x
//
// Each case runs in a process of its own (this test binary again, with
// HOSTILE_LIVE_CASE set), so that its peak (VmHWM) is its own; the hostile
// servers run here, in the parent, on loopback, and each writes at most
// 300 MB.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/cardsig"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
)

const hostileBytes = 300 << 20

// hostileCase is one hostile document: how the parent serves it and what
// the child reads.
type hostileCase struct {
	name  string
	serve func(b *testing.B) string // the URL, "" when the case needs no server
	read  func(ctx context.Context, url string) string
}

func hostileCases() []hostileCase {
	var written atomic.Int64
	mcpServer := func(mw func(http.Handler) http.Handler) func(b *testing.B) string {
		return func(b *testing.B) string {
			return livedoctest.ServeMCP(b, livedoctest.NewMCPServer(0, livedoctest.NamedTools("a")...), false, mw).URL
		}
	}
	paged := func(size int) func(b *testing.B) string {
		return func(b *testing.B) string {
			s := livedoctest.NewMCPServer(0)
			livedoctest.PagedTools(s, 0, func(int) int { return size })
			return livedoctest.ServeMCP(b, s, false, nil).URL
		}
	}
	tools := func(extra map[string]tftypes.Value) func(context.Context, string) string {
		return func(ctx context.Context, url string) string {
			cfg := map[string]tftypes.Value{"url": tftypes.NewValue(tftypes.String, url)} // the default timeout, 10 s
			for k, v := range extra {
				cfg[k] = v
			}
			return firstError(readDataSource(ctx, NewMcpToolSpecDataSource(), cfg))
		}
	}
	return []hostileCase{
		{"tools/list answer of 300 MB", mcpServer(livedoctest.HugeToolsList(hostileBytes, &written, false)), tools(nil)},
		{"tools/list as one 300 MB event", mcpServer(livedoctest.HugeToolsList(hostileBytes, &written, true)), tools(nil)},
		{"HTTP+SSE event of 300 MB", sseBomb, tools(map[string]tftypes.Value{"transport": tftypes.NewValue(tftypes.String, "sse")})},
		{"endless cursors, tools kept", paged(2000), tools(nil)},
		{"endless cursors, none kept", paged(10), tools(map[string]tftypes.Value{"include_tools": tftypes.NewValue(tftypes.List{ElementType: tftypes.String},
			[]tftypes.Value{tftypes.NewValue(tftypes.String, "none")})})},
		{"agent card of 1 MiB", func(b *testing.B) string {
			body := strings.Replace(liveCardBody, `"Forecasts \u0026 alerts"`, strconv.Quote(strings.Repeat("x", 1<<20-len(liveCardBody))), 1)
			return livedoctest.Serve(b, map[string]http.HandlerFunc{"/.well-known/agent-card.json": livedoctest.JSON(body)}).URL
		}, func(ctx context.Context, url string) string {
			return firstError(readDataSource(ctx, NewAgentCardDataSource(), map[string]tftypes.Value{"url": tftypes.NewValue(tftypes.String, url),
				"signature_policy": tftypes.NewValue(tftypes.String, "off")}))
		}},
		{"verify_agent_card, 1 MiB card, 3,500 signatures", nil, verifyCase(3500)},
		{"verify_agent_card, 1 MiB card, 16 signatures", nil, verifyCase(cardsig.MaxSignatures)},
	}
}

// sseBomb serves the HTTP+SSE transport's stream, whose first message is an
// event that never ends.
func sseBomb(b *testing.B) string {
	var written atomic.Int64
	return livedoctest.EndlessSSEEvent(b, hostileBytes, &written).URL + "/sse"
}

// verifyCase calls verify_agent_card on a card padded to 1 MiB with n
// signatures by ec-1 over another card, each of which go-jose checks.
func verifyCase(n int) func(context.Context, string) string {
	return func(ctx context.Context, _ string) string {
		var c map[string]any
		_ = json.Unmarshal([]byte(liveCardBody), &c)
		other, _ := cardsig.Sign([]byte(strings.Replace(liveCardBody, "Weather", "Other", 1)), []byte(sigKeys()["ec-1"].pem), "ec-1")
		var o struct{ Signatures []json.RawMessage }
		_ = json.Unmarshal(other, &o)
		sigs := make([]json.RawMessage, n)
		for i := range sigs {
			sigs[i] = o.Signatures[0]
		}
		c["signatures"] = sigs
		c["description"] = strings.Repeat("x", cardsig.MaxCardBytes-len(liveCardBody)-n*len(o.Signatures[0])-n-64)
		card, _ := json.Marshal(c)
		jwks, _ := json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: sigKeys()["ec-1"].signer.Public(), KeyID: "ec-1", Use: "sig"}}})
		resp := &function.RunResponse{Result: function.NewResultData(types.ListUnknown(types.StringType))}
		NewVerifyAgentCardFunction().Run(ctx, function.RunRequest{
			Arguments: function.NewArgumentsData([]attr.Value{types.StringValue(string(card)), types.StringValue(string(jwks))}),
		}, resp)
		if resp.Error != nil {
			return resp.Error.Error()
		}
		return ""
	}
}

// readDataSource runs a data source's Read as the framework would, with the
// configuration's given attributes (the others null).
func readDataSource(ctx context.Context, ds datasource.DataSource, config map[string]tftypes.Value) diag.Diagnostics {
	var sr datasource.SchemaResponse
	ds.Schema(ctx, datasource.SchemaRequest{}, &sr)
	typ, ok := sr.Schema.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		return diag.Diagnostics{diag.NewErrorDiagnostic("Not An Object", fmt.Sprintf("the data source's schema is a %T", typ))}
	}
	vals := map[string]tftypes.Value{}
	for name, t := range typ.AttributeTypes {
		if v, ok := config[name]; ok {
			vals[name] = v
		} else {
			vals[name] = tftypes.NewValue(t, nil)
		}
	}
	resp := datasource.ReadResponse{State: tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(typ, nil)}}
	ds.Read(ctx, datasource.ReadRequest{Config: tfsdk.Config{Schema: sr.Schema, Raw: tftypes.NewValue(typ, vals)}}, &resp)
	return resp.Diagnostics
}

func firstError(d diag.Diagnostics) string {
	for _, e := range d.Errors() {
		return e.Summary() + ": " + e.Detail()
	}
	return ""
}

// peakRSS is this process's VmHWM, in MB.
func peakRSS() float64 {
	b, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}

func BenchmarkHostileLiveDocuments(b *testing.B) {
	cases := append(hostileCases(), registryHostileCases()...)
	if runHostileCaseHere(cases) {
		return
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			peak, took, msg := runHostileChild(b, "BenchmarkHostileLiveDocuments", c)
			b.ReportMetric(peak, "peak-RSS-MB")
			fmt.Printf("%-48s peak RSS %4.0f MB  in %-8s  %.160s\n", c.name, peak, took, msg)
		})
	}
}

// runHostileCaseHere runs the case HOSTILE_LIVE_CASE names, when this
// process is the child a benchmark started for it, and reports whether it was.
func runHostileCaseHere(cases []hostileCase) bool {
	name := os.Getenv("HOSTILE_LIVE_CASE")
	if name == "" {
		return false
	}
	for _, c := range cases {
		if c.name == name {
			start := time.Now()
			msg := c.read(context.Background(), os.Getenv("HOSTILE_LIVE_URL"))
			msg, _, _ = strings.Cut(msg, "\n")
			fmt.Printf("HOSTILE\t%.0f\t%s\t%s\n", peakRSS(), time.Since(start).Round(time.Millisecond), msg)
		}
	}
	return true
}

// runHostileChild serves c (in this process) and reads it in a child process
// (this test binary again, running the benchmark bench with HOSTILE_LIVE_CASE
// set), and returns the child's peak RSS in MB, how long the read took and
// the first line of its error.
func runHostileChild(b *testing.B, bench string, c hostileCase) (float64, string, string) {
	url := ""
	if c.serve != nil {
		url = c.serve(b)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$", "-test.bench=^"+bench+"$", "-test.benchtime=1x")
	cmd.Env = append(os.Environ(), "HOSTILE_LIVE_CASE="+c.name, "HOSTILE_LIVE_URL="+url)
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("%s: %v\n%s", c.name, err, out)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.SplitN(sc.Text(), "\t", 4)
		if len(f) == 4 && f[0] == "HOSTILE" {
			peak, _ := strconv.ParseFloat(f[1], 64)
			return peak, f[2], f[3]
		}
	}
	b.Fatalf("%s: the child printed no figures:\n%s", c.name, out)
	return 0, "", ""
}
