package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// The guide "Pin the MCP tools you approved" word for word, with the provider
// served in process: every ```hcl
// block is written to the file its first line names (`# main.tf`), every
// ```sh block runs in order in one folder, and every line of a ```text block
// must appear in what the ```sh block before it printed, spacing aside; a
// block whose text shows an Error must end in that error (exit code 1). The
// guide's registry and MCP server are the test's: the bundled server, and an
// MCP server (the official Go SDK) whose tools change where the guide says
// they do (sections 3 and 4), and the registry must not take the poisoned
// tool.
func followPinApprovedTools(t *testing.T, g *guideRun) {
	registry := testkit.StartRegistry(t, registryserver.Options{})
	server := livedoctest.NewMCPServer(0, livedoctest.WeatherTool("get_forecast", livedoctest.ForecastDescription), livedoctest.WeatherTool("get_alerts", "Weather alerts."))
	url := livedoctest.ServeMCP(t, server, false, nil).URL + "/mcp"
	r := g.reattached(t)
	r.Replace = strings.NewReplacer("http://127.0.0.1:8787", registry.URL, "http://127.0.0.1:8931/mcp", url)
	r.Before = map[string]func() error{
		"## 3.": func() error {
			server.AddTool(livedoctest.WeatherTool("get_forecast", livedoctest.PoisonedDescription), nil)
			return nil
		},
		"## 4.": func() error {
			svc, err := registry.Client.GetService(context.Background(), "projects/pin-demo/locations/global/services/weather-mcp")
			if err != nil {
				return err
			}
			if spec := string(svc.McpServerSpec.Content); strings.Contains(spec, "id_rsa") {
				return fmt.Errorf("the registry took the poisoned tool: %s", spec)
			}
			server.AddTool(&mcp.Tool{Name: "get_forecast", Description: livedoctest.ForecastDescription, InputSchema: json.RawMessage(
				`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","maximum":7}},"required":["city"]}`)}, nil)
			return nil
		},
	}
	r.Own = func(b testkit.Block) (bool, error) {
		if b.Lang != "hcl" && b.Lang != "sh" && b.Lang != "text" {
			return true, fmt.Errorf("a ```%s block: the guide's blocks are hcl, sh and text", b.Lang)
		}
		if b.Lang == "hcl" && testkit.SaveAs(b) == "" {
			return true, fmt.Errorf("an hcl block must start with the file it is (# main.tf), found %q", b.FirstLine())
		}
		return false, nil
	}
	must(t, r.Follow(g.page.Blocks))
	must(t, r.BeforeAllCalled())
}
