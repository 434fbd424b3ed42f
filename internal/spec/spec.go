// Package spec validates the documents that the provider and the bundled registry
// server accept: A2A Agent Cards (0.3 and 1.0), MCP tool specs (a tools/list
// result) and App Hub AgentProperties. The schemas are embedded and compiled once
// per process; nothing is ever fetched over the network.
//
// This file holds the package's public types, shared by internal/provider and
// internal/registryserver; the functions of the contract live beside it, one
// concern per file: card.go (ValidateAgentCard, ParseAgentCard), toolspec.go
// (ValidateToolSpec, ParseToolSpec), properties.go (ValidateAgentProperties,
// AgentPropertiesFromCard), schemas.go (AgentPropertiesSchema), normalize.go
// (Normalize). Keep signatures stable.
package spec

import "fmt"

// MaxDocumentBytes is the registry's limit on one document, measured on its
// compact JSON form (what is sent on the wire).
const MaxDocumentBytes = 10240

// Kind names a document kind; it is also the name used in messages.
type Kind string

const (
	KindAgentCard       Kind = "agent card"
	KindToolSpec        Kind = "tool spec"
	KindAgentProperties Kind = "AgentProperties"
)

// Severity of a Problem.
type Severity string

const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
)

// Problem is one finding in a document.
type Problem struct {
	Severity Severity
	// Pointer is the RFC 6901 JSON pointer of the offending value ("" for the root).
	Pointer string
	// Line and Column locate the value in the caller's original text, 1-based.
	// Zero when unknown, and for a document written on one line (as
	// jsonencode writes it), where the pointer says more; a syntax error,
	// which has no pointer, keeps its position.
	Line, Column int
	// Message says what was expected and what was found, in one sentence.
	Message string
	// Excerpt quotes the offending value among its neighbours, such as
	// {"id": "lookup", "name": "Look up", "tags": "a,b"}, for a problem
	// without a position below the document's top level: a search finds
	// those names and values in the file the document came from, which a
	// pointer's array index (/skills/2/tags) does not. Empty otherwise.
	Excerpt string
}

// String renders the problem as "line 3, column 5: /skills/0/tags: <message>",
// or "/skills/0/tags: <message>; look for <excerpt>" without a position; the
// root pointer is "(root)".
func (p Problem) String() string {
	ptr := p.Pointer
	if ptr == "" {
		ptr = "(root)"
	}
	if p.Line > 0 {
		return fmt.Sprintf("line %d, column %d: %s: %s", p.Line, p.Column, ptr, p.Message)
	}
	if p.Excerpt != "" {
		return ptr + ": " + p.Message + "; look for " + p.Excerpt
	}
	return ptr + ": " + p.Message
}

// Result is the outcome of validating one document.
type Result struct {
	Kind Kind
	// Problems holds every error and warning, sorted by line, column, pointer.
	Problems []Problem
	// A2AVersion is "0.3" or "1.0" for an agent card whose version was detected.
	A2AVersion string
	// Compact is the normalised document (see Normalize) when it parsed as JSON.
	Compact []byte
}

// Valid reports whether the document has no error (warnings allowed).
func (r *Result) Valid() bool {
	for _, p := range r.Problems {
		if p.Severity == SeverityError {
			return false
		}
	}
	return true
}

// Errors returns the problems of severity error.
func (r *Result) Errors() []Problem { return r.filter(SeverityError) }

// Warnings returns the problems of severity warning.
func (r *Result) Warnings() []Problem { return r.filter(SeverityWarning) }

func (r *Result) filter(sev Severity) []Problem {
	var out []Problem
	for _, p := range r.Problems {
		if p.Severity == sev {
			out = append(out, p)
		}
	}
	return out
}

// Skill is one A2A skill, as exposed in Terraform attributes and search results.
type Skill struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Tags        []string `json:"tags"`
	Examples    []string `json:"examples,omitempty"`
}

// AgentCard is the subset of a card the provider exposes.
type AgentCard struct {
	A2AVersion  string // "0.3" or "1.0"
	Name        string
	Description string
	Version     string
	// URLs are the agent's endpoint URLs: `url` and `additionalInterfaces[].url` (0.3)
	// or `supportedInterfaces[].url` (1.0), in document order, without duplicates.
	URLs   []string
	Skills []Skill
}

// Tool is one MCP tool, with the MCP defaults for missing annotation hints applied
// (readOnlyHint false, destructiveHint true, idempotentHint false, openWorldHint true).
type Tool struct {
	Name            string
	Title           string
	Description     string
	ReadOnlyHint    bool
	DestructiveHint bool
	IdempotentHint  bool
	OpenWorldHint   bool
}
