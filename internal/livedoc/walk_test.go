package livedoc_test

// The walk of a protected read: every HTTP request of a read behind OAuth
// (the MCP requests, the metadata, the token request) is traced when it asks
// for a connection, and its call stack reduced to the project's packages it
// passes through, outermost first. A walk that goes from one package into
// another and later back into the first (A, B, A) has a seam that leaks: the
// inner package calls back into the one that called it.

import (
	"context"
	"fmt"
	"net/http/httptrace"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
)

const module = "github.com/agentregistry/terraform-provider-agentregistry/"

// room is where a frame's code is: its package (by=package) or its file
// (by=file), "" for code outside the project, in a test or in test support.
func room(f runtime.Frame, by string) string {
	if !strings.HasPrefix(f.Function, module) || strings.HasSuffix(f.File, "_test.go") ||
		strings.Contains(f.File, "/livedoctest/") {
		return ""
	}
	if by == "file" {
		return f.File[strings.Index(f.File, "/internal/")+1:]
	}
	pkg := strings.TrimPrefix(f.Function, module)
	if i := strings.LastIndex(pkg, "/"); i >= 0 {
		return pkg[:i] + "/" + strings.SplitN(pkg[i+1:], ".", 2)[0]
	}
	return strings.SplitN(pkg, ".", 2)[0]
}

// returns lists, in a walk (outermost room first), each room entered again
// after the walk left it for another.
func returns(walk []string) []string {
	var seq, out []string
	for _, r := range walk {
		if r != "" && (len(seq) == 0 || seq[len(seq)-1] != r) {
			if slices.Contains(seq, r) {
				out = append(out, strings.Join(append(seq[slices.Index(seq, r):], r), " > "))
			}
			seq = append(seq, r)
		}
	}
	return out
}

// protectedWalks reads the tools of a protected server and returns the
// rooms of each request's stack, outermost first, one walk per distinct
// stack.
func protectedWalks(t *testing.T, by string) [][]string {
	t.Helper()
	as := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: "walk", Secret: "walk-secret-0123456789",
		Methods: []string{livedoctest.SecretBasic}})
	s := livedoctest.ServeProtectedMCP(t, livedoctest.NewMCPServer(1, livedoctest.NamedTools("a", "b")...), as,
		livedoctest.ProtectedOptions{})
	var mu sync.Mutex
	seen := map[string][]string{}
	trace := &httptrace.ClientTrace{GetConn: func(string) {
		pcs := make([]uintptr, 128)
		frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
		var walk []string
		for f, more := frames.Next(); ; f, more = frames.Next() {
			walk = append(walk, room(f, by))
			if !more {
				break
			}
		}
		slices.Reverse(walk)
		mu.Lock()
		seen[fmt.Sprint(walk)] = walk
		mu.Unlock()
	}}
	ctx := httptrace.WithClientTrace(context.Background(), trace)
	if _, err := livedoc.FetchToolSpec(ctx, s.URL, livedoc.ToolSpecOptions{OAuth: benchOAuthFor("walk", "walk-secret-0123456789")}); err != nil {
		t.Fatal(err)
	}
	if len(as.Requests()) != 1 {
		t.Fatalf("%d token requests, want 1", len(as.Requests()))
	}
	var walks [][]string
	for _, w := range seen {
		walks = append(walks, w)
	}
	return walks
}

// No request of a protected read walks back into a package it left; the
// files it walks back into are logged (go test -v) for comparison.
func TestProtectedReadWalk(t *testing.T) {
	for _, by := range []string{"package", "file"} {
		found := map[string]bool{}
		walks := protectedWalks(t, by)
		for _, w := range walks {
			for _, r := range returns(w) {
				found[r] = true
			}
		}
		t.Logf("by %s: %d distinct stacks, %d distinct returns", by, len(walks), len(found))
		for r := range found {
			if by == "package" {
				t.Errorf("the walk returns into a package it left: %s", r)
			} else {
				t.Logf("  %s", r)
			}
		}
	}
}
