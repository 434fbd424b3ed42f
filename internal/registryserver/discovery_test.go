package registryserver_test

// The discovery documents as the test. TestDiscoveryDocuments
// reads agentregistry-api.json and apphub-api.json from the module cache, at
// the version of google.golang.org/api in go.mod, enumerates every method,
// and calls each through the official generated client, with every query
// parameter the document gives it, against the bundled server. A method the
// server serves must answer as it says below, its body decoding strictly
// (no unknown field) into the generated type, and so must the metadata and
// response of an operation; every other method must be refused with 501
// UNIMPLEMENTED naming it. A method in neither state (a 404 or a 405 for a
// documented path, a 400 for a documented parameter) fails, and so does a
// method of a future document until the server's table has its line.

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"google.golang.org/api/agentregistry/v1"
	"google.golang.org/api/apphub/v1"
	"google.golang.org/api/googleapi"
	"google.golang.org/api/option"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/registryservertest"
)

// served are the methods the bundled server serves, with the HTTP status
// each answers in this test: 200, or 404 for a record the server never has
// (it discovers no AI applications and scans nothing). Every other method of
// the documents must be refused with 501.
var served = map[string]int{
	"agentregistry.projects.locations.get":                            200,
	"agentregistry.projects.locations.list":                           200,
	"agentregistry.projects.locations.agents.get":                     200,
	"agentregistry.projects.locations.agents.list":                    200,
	"agentregistry.projects.locations.agents.search":                  200,
	"agentregistry.projects.locations.aiApplications.get":             404,
	"agentregistry.projects.locations.aiApplications.list":            200,
	"agentregistry.projects.locations.aiApplications.agents.get":      404,
	"agentregistry.projects.locations.aiApplications.agents.list":     404,
	"agentregistry.projects.locations.aiApplications.endpoints.get":   404,
	"agentregistry.projects.locations.aiApplications.endpoints.list":  404,
	"agentregistry.projects.locations.aiApplications.mcpServers.get":  404,
	"agentregistry.projects.locations.aiApplications.mcpServers.list": 404,
	"agentregistry.projects.locations.bindings.create":                200,
	"agentregistry.projects.locations.bindings.delete":                200,
	"agentregistry.projects.locations.bindings.fetchAvailable":        200,
	"agentregistry.projects.locations.bindings.get":                   200,
	"agentregistry.projects.locations.bindings.list":                  200,
	"agentregistry.projects.locations.bindings.patch":                 200,
	"agentregistry.projects.locations.endpoints.get":                  200,
	"agentregistry.projects.locations.endpoints.list":                 200,
	"agentregistry.projects.locations.findings.get":                   404,
	"agentregistry.projects.locations.findings.list":                  200,
	"agentregistry.projects.locations.mcpServers.get":                 200,
	"agentregistry.projects.locations.mcpServers.list":                200,
	"agentregistry.projects.locations.mcpServers.search":              200,
	"agentregistry.projects.locations.operations.cancel":              200,
	"agentregistry.projects.locations.operations.delete":              200,
	"agentregistry.projects.locations.operations.get":                 200,
	"agentregistry.projects.locations.operations.list":                200,
	"agentregistry.projects.locations.services.create":                200,
	"agentregistry.projects.locations.services.delete":                200,
	"agentregistry.projects.locations.services.get":                   200,
	"agentregistry.projects.locations.services.list":                  200,
	"agentregistry.projects.locations.services.patch":                 200,
	"agentregistry.projects.locations.skills.create":                  200,
	"agentregistry.projects.locations.skills.delete":                  200,
	"agentregistry.projects.locations.skills.get":                     200,
	"agentregistry.projects.locations.skills.list":                    200,
	"agentregistry.projects.locations.skills.patch":                   200,
	"agentregistry.projects.locations.skills.search":                  200,
	"agentregistry.projects.locations.skills.revisions.create":        200,
	"agentregistry.projects.locations.skills.revisions.delete":        200,
	"agentregistry.projects.locations.skills.revisions.get":           200,
	"agentregistry.projects.locations.skills.revisions.list":          200,

	"apphub.projects.locations.get":                           200,
	"apphub.projects.locations.list":                          200,
	"apphub.projects.locations.operations.cancel":             200,
	"apphub.projects.locations.operations.delete":             200,
	"apphub.projects.locations.operations.get":                200,
	"apphub.projects.locations.operations.list":               200,
	"apphub.projects.locations.applications.workloads.delete": 200,
	"apphub.projects.locations.applications.workloads.get":    200,
	"apphub.projects.locations.applications.workloads.list":   200,
	"apphub.projects.locations.applications.workloads.patch":  200,
	"apphub.projects.locations.extendedMetadataSchemas.get":   200,
	"apphub.projects.locations.extendedMetadataSchemas.list":  200,
}

// discoveryMethod is a method of a discovery document.
type discoveryMethod struct {
	ID             string   `json:"id"`
	HTTPMethod     string   `json:"httpMethod"`
	Path           string   `json:"path"`
	ParameterOrder []string `json:"parameterOrder"`
	Parameters     map[string]struct {
		Location string `json:"location"`
		Pattern  string `json:"pattern"`
	} `json:"parameters"`
	resources []string // the resource path: projects, locations, skills, revisions
	name      string   // the method's name in its resource: get, getIamPolicy
}

type discoveryResource struct {
	Methods   map[string]discoveryMethod   `json:"methods"`
	Resources map[string]discoveryResource `json:"resources"`
}

// discoveryMethods reads the methods of a discovery document of
// google.golang.org/api at the version in go.mod.
func discoveryMethods(t *testing.T, file string) []discoveryMethod {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "google.golang.org/api").Output()
	if err != nil {
		t.Fatalf("find google.golang.org/api in the module cache (go list -m): %v", err)
	}
	b, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), file))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Resources map[string]discoveryResource `json:"resources"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	var methods []discoveryMethod
	var walk func(path []string, rs map[string]discoveryResource)
	walk = func(path []string, rs map[string]discoveryResource) {
		for _, rn := range sortedKeys(rs) {
			r := rs[rn]
			p := append(append([]string(nil), path...), rn)
			for _, mn := range sortedKeys(r.Methods) {
				m := r.Methods[mn]
				m.resources, m.name = p, mn
				methods = append(methods, m)
			}
			walk(p, r.Resources)
		}
	}
	walk(nil, doc.Resources)
	return methods
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// recorder keeps the body of the last response, for strict decoding.
type recorder struct{ last []byte }

func (rec *recorder) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := http.DefaultTransport.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	rec.last, err = io.ReadAll(res.Body)
	_ = res.Body.Close() // read whole; the recorder keeps the bytes
	res.Body = io.NopCloser(bytes.NewReader(rec.last))
	return res, err
}

// The fixture: the records the methods act on. A delete acts on a victim of
// its own, so that the methods can run in the documents' order.
const (
	fxAgent, fxMCP, fxEndpoint = "conf-agent", "conf-mcp", "conf-endpoint"
	fxBinding, fxSkill         = "conf-binding", "conf-skill"
	fxApp, fxWorkload          = "conf-app", "conf-workload"
	fxRevision, fxOldRevision  = "rtwo", "rev-1" // the skill's default revision, and an older one
)

// fixtureID is the id a method's path gives the record of collection.
func (f *fixture) id(collection string, victim bool) string {
	if collection == "operations" && victim {
		op := f.victimOps[0] // each operation is deleted once
		f.victimOps = f.victimOps[1:]
		return op
	}
	ids := map[string]string{
		"projects": "p1", "locations": "global", "agents": fxAgent, "mcpServers": fxMCP, "endpoints": fxEndpoint,
		"services": fxAgent, "bindings": fxBinding, "skills": fxSkill, "revisions": fxRevision,
		"applications": fxApp, "workloads": fxWorkload, "operations": f.op, "extendedMetadataSchemas": "apphub.googleapis.com/AgentProperties",
		"aiApplications": "conf-ai-app", "findings": "conf-finding", "publishers": "google", "discoveredServices": "x",
		"discoveredWorkloads": "x", "serviceProjectAttachments": "x",
	}
	victims := map[string]string{"services": "victim-agent", "bindings": "victim-binding", "skills": "victim-skill",
		"revisions": fxOldRevision, "workloads": "victim-workload"}
	if v, ok := victims[collection]; ok && victim {
		return v
	}
	if v, ok := ids[collection]; ok {
		return v
	}
	return "x"
}

type fixture struct {
	e         *env
	op        string   // the id of an operation of parent
	victimOps []string // operations to delete, one per document
}

// seed creates the fixture's records.
func seed(t *testing.T, e *env) *fixture {
	t.Helper()
	f := &fixture{e: e}
	loc := e.ar.Projects.Locations
	f.op = idOf(e.create(t, fxAgent, agentService("Conformance Agent", "Serves the conformance test.")).Name)
	f.victimOps = append(f.victimOps, idOf(e.create(t, "victim-agent", agentService("Victim Agent", "Is deleted.")).Name))
	e.create(t, fxMCP, &agentregistry.Service{McpServerSpec: &agentregistry.McpServerSpec{Type: "TOOL_SPEC", Content: googleapi.RawMessage(toolSpec)}})
	e.create(t, fxEndpoint, &agentregistry.Service{EndpointSpec: &agentregistry.EndpointSpec{Type: "NO_SPEC"},
		Interfaces: []*agentregistry.Interface{{Url: "https://endpoint.example.test", ProtocolBinding: "HTTP_JSON"}}})
	for _, id := range []string{fxBinding, "victim-binding"} {
		if _, err := loc.Bindings.Create(parent, bindingTo(urnOf("mcp", fxMCP))).BindingId(id).Do(); err != nil {
			t.Fatal(err)
		}
	}
	e.createSkill(t, fxSkill, "Conformance skill", upload(t, fxSkill, "Serves the conformance test."))
	if _, err := loc.Skills.Revisions.Create(parent+"/skills/"+fxSkill, upload(t, fxSkill, "Its second revision.")).SkillRevisionId(fxRevision).Do(); err != nil {
		t.Fatal(err)
	}
	e.createSkill(t, "victim-skill", "Is deleted", upload(t, "victim-skill", "Is deleted."))
	for _, id := range []string{fxWorkload, "victim-workload"} {
		w := &apphub.Workload{DisplayName: "Conformance workload"}
		op, err := e.ah.Projects.Locations.Applications.Workloads.Patch(parent+"/applications/"+fxApp+"/workloads/"+id, w).
			UpdateMask("displayName").Do(googleapi.QueryParameter("allowMissing", "true"))
		if err != nil {
			t.Fatal(err)
		}
		f.victimOps = append(f.victimOps, idOf(op.Name))
	}
	return f
}

func bindingTo(target string) *agentregistry.Binding {
	return &agentregistry.Binding{DisplayName: "Conformance binding", Source: &agentregistry.Source{Identifier: urnOf("agent", fxAgent)},
		Target: &agentregistry.Target{Identifier: target}}
}

// name builds the value of a path parameter from its pattern.
func (f *fixture) name(m discoveryMethod, pattern string) string {
	pattern = strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(pattern, "^"), "$"), "[^/]+", "*")
	segs := strings.Split(pattern, "/")
	for i, seg := range segs {
		if seg == "*" || seg == ".*" {
			segs[i] = f.id(segs[i-1], m.name == "delete" && i == len(segs)-1)
		}
	}
	return strings.Join(segs, "/")
}

// bodies are the request bodies of the methods that need one to be served;
// the others send the zero value of their request type ({}).
func (f *fixture) body(t *testing.T, id string) any {
	switch id {
	case "agentregistry.projects.locations.services.create":
		return agentService("New Agent", "Created by the conformance test.")
	case "agentregistry.projects.locations.services.patch", "agentregistry.projects.locations.bindings.patch",
		"agentregistry.projects.locations.skills.patch", "apphub.projects.locations.applications.workloads.patch":
		return map[string]string{"displayName": "Patched"}
	case "agentregistry.projects.locations.bindings.create":
		return bindingTo(urnOf("endpoint", fxEndpoint))
	case "agentregistry.projects.locations.skills.create":
		return &agentregistry.Skill{Type: "SIMPLE", TargetState: "TARGET_STATE_ACTIVE"}
	case "agentregistry.projects.locations.skills.revisions.create":
		return upload(t, fxSkill, "Its third revision.")
	}
	return nil
}

// queryValue is the value the test gives a documented query parameter.
func (f *fixture) queryValue(param string) (string, bool) {
	switch param {
	case "pageSize":
		return "5", true
	case "pageToken", "filter", "extraLocationTypes":
		return "", true
	case "orderBy":
		return "name desc", true
	case "requestId":
		return newUUID(), true
	case "updateMask":
		return "displayName", true
	case "force":
		return "true", true
	case "returnPartialSuccess":
		return "false", true
	case "options.requestedPolicyVersion":
		return "3", true
	case "searchString":
		return "conformance", true
	case "searchType":
		return "KEYWORD", true
	case "sourceIdentifier":
		return urnOf("agent", fxAgent), true
	case "targetIdentifier":
		return urnOf("mcp", fxMCP), true
	case "serviceId":
		return "new-agent", true
	case "bindingId":
		return "new-binding", true
	case "skillId":
		return "new-skill", true
	case "skillRevisionId":
		return "rthree", true
	case "applicationId", "workloadId", "serviceProjectAttachmentId", "uri":
		return "x", true // refused methods
	}
	return "", false
}

func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// goName is the generated client's name of a discovery name.
func goName(s string) string {
	var b strings.Builder
	up := true
	for _, c := range s {
		if c == '.' {
			up = true
			continue
		}
		if up {
			c, up = unicode.ToUpper(c), false
		}
		b.WriteRune(c)
	}
	return b.String()
}

// call calls m through the generated client svc (*agentregistry.Service or
// *apphub.Service) and returns the result of Do.
func (f *fixture) call(t *testing.T, svc any, m discoveryMethod) (any, error) {
	t.Helper()
	v := reflect.ValueOf(svc).Elem()
	for _, r := range m.resources {
		v = v.FieldByName(goName(r))
		if !v.IsValid() {
			t.Fatalf("%s: the generated client has no resource %s", m.ID, r)
		}
		v = v.Elem()
	}
	fn := v.Addr().MethodByName(goName(m.name))
	if !fn.IsValid() {
		t.Fatalf("%s: the generated client has no method %s", m.ID, goName(m.name))
	}
	var args []reflect.Value
	for _, p := range m.ParameterOrder {
		args = append(args, reflect.ValueOf(f.name(m, m.Parameters[p].Pattern)))
	}
	if n := fn.Type().NumIn(); len(args) < n { // the request body
		body := reflect.New(fn.Type().In(n - 1).Elem())
		if b := f.body(t, m.ID); b != nil {
			raw, _ := json.Marshal(b)
			if err := json.Unmarshal(raw, body.Interface()); err != nil {
				t.Fatalf("%s: body: %v", m.ID, err)
			}
		}
		args = append(args, body)
	}
	c := fn.Call(args)[0]
	for _, p := range sortedKeys(m.Parameters) {
		if m.Parameters[p].Location != "query" {
			continue
		}
		val, ok := f.queryValue(p)
		if !ok {
			t.Fatalf("%s: the test has no value for its query parameter %s: give it one in queryValue", m.ID, p)
		}
		set := c.MethodByName(goName(p))
		if !set.IsValid() {
			t.Fatalf("%s: the generated call has no setter for %s", m.ID, p)
		}
		arg := reflect.New(set.Type().In(0)).Elem()
		switch arg.Kind() {
		case reflect.String:
			arg.SetString(val)
		case reflect.Int64:
			n, err := strconv.ParseInt(val, 10, 64)
			if err != nil {
				t.Fatalf("%s: the value %q of %s is not an integer: %v", m.ID, val, p, err)
			}
			arg.SetInt(n)
		case reflect.Bool:
			arg.SetBool(val == "true")
		case reflect.Slice: // a repeated parameter: the setter is variadic
			c = set.CallSlice([]reflect.Value{reflect.ValueOf([]string{val})})[0]
			continue
		default:
			t.Fatalf("%s: a query parameter %s of type %s", m.ID, p, arg.Type())
		}
		c = set.Call([]reflect.Value{arg})[0]
	}
	out := c.MethodByName("Do").Call(nil)
	err, _ := out[1].Interface().(error)
	return out[0].Interface(), err
}

func TestDiscoveryDocuments(t *testing.T) {
	rec := &recorder{}
	_, ts := registryservertest.Start(t, registryserver.Options{})
	co := []option.ClientOption{option.WithEndpoint(ts.URL + "/"), option.WithHTTPClient(&http.Client{Transport: rec})}
	ar, err := agentregistry.NewService(context.Background(), co...)
	if err != nil {
		t.Fatal(err)
	}
	ah, err := apphub.NewService(context.Background(), co...)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{url: ts.URL, ar: ar, ah: ah}
	f := seed(t, e)
	seen := map[string]bool{}
	for _, doc := range []struct {
		file string
		svc  any
	}{{"agentregistry/v1/agentregistry-api.json", ar}, {"apphub/v1/apphub-api.json", ah}} {
		methods := discoveryMethods(t, doc.file)
		t.Logf("%s: %d methods", doc.file, len(methods))
		for _, m := range methods {
			seen[m.ID] = true
			res, err := f.call(t, doc.svc, m)
			want, isServed := served[m.ID]
			switch {
			case !isServed:
				checkRefused(t, m, err)
			case want != 200:
				if ge := asAPIError(err); ge == nil || ge.Code != want {
					t.Errorf("%s: %v; want HTTP %d", m.ID, err, want)
				}
			case err != nil:
				t.Errorf("%s (%s %s): %v", m.ID, m.HTTPMethod, m.Path, err)
			default:
				decodeStrictly(t, m.ID, rec.last, reflect.TypeOf(res).Elem())
			}
		}
	}
	for id := range served {
		if !seen[id] {
			t.Errorf("%s is listed as served but no document has it", id)
		}
	}
}

func asAPIError(err error) *googleapi.Error {
	var ge *googleapi.Error
	if errors.As(err, &ge) {
		return ge
	}
	return nil
}

// checkRefused: a method the server does not serve is a 501 UNIMPLEMENTED
// that names it.
func checkRefused(t *testing.T, m discoveryMethod, err error) {
	t.Helper()
	ge := asAPIError(err)
	if ge == nil || ge.Code != http.StatusNotImplemented || !strings.Contains(ge.Body, `"UNIMPLEMENTED"`) || !strings.Contains(ge.Message, m.ID) {
		t.Errorf("%s (%s %s) is neither served nor refused on purpose: %v; want 501 UNIMPLEMENTED naming the method", m.ID, m.HTTPMethod, m.Path, err)
	}
}

// operationTypes are the types an operation's metadata and response decode
// into, by their @type.
var operationTypes = map[string]reflect.Type{
	"type.googleapis.com/google.cloud.agentregistry.v1.OperationMetadata": reflect.TypeFor[agentregistry.OperationMetadata](),
	"type.googleapis.com/google.cloud.agentregistry.v1.Service":           reflect.TypeFor[agentregistry.Service](),
	"type.googleapis.com/google.cloud.agentregistry.v1.Binding":           reflect.TypeFor[agentregistry.Binding](),
	"type.googleapis.com/google.cloud.agentregistry.v1.Skill":             reflect.TypeFor[agentregistry.Skill](),
	"type.googleapis.com/google.cloud.agentregistry.v1.SkillRevision":     reflect.TypeFor[agentregistry.SkillRevision](),
	"type.googleapis.com/google.protobuf.Empty":                           reflect.TypeFor[agentregistry.Empty](),
	"type.googleapis.com/google.cloud.apphub.v1.OperationMetadata":        reflect.TypeFor[apphub.OperationMetadata](),
	"type.googleapis.com/google.cloud.apphub.v1.Workload":                 reflect.TypeFor[apphub.Workload](),
}

// decodeStrictly decodes body into a new typ, refusing a field the type
// does not have, and does the same for the metadata and the response of an
// operation (by their @type) and of the operations of a list.
func decodeStrictly(t *testing.T, what string, body []byte, typ reflect.Type) {
	t.Helper()
	v := reflect.New(typ)
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v.Interface()); err != nil {
		t.Errorf("%s: the body does not decode strictly into %s: %v\n%s", what, typ, err, body)
		return
	}
	var ops []json.RawMessage
	switch typ.Name() {
	case "Operation":
		ops = []json.RawMessage{body}
	case "ListOperationsResponse":
		var l struct{ Operations []json.RawMessage }
		_ = json.Unmarshal(body, &l)
		ops = l.Operations
	}
	for _, op := range ops {
		var parts struct{ Metadata, Response json.RawMessage }
		_ = json.Unmarshal(op, &parts)
		for _, packed := range []json.RawMessage{parts.Metadata, parts.Response} {
			if len(packed) == 0 {
				continue
			}
			var fields map[string]json.RawMessage
			_ = json.Unmarshal(packed, &fields)
			var at string
			_ = json.Unmarshal(fields["@type"], &at)
			inner, ok := operationTypes[at]
			if !ok {
				t.Errorf("%s: an operation carries an Any of @type %q, which the test does not know", what, at)
				continue
			}
			delete(fields, "@type")
			rest, _ := json.Marshal(fields)
			decodeStrictly(t, what+" ("+at+")", rest, inner)
		}
	}
}
