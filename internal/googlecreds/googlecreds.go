// Package googlecreds knows Google credentials files: which kinds the
// provider accepts and what is wrong with one (for the provider's validator
// and the registry client alike, so that neither imports the other), which of
// their values are secrets, and how a file they name is read without letting
// it hang a plan. Tokens are not minted here: golang.org/x/oauth2/google does
// that (internal/registryclient).
package googlecreds

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/oauth2/google"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
)

// Types are the types of credentials files accepted, as golang.org/x/oauth2/google
// names them. A client secrets file ("installed", "web") is refused: it would
// start an interactive sign-in.
var Types = []google.CredentialsType{
	google.ServiceAccount, google.AuthorizedUser, google.ExternalAccount,
	google.ExternalAccountAuthorizedUser, google.ImpersonatedServiceAccount,
}

// Check tells what is wrong with a credentials file's content: not JSON, or
// not of one of Types. Its messages never quote the content, which holds
// secrets.
func Check(content []byte) error {
	_, err := TypeOf(content)
	return err
}

// head is what TypeOf reads of a file: its type, and the keys that tell a
// client secrets file.
type head struct {
	Type      string          `json:"type"`
	Installed json.RawMessage `json:"installed"`
	Web       json.RawMessage `json:"web"`
}

// TypeOf is the type of a credentials file, or what is wrong with it.
func TypeOf(content []byte) (google.CredentialsType, error) {
	var h head
	if err := json.Unmarshal(content, &h); err != nil {
		return "", notCredentials(err)
	}
	t := google.CredentialsType(h.Type)
	switch {
	case slices.Contains(Types, t):
		return t, nil
	case h.Type == "" && (h.Installed != nil || h.Web != nil):
		kind := "installed"
		if h.Web != nil {
			kind = "web"
		}
		return "", fmt.Errorf("it is an OAuth client secrets file (%q), which would start an interactive sign-in that a "+
			"plan cannot do; expected a Google credentials file of type %s: run `gcloud auth application-default login` "+
			"(with --client-id-file naming this file to sign in through this client) and let Application Default "+
			"Credentials find the authorized_user file it writes, or give a service account key or a workload identity "+
			"federation file", kind, typeList())
	}
	found := "no \"type\""
	if h.Type != "" {
		found = fmt.Sprintf("type %q", h.Type)
	}
	return "", fmt.Errorf("it has %s; expected a Google credentials file of type %s", found, typeList())
}

// notCredentials says why content that json refused is no credentials file,
// without quoting it.
func notCredentials(err error) error {
	var syntax *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return fmt.Errorf("it is not JSON (syntax error at byte %d)", syntax.Offset)
	case errors.As(err, &typeErr) && typeErr.Field == "":
		return fmt.Errorf("it is JSON but not an object (found %s)", typeErr.Value)
	case errors.As(err, &typeErr):
		return fmt.Errorf("its %q is %s, not a string", typeErr.Field, typeErr.Value)
	}
	return fmt.Errorf("it is not JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
}

func typeList() string {
	names := make([]string, len(Types))
	for i, t := range Types {
		names[i] = string(t)
	}
	return strings.Join(names, ", ")
}

// secretFields are the members of a credentials file that are secrets: a
// service account's key, an authorized_user's client secret and refresh token.
var secretFields = []string{"private_key", "client_secret", "refresh_token"}

// Label names a credentials file's secrets where they are blanked.
const Label = "a secret of the Google credentials"

// AddSecrets registers the secrets of a credentials file's content in s: its
// secret members, and each line of a PEM key on its own (an error may quote
// one line).
func AddSecrets(s *redact.Secrets, content []byte) {
	var f map[string]any
	if json.Unmarshal(content, &f) != nil {
		return
	}
	for _, name := range secretFields {
		v, _ := f[name].(string)
		s.Add(Label, v)
		if strings.Contains(v, "-----BEGIN") {
			for _, line := range strings.Split(v, "\n") {
				if !strings.HasPrefix(line, "-----") {
					s.Add(Label, line)
				}
			}
		}
	}
}
