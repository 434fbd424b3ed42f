package googlecreds

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
)

const secret = "-----BEGIN PRIVATE KEY-----MIIEvQIBADANBg"

// A credentials file's content never appears in an error, whatever is
// wrong with it; a file of a type that would start an interactive sign-in
// is refused as what it is.
func TestCheck(t *testing.T) {
	for _, c := range []struct{ name, content, want string }{
		{"cut short", `{"type":"service_account","private_key":"` + secret, "not JSON"},
		{"a bare secret", secret, "not JSON (syntax error at byte"},
		{"an array", `["` + secret + `"]`, "not an object"},
		{"type not a string", `{"type":["` + secret + `"]}`, `"type" is array`},
		{"no type", `{"private_key":"` + secret + `"}`, `no "type"`},
		{"client secrets of an installed app", `{"installed":{"client_secret":"` + secret + `"}}`,
			`an OAuth client secrets file ("installed"), which would start an interactive sign-in`},
		{"client secrets of a web app", `{"web":{"client_secret":"` + secret + `"}}`, `client secrets file ("web")`},
		{"an unknown type", `{"type":"gdch_service_account","private_key":"` + secret + `"}`, `type "gdch_service_account"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := Check([]byte(c.content))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one saying %q", err, c.want)
			}
			if strings.Contains(err.Error(), "BEGIN") || strings.Contains(err.Error(), "MIIE") {
				t.Errorf("the error quotes the secret: %v", err)
			}
		})
	}
	for _, typ := range Types {
		if err := Check([]byte(`{"type":"` + string(typ) + `"}`)); err != nil {
			t.Errorf("type %s refused: %v", typ, err)
		}
	}
}

// The secrets of a file are registered: its key whole and line by line,
// its client secret and refresh token; nothing else.
func TestAddSecrets(t *testing.T) {
	var s redact.Secrets
	key := "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\n-----END PRIVATE KEY-----\n"
	AddSecrets(&s, []byte(`{"type":"service_account","client_email":"ci@p.iam.gserviceaccount.com","private_key":`+
		jsonQuote(key)+`,"client_secret":"client-secret-1","refresh_token":"refresh-token-1"}`))
	AddSecrets(&s, []byte(`not JSON`))
	got := s.Blank("line BKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj, client-secret-1, refresh-token-1, ci@p.iam.gserviceaccount.com")
	if want := "line (" + Label + "), (" + Label + "), (" + Label + "), ci@p.iam.gserviceaccount.com"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func jsonQuote(s string) string {
	return `"` + strings.ReplaceAll(s, "\n", `\n`) + `"`
}

// An external_account file's credential_source.file is checked as a
// credentials file is; other files, and an external_account file reading
// its token from a URL, have nothing to check.
func TestCheckSources(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "token")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	regular := filepath.Join(dir, "token.txt")
	if err := os.WriteFile(regular, []byte("subject-token"), 0o600); err != nil {
		t.Fatal(err)
	}
	external := func(file string) []byte {
		return []byte(`{"type":"external_account","credential_source":{"file":"` + file + `"}}`)
	}
	for content, want := range map[string]string{
		string(external(fifo)):                       "credential_source.file (the token the workload identity pool exchanges): " + fifo + " is a named pipe",
		string(external(filepath.Join(dir, "gone"))): filepath.Join(dir, "gone") + " cannot be read: no such file or directory",
		string(external(regular)):                    "",
		`{"type":"external_account","credential_source":{"url":"http://169.254.169.254/token"}}`: "",
		`{"type":"service_account","credential_source":{"file":"` + fifo + `"}}`:                 "",
		`not JSON`: "",
	} {
		err := CheckSources([]byte(content))
		switch {
		case want == "" && err != nil:
			t.Errorf("CheckSources(%s) = %v, want nil", content, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("CheckSources(%s) = %v, want %q", content, err, want)
		}
	}
}

// A credentials value that is not a credentials file is refused with what
// is wrong, never with what it holds, and is read no further than its bound:
// a token given in the wrong attribute, a folder, a device that never ends,
// a named pipe no one writes to (whose open would block the plan), a file
// over the size cap. Each is refused at once, the path named when it exists.
func TestRead(t *testing.T) {
	const token = "ya29.a-token-in-the-wrong-attribute"
	fifo := filepath.Join(t.TempDir(), "credentials.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	folder := t.TempDir()
	for _, c := range []struct{ name, value, want string }{
		{"a token", token, "neither JSON content"},
		{"a folder", folder, folder + " is a directory"},
		{"a device without end", "/dev/zero", "/dev/zero is a device, not a regular file"},
		{"a named pipe", fifo, fifo + " is a named pipe (FIFO), not a regular file"},
		{"a file over the cap", writeFile(t, "big.json", strings.Repeat(" ", 1<<20+1)), "over the 1024 KiB"},
		{"a file of secrets", writeFile(t, "env", "TOKEN="+token), "the file it names: it is not JSON"},
		{"JSON of another kind", `{"token":"` + token + `"}`, `no "type"`},
		{"nothing", "  ", "neither JSON content"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(c.value, time.Minute)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one saying %q", err, c.want)
			}
			if strings.Contains(err.Error(), token) {
				t.Errorf("the error shows the value: %v", err)
			}
		})
	}
}

// A path starting with ~/ is read in the home folder.
func TestRead_homeFolder(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	key := `{"type":"service_account","client_email":"a@p.iam.gserviceaccount.com","private_key":"k"}`
	if err := os.WriteFile(filepath.Join(home, "key.json"), []byte(key), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := Read("~/key.json", time.Minute); err != nil || string(got) != key {
		t.Fatalf("Read(~/key.json) = %q, %v; want the file in the home folder", got, err)
	}
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
