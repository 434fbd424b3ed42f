package registryclient

import (
	"strings"
	"testing"
)

// X-Goog-User-Project with user_project_override alone names the project
// of the request's path: the segment after "projects", never a wildcard or
// an empty one, and nothing for a path that names none.
func TestProjectOf(t *testing.T) {
	for path, want := range map[string]string{
		"/v1/projects/p1/locations/global/agents":      "p1",
		"/v1/projects/p1":                              "p1",
		"/v1/projects/-/locations/global":              "",
		"/v1/projects//locations/global":               "",
		"/v1/projects":                                 "",
		"projects/p2/x":                                "p2",
		"/v1/operations/projects":                      "",
		"/v1/locations/global/projects/p3/agents/a-b":  "p3",
		"/v1/projects/projects/locations/global/agent": "projects",
	} {
		if got := projectOf(path); got != want {
			t.Errorf("projectOf(%q) = %q, want %q", path, got, want)
		}
	}
}

// The IAM Credentials endpoint (a test's stand-in) must be an http(s) URL
// with a host: anything else is refused when the client is built.
func TestTokenHTTPClientIAMEndpoint(t *testing.T) {
	for endpoint, ok := range map[string]bool{
		"http://127.0.0.1:8080":     true,
		"https://iam.example.com/x": true,
		"ftp://iam.example.com":     false,
		"http://":                   false,
		"https:///v1":               false,
		"iam.example.com":           false,
		"http://[::1":               false,
	} {
		_, err := tokenHTTPClient(withDefaults(Config{Google: GoogleAuth{IAMCredentialsEndpoint: endpoint}}))
		switch {
		case ok && err != nil:
			t.Errorf("%q refused: %v", endpoint, err)
		case !ok && (err == nil || !strings.Contains(err.Error(), "is not an http(s) URL")):
			t.Errorf("%q: %v, want it refused as not an http(s) URL", endpoint, err)
		}
	}
}
