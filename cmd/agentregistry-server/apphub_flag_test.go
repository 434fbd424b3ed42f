package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestAppHubWritableFlag: without -apphub-writable a PATCH of a workload's
// AgentProperties stores nothing (App Hub's extendedMetadata is output only);
// with it the entry is stored, as the demo and the module tests seed it.
func TestAppHubWritableFlag(t *testing.T) {
	bin := buildServer(t)
	const workload = "/v1/" + parent + "/applications/app/workloads/w"
	const props = `{"displayName":"Invoice Helper"}`
	seed := func(url string) (int, string) {
		body := `{"workloadProperties":{"extendedMetadata":{"apphub.googleapis.com/AgentProperties":{"metadataStruct":` + props + `}}}}`
		req, _ := http.NewRequest(http.MethodPatch, url+workload+"?allowMissing=true&updateMask=workloadProperties.extendedMetadata",
			strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = res.Body.Close()
		res, err = http.Get(url + workload)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = res.Body.Close() }()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	_, url := startServer(t, bin)
	if code, got := seed(url); code != http.StatusNotFound {
		t.Errorf("default: GET after the PATCH = %d %s, want 404 (nothing stored)", code, got)
	}
	_, url = startServer(t, bin, "-apphub-writable")
	if code, got := seed(url); code != http.StatusOK || !strings.Contains(got, `"displayName":"Invoice Helper"`) {
		t.Errorf("-apphub-writable: GET after the PATCH = %d %s, want the entry", code, got)
	}
}
