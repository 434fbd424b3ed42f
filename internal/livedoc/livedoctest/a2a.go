//go:build unix

package livedoctest

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// A2APackages are the npm packages of the A2A agent fixture (js/a2a-agent.mjs),
// pinned: the official A2A JS SDK, whose server serves the authenticated
// extended agent card (GetExtendedAgentCard, A2A 1.0), and the Express it
// serves with (a peer dependency of the SDK).
var A2APackages = []string{
	"@a2a-js/sdk@1.3.0",
	"express@5.3.0",
}

var a2aSet = &npmSet{packages: A2APackages, scripts: true}

// A2AMode is what the agent of ServeA2AAgent does with its extended card.
type A2AMode string

const (
	// A2AExtendedCard declares an extended card (capabilities.extendedAgentCard)
	// and serves it to the bearer of the agent's token; a request of its
	// bindings without the token, or with another, is answered 401 with
	// WWW-Authenticate: Bearer.
	A2AExtendedCard A2AMode = "extended"
	// A2AUndeclared declares no extended card: the SDK answers
	// GetExtendedAgentCard with UNSUPPORTED_OPERATION.
	A2AUndeclared A2AMode = "undeclared"
	// A2AUnconfigured declares one but configures none: the SDK answers
	// EXTENDED_AGENT_CARD_NOT_CONFIGURED.
	A2AUnconfigured A2AMode = "unconfigured"
	// A2ASDKAuthOnly is A2AExtendedCard without the 401: the SDK alone, which
	// answers a caller without the token (or with another) with the public
	// card, status 200.
	A2ASDKAuthOnly A2AMode = "sdk-auth-only"
)

// A2AAgent is an A2A 1.0 agent of the official A2A JS SDK, on loopback.
type A2AAgent struct {
	// URL is the agent's origin: its public card is at
	// URL/.well-known/agent-card.json.
	URL string `json:"url"`
	// RESTURL is the URL of its HTTP+JSON interface (the extended card is at
	// RESTURL/extendedAgentCard); JSONRPCURL that of its JSON-RPC interface.
	RESTURL    string `json:"restUrl"`
	JSONRPCURL string `json:"jsonrpcUrl"`
	// Token is the bearer token it accepts.
	Token string `json:"-"`
	// PublicCard and ExtendedCard are the cards as the SDK serves them.
	PublicCard   json.RawMessage `json:"publicCard"`
	ExtendedCard json.RawMessage `json:"extendedCard"`
}

// ServeA2AAgent starts js/a2a-agent.mjs with node (the SDK needs Node.js 20
// or later) in the mode given, with a new random token; the agent stops when
// the test ends. Without npm the test is skipped (failed under CI=true), as
// NPMDir's tests are.
func ServeA2AAgent(t testing.TB, mode A2AMode) *A2AAgent {
	t.Helper()
	return ServeA2AAgentWith(t, A2AOptions{Mode: mode})
}

// A2AOptions configure ServeA2AAgentWith.
type A2AOptions struct {
	Mode A2AMode
	// AuthServer, when set, is the authorization server the card's scheme
	// names (OAuth 2.0: its metadata, and its token endpoint for the client
	// credentials flow); the agent accepts the token it issues, which must
	// be fixed (AuthServerConfig.Token).
	AuthServer *AuthServer
	// SigningKey, when set, is a private JWK (with its kid) the SDK signs
	// both cards with; Tamper changes them after they were signed.
	SigningKey string
	Tamper     bool
}

// ServeA2AAgentWith is ServeA2AAgent with the options given.
func ServeA2AAgentWith(t testing.TB, o A2AOptions) *A2AAgent {
	t.Helper()
	token := make([]byte, 24)
	_, _ = rand.Read(token) // never fails (crypto/rand)
	agent := &A2AAgent{Token: "a2a-" + hex.EncodeToString(token)}
	env := os.Environ()
	if o.AuthServer != nil {
		if o.AuthServer.Token == "" {
			t.Fatal("ServeA2AAgentWith: the authorization server must issue a fixed token (AuthServerConfig.Token)")
		}
		agent.Token = o.AuthServer.Token
		env = append(env, "A2A_AUTH_SERVER="+o.AuthServer.Issuer)
	}
	if o.SigningKey != "" {
		env = append(env, "A2A_SIGNING_JWK="+o.SigningKey)
	}
	if o.Tamper {
		env = append(env, "A2A_TAMPER=1")
	}
	cmd := exec.Command("node", filepath.Join(a2aSet.install(t), "a2a-agent.mjs"), string(o.Mode))
	cmd.Env = append(env, "A2A_TOKEN="+agent.Token)
	cmd.Stderr = os.Stderr
	line := startScript(t, "a2a-agent.mjs", cmd)
	if err := json.Unmarshal(line, agent); err != nil {
		t.Fatalf("a2a-agent.mjs printed %q: %v", line, err)
	}
	return agent
}
