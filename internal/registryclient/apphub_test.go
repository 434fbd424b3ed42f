package registryclient

import (
	"encoding/json"
	"net/http"
	"sync"
	"testing"
)

const workloadName = "projects/p1/locations/global/applications/app/workloads/w1"

// fakeWorkloads keeps one workload's extendedMetadata and applies PATCHes the
// way the update mask says (replace the whole map), through an operation.
type fakeWorkloads struct {
	mu       sync.Mutex
	exists   bool
	metadata map[string]json.RawMessage
	patches  []recorded
}

func (f *fakeWorkloads) workloadJSON() map[string]any {
	em := map[string]any{}
	for k, v := range f.metadata {
		em[k] = map[string]any{"metadataStruct": v}
	}
	return map[string]any{"name": workloadName, "workloadProperties": map[string]any{"extendedMetadata": em}}
}

func (f *fakeWorkloads) handler(t *testing.T) func(w http.ResponseWriter, r *http.Request, q recorded) {
	return func(w http.ResponseWriter, r *http.Request, q recorded) {
		f.mu.Lock()
		defer f.mu.Unlock()
		switch {
		case r.Method == "GET" && q.Path == "/v1/"+workloadName:
			if !f.exists {
				writeError(w, 404, "NOT_FOUND", "workload not found")
				return
			}
			writeJSON(w, 200, f.workloadJSON())
		case r.Method == "PATCH" && q.Path == "/v1/"+workloadName:
			f.patches = append(f.patches, q)
			if q.Query.Get("updateMask") != "workloadProperties.extendedMetadata" {
				writeError(w, 400, "INVALID_ARGUMENT", "bad mask "+q.Query.Get("updateMask"))
				return
			}
			if !f.exists && q.Query.Get("allowMissing") != "true" {
				writeError(w, 404, "NOT_FOUND", "workload not found")
				return
			}
			var body struct {
				WorkloadProperties *struct {
					ExtendedMetadata map[string]struct {
						MetadataStruct json.RawMessage `json:"metadataStruct"`
					} `json:"extendedMetadata"`
				} `json:"workloadProperties"`
			}
			if err := json.Unmarshal(q.Body, &body); err != nil {
				writeError(w, 400, "INVALID_ARGUMENT", err.Error())
				return
			}
			f.exists = true
			f.metadata = map[string]json.RawMessage{}
			if body.WorkloadProperties != nil {
				for k, v := range body.WorkloadProperties.ExtendedMetadata {
					f.metadata[k] = v.MetadataStruct
				}
			}
			writeJSON(w, 200, map[string]any{"name": "projects/p1/locations/global/operations/w", "done": false})
		case r.Method == "GET" && q.Path == "/v1/projects/p1/locations/global/operations/w":
			writeJSON(w, 200, map[string]any{"name": "projects/p1/locations/global/operations/w", "done": true,
				"response": f.workloadJSON()})
		default:
			t.Errorf("unexpected %s %s", r.Method, q.Path)
			writeError(w, 404, "NOT_FOUND", "unexpected")
		}
	}
}

func TestSetWorkloadMetadataPreservesOtherEntries(t *testing.T) {
	f := &fakeWorkloads{exists: true, metadata: map[string]json.RawMessage{
		"apphub.googleapis.com/Other": json.RawMessage(`{"keep":true}`),
	}}
	srv, _ := scripted(t, f.handler(t))
	c := testClient(t, srv.URL)

	w, err := c.SetWorkloadMetadata(testCtx(t), workloadName, AgentPropertiesKey, json.RawMessage(`{ "agentId": "a1" }`), false)
	if err != nil {
		t.Fatalf("set: %v", err)
	}
	em := w.WorkloadProperties.ExtendedMetadata
	if string(em[AgentPropertiesKey].MetadataStruct) != `{"agentId":"a1"}` || string(em["apphub.googleapis.com/Other"].MetadataStruct) != `{"keep":true}` {
		t.Errorf("extendedMetadata after set = %v", em)
	}
	if p := f.patches[0]; p.Query.Get("requestId") == "" || p.Query.Has("allowMissing") {
		t.Errorf("PATCH query = %s", p.RawQuery)
	}

	w, err = c.SetWorkloadMetadata(testCtx(t), workloadName, AgentPropertiesKey, nil, false)
	if err != nil {
		t.Fatalf("remove: %v", err)
	}
	em = w.WorkloadProperties.ExtendedMetadata
	if _, ok := em[AgentPropertiesKey]; ok || len(em) != 1 {
		t.Errorf("extendedMetadata after remove = %v", em)
	}

	// Removing an absent entry sends nothing.
	if _, err := c.SetWorkloadMetadata(testCtx(t), workloadName, AgentPropertiesKey, nil, false); err != nil {
		t.Fatal(err)
	}
	if len(f.patches) != 2 {
		t.Errorf("PATCHes = %d, want 2", len(f.patches))
	}
}

func TestSetWorkloadMetadataRemovingTheLastEntrySendsAnEmptyMap(t *testing.T) {
	f := &fakeWorkloads{exists: true, metadata: map[string]json.RawMessage{AgentPropertiesKey: json.RawMessage(`{}`)}}
	srv, _ := scripted(t, f.handler(t))
	c := testClient(t, srv.URL)
	if _, err := c.SetWorkloadMetadata(testCtx(t), workloadName, AgentPropertiesKey, nil, false); err != nil {
		t.Fatal(err)
	}
	var body map[string]map[string]any
	_ = json.Unmarshal(f.patches[0].Body, &body)
	if em, ok := body["workloadProperties"]["extendedMetadata"].(map[string]any); !ok || len(em) != 0 {
		t.Errorf("PATCH body = %s, want an explicit empty extendedMetadata", f.patches[0].Body)
	}
}

func TestSetWorkloadMetadataAllowMissingCreates(t *testing.T) {
	f := &fakeWorkloads{}
	srv, _ := scripted(t, f.handler(t))
	c := testClient(t, srv.URL)

	if _, err := c.SetWorkloadMetadata(testCtx(t), workloadName, AgentPropertiesKey, json.RawMessage(`{"a":1}`), false); !IsNotFound(err) {
		t.Fatalf("without allowMissing: err = %v, want NOT_FOUND", err)
	}
	w, err := c.SetWorkloadMetadata(testCtx(t), workloadName, AgentPropertiesKey, json.RawMessage(`{"a":1}`), true)
	if err != nil {
		t.Fatalf("with allowMissing: %v", err)
	}
	if p := f.patches[len(f.patches)-1]; p.Query.Get("allowMissing") != "true" {
		t.Errorf("PATCH query = %s, want allowMissing=true", p.RawQuery)
	}
	if string(w.WorkloadProperties.ExtendedMetadata[AgentPropertiesKey].MetadataStruct) != `{"a":1}` {
		t.Errorf("workload = %+v", w.WorkloadProperties)
	}
	got, err := c.GetWorkload(testCtx(t), workloadName)
	if err != nil || got.Name != workloadName {
		t.Errorf("GetWorkload = %+v, %v", got, err)
	}
}

func TestAppHubErrorsNameAppHub(t *testing.T) {
	srv, _ := scripted(t, func(w http.ResponseWriter, r *http.Request, _ recorded) {
		writeError(w, 403, "PERMISSION_DENIED", "caller lacks apphub.workloads.get")
	})
	c := testClient(t, srv.URL)
	_, err := c.GetWorkload(testCtx(t), workloadName)
	if want := "App Hub returned 403 PERMISSION_DENIED: caller lacks apphub.workloads.get"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
}
