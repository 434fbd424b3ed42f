package stdio

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
)

// DefaultInheritedEnv are the variables an MCP server started as a process
// gets from this process's environment when Command.InheritEnv names no more:
// the list the official MCP SDKs pass by default (the TypeScript SDK's
// getDefaultEnvironment and the Python SDK's get_default_environment; on
// Windows, the union of their two lists).
func DefaultInheritedEnv() []string {
	if runtime.GOOS == "windows" {
		return []string{"APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH", "PATHEXT", "PROCESSOR_ARCHITECTURE",
			"PROGRAMFILES", "SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "USERNAME", "USERPROFILE"}
	}
	return []string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"}
}

// WithheldEnvPrefix and WithheldEnv are the provider's own credentials (and
// settings): never inherited by an MCP server, even when InheritEnv names
// them. A value the configuration gives in Command.Env is its own choice.
const WithheldEnvPrefix = "AGENTREGISTRY_"

// WithheldEnv lists the credential variables, besides every AGENTREGISTRY_
// one, through which the provider (or Google's client libraries beneath it)
// may authenticate.
var WithheldEnv = []string{
	"GOOGLE_OAUTH_ACCESS_TOKEN", "GOOGLE_CREDENTIALS", "GOOGLE_CLOUD_KEYFILE_JSON", "GCLOUD_KEYFILE_JSON",
	"GOOGLE_APPLICATION_CREDENTIALS", "CLOUDSDK_AUTH_ACCESS_TOKEN",
}

// withheld tells whether name is a credential of the provider.
func withheld(name string) bool {
	return hasPrefixFold(name, WithheldEnvPrefix) || slices.ContainsFunc(WithheldEnv, func(w string) bool { return sameEnvName(w, name) })
}

// CheckInheritEnv refuses an InheritEnv entry that is not a variable name or
// a name prefix with one trailing "*", that would pass everything ("*"), or
// that names a credential of the provider.
func CheckInheritEnv(patterns []string) error {
	for _, p := range patterns {
		name, prefix := strings.CutSuffix(p, "*")
		switch {
		case name == "" || strings.ContainsAny(name, "=*\x00") || strings.TrimSpace(name) != name:
			return fmt.Errorf("inherit_env entry %q: expected a variable name, or a name prefix followed by one trailing * "+
				"(such as \"NODE_*\"); \"*\" alone would pass the whole environment", p)
		case !prefix && withheld(name):
			return fmt.Errorf("inherit_env entry %q: it is a credential of the provider, never passed to an MCP server; "+
				"give the server a credential of its own in env", p)
		}
	}
	return nil
}

// commandEnv is the environment of the server: the variables of
// DefaultInheritedEnv and those InheritEnv names, taken from this process's
// environment, less the provider's credentials, then env (overriding them).
// It is never nil: a nil exec.Cmd.Env would pass this process's environment.
func commandEnv(inherit []string, env map[string]string) []string {
	out := []string{}
	for _, kv := range os.Environ() {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" || withheld(name) || strings.HasPrefix(value, "()") { // "()": an exported shell function
			continue
		}
		if _, set := env[name]; !set && inherited(name, inherit) {
			out = append(out, kv)
		}
	}
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	slices.Sort(out)
	return out
}

// inherited tells whether name is in DefaultInheritedEnv or matches inherit.
func inherited(name string, inherit []string) bool {
	for _, p := range append(DefaultInheritedEnv(), inherit...) {
		if prefix, ok := strings.CutSuffix(p, "*"); ok && hasPrefixFold(name, prefix) || sameEnvName(p, name) {
			return true
		}
	}
	return false
}

// sameEnvName compares variable names as the system does: Windows ignores case.
func sameEnvName(a, b string) bool {
	if runtime.GOOS == "windows" {
		return strings.EqualFold(a, b)
	}
	return a == b
}

func hasPrefixFold(name, prefix string) bool {
	return len(name) >= len(prefix) && sameEnvName(name[:len(prefix)], prefix)
}
