package spec

import (
	"fmt"
	"slices"
)

// The MCP versions that tell how a tool's execution member is judged.
const (
	mcpVersionTasks     = "2025-11-25" // added Tool.execution (tasks)
	mcpVersionStateless = "2026-07-28" // moved tasks to an extension: no Tool.execution
	// metaProtocolVersion is the _meta key of MCP 2026-07-28 that names the
	// protocol version of a message.
	metaProtocolVersion = "io.modelcontextprotocol/protocolVersion"
)

// taskSupport are the values of execution.taskSupport in MCP 2025-11-25.
var taskSupport = []string{"forbidden", "optional", "required"}

// declaredMCPVersion is the MCP version a tools/list result declares: its
// _meta protocol version, else 2026-07-28 when it carries resultType (which
// only 2026-07-28 results do), else "" (none).
func declaredMCPVersion(root map[string]any) string {
	if meta, ok := root["_meta"].(map[string]any); ok {
		if v, ok := meta[metaProtocolVersion].(string); ok && v != "" {
			return v
		}
	}
	if _, ok := root["resultType"]; ok {
		return mcpVersionStateless
	}
	return ""
}

// toolExecution judges each tool's execution by the version the document
// declares. With none, it is accepted as sent: a tool spec written by hand
// names no version, and the member is valid in 2025-11-25. 2025-11-25 types
// it; 2026-07-28 and versions before 2025-11-25 do not have it, which is a
// warning (the registry keeps it as sent).
func (c *check) toolExecution() {
	root, _ := c.value.(map[string]any)
	tools, _ := root["tools"].([]any)
	version := declaredMCPVersion(root)
	if version == "" {
		return
	}
	for i, t := range tools {
		tool, _ := t.(map[string]any)
		exec, ok := tool["execution"]
		if !ok {
			continue
		}
		ptr := fmt.Sprintf("/tools/%d/execution", i)
		if version != mcpVersionTasks {
			c.add(SeverityWarning, ptr, true, "execution is not a member of an MCP %s Tool, the version this tool spec "+
				"declares (it was added in %s, and %s moved tasks to an extension); it is kept as sent, remove it if no "+
				"client reads it", version, mcpVersionTasks, mcpVersionStateless)
			continue
		}
		c.taskSupport(ptr, exec)
	}
}

// taskSupport checks an execution member of MCP 2025-11-25.
func (c *check) taskSupport(ptr string, exec any) {
	obj, ok := exec.(map[string]any)
	if !ok {
		c.add(SeverityError, ptr, false, "expected an object (MCP %s ToolExecution), found %s", mcpVersionTasks, jsonType(exec))
		return
	}
	ts, ok := obj["taskSupport"]
	if !ok {
		return
	}
	if s, isString := ts.(string); !isString || !slices.Contains(taskSupport, s) {
		c.add(SeverityError, ptr+"/taskSupport", false, "expected one of %q (MCP %s), found %s", taskSupport, mcpVersionTasks, describe(ts))
	}
}
