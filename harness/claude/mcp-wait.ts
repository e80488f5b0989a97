/**
 * With MCP servers configured, claude should wait for them to connect before the first turn:
 * some versions start without them, and on a loaded machine the eval then runs with its server
 * still `pending` (run-health item `mcp-servers-connected`). A spec's own setting wins.
 */
export function withMcpWait(env: Readonly<Record<string, string>> | undefined, mcpServers: readonly string[]): Readonly<Record<string, string>> | undefined {
  return mcpServers.length > 0 ? { MCP_CONNECTION_NONBLOCKING: "0", ...env } : env;
}
