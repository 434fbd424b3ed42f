package releasetest

import (
	"crypto/tls"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// registry serves a release through the Provider Registry Protocol, as the
// Terraform and OpenTofu registries and any private registry do
// (https://developer.hashicorp.com/terraform/internals/provider-registry-protocol):
// service discovery at /.well-known/terraform.json, the versions of
// agentregistry/agentregistry, one download answer per platform with
// shasums_url, shasums_signature_url and signing_keys, and the files. Over HTTPS
// on loopback with a certificate of the test CA, so the CLIs reach it as
// localhost:PORT, the host part of the provider's source address.
type registry struct {
	release *release
	server  *httptest.Server
	host    string // localhost:PORT

	mu        sync.Mutex
	requested map[string]int // file name => downloads
}

const providersPath = "/v1/providers/"

func startRegistry(t *testing.T, ca testCA, r *release) *registry {
	t.Helper()
	reg := &registry{release: r, requested: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/terraform.json", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, map[string]string{"providers.v1": providersPath})
	})
	mux.HandleFunc("GET "+providersPath+"agentregistry/agentregistry/versions", reg.versions)
	mux.HandleFunc("GET "+providersPath+"agentregistry/agentregistry/{version}/download/{os}/{arch}", reg.download)
	mux.HandleFunc("GET /files/{name}", reg.file)
	reg.server = httptest.NewUnstartedServer(mux)
	reg.server.TLS = &tls.Config{Certificates: []tls.Certificate{ca.server}, MinVersion: tls.VersionTLS12}
	reg.server.StartTLS()
	t.Cleanup(reg.server.Close)
	_, port, err := net.SplitHostPort(reg.server.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	reg.host = "localhost:" + port
	return reg
}

// versions answers the one version of the release with the platforms of its zips.
func (reg *registry) versions(w http.ResponseWriter, _ *http.Request) {
	platforms := make([]map[string]string, 0, len(reg.release.zips))
	for _, z := range reg.release.zips {
		platforms = append(platforms, map[string]string{"os": z.os, "arch": z.arch})
	}
	writeJSON(w, map[string]any{"versions": []map[string]any{{
		"version":   reg.release.version,
		"protocols": []string{"6.0"},
		"platforms": platforms,
	}}})
}

// download answers where the zip of one platform is, its SHA256SUMS entry and
// the key that signed the SHA256SUMS.
func (reg *registry) download(w http.ResponseWriter, req *http.Request) {
	z, ok := reg.zipFor(req.PathValue("version"), req.PathValue("os"), req.PathValue("arch"))
	if !ok {
		http.Error(w, `{"errors":["Not Found"]}`, http.StatusNotFound)
		return
	}
	files := "https://" + reg.host + "/files/"
	writeJSON(w, map[string]any{
		"protocols":             []string{"6.0"},
		"os":                    z.os,
		"arch":                  z.arch,
		"filename":              z.filename,
		"download_url":          files + z.filename,
		"shasums_url":           files + reg.release.sumsName,
		"shasums_signature_url": files + reg.release.sumsName + ".sig",
		"shasum":                z.sha256,
		"signing_keys": map[string]any{"gpg_public_keys": []map[string]string{{
			"key_id":      reg.release.keyID,
			"ascii_armor": reg.release.keyArmor,
		}}},
	})
}

func (reg *registry) zipFor(version, goos, arch string) (platformZip, bool) {
	if version != reg.release.version {
		return platformZip{}, false
	}
	for _, z := range reg.release.zips {
		if z.os == goos && z.arch == arch {
			return z, true
		}
	}
	return platformZip{}, false
}

func (reg *registry) file(w http.ResponseWriter, req *http.Request) {
	name := req.PathValue("name")
	b, ok := reg.release.files[name]
	if !ok {
		http.NotFound(w, req)
		return
	}
	reg.mu.Lock()
	reg.requested[name]++
	reg.mu.Unlock()
	w.Header().Set("Content-Type", "application/octet-stream")
	_, _ = w.Write(b)
}

// downloads says how many times a file was downloaded.
func (reg *registry) downloads(name string) int {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	return reg.requested[name]
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
