package googlecreds

// Reading the files credentials name, bounded (internal/secretfile): given
// as `credentials`, as the file Application Default Credentials read, or as
// an external_account's credential_source.file, a FIFO, a device or a file
// on a hung file system would hang a plan that request_timeout does not
// bound.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/secretfile"
)

// Read is the content of a `credentials` value: the value itself when it is
// JSON (it starts with "{"), else the file it names ("~/" is the home
// folder), read as secretfile.Read reads it; either must be a credentials file
// (Check). Errors never quote the value or the file's content, either of
// which may be a secret, and name the path only once it is known to exist.
func Read(value string, timeout time.Duration) ([]byte, error) {
	content := []byte(strings.TrimSpace(value))
	if len(content) > 0 && content[0] == '{' {
		return content, Check(content)
	}
	name := strings.TrimSpace(value)
	if rest, ok := strings.CutPrefix(name, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			name = filepath.Join(home, rest)
		}
	}
	if _, err := os.Stat(name); err != nil {
		return nil, fmt.Errorf("it is neither JSON content (it does not start with \"{\") nor the path of a file "+
			"that can be read (%v)", secretfile.WithoutPath(err))
	}
	content, err := secretfile.Read(name, timeout)
	if err == nil {
		err = Check(content)
	}
	if err != nil {
		return nil, fmt.Errorf("the file it names: %w", err)
	}
	return content, nil
}

// CheckSources checks the files an external_account credentials file tells
// x/oauth2 to read (credential_source.file, the CI's token), as
// secretfile.Check does. x/oauth2 opens that file itself at every token refresh, with os.Open,
// which blocks on a FIFO: checking it here, before the file is handed over,
// turns the hang into an error. (Supplying the token through the library's
// SubjectTokenSupplier instead would mean building the external account
// configuration by hand from the file, which the library does and we should
// not redo.) Content of another type has nothing to check.
func CheckSources(content []byte) error {
	var f struct {
		Type   string `json:"type"`
		Source struct {
			File string `json:"file"`
		} `json:"credential_source"`
	}
	_ = json.Unmarshal(content, &f) // content that is not JSON names no file
	if f.Type != "external_account" || f.Source.File == "" {
		return nil
	}
	path := f.Source.File
	_, err := os.Stat(path)
	if err == nil {
		err = secretfile.Check(path)
	} else {
		err = fmt.Errorf("%s cannot be read: %w", path, secretfile.WithoutPath(err)) // a path in a file, not a secret
	}
	if err != nil {
		return fmt.Errorf("its credential_source.file (the token the workload identity pool exchanges): %w", err)
	}
	return nil
}
