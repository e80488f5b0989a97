/**
 * Replay preflight: what the recording's run had at start (its init line — claude version, tools,
 * MCP servers, plugins, skills, agents) against what the replay's run has. A replay on a set-up
 * that lacks what the recording used diverges for a reason that is not the behaviour under test;
 * saying so first keeps a user from debugging the wrong thing.
 */
import type { PreflightWarning } from "./types.js";

/** What one run's init line says it started with. */
export interface InitFacts {
  readonly version?: string;
  readonly tools: readonly string[];
  readonly mcpServers: readonly { readonly name: string; readonly status: string }[];
  /** Plugins loaded from a path (claude's built-in plugins, `path: "builtin"`, are left out: they come with the version). */
  readonly plugins: readonly string[];
  readonly skills: readonly string[];
  readonly agents: readonly string[];
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

/** The facts of the first `system/init` line of a stream-json text; undefined when it has none. */
export function initFacts(streamJson: string): InitFacts | undefined {
  for (const line of streamJson.split("\n")) {
    if (!line.includes('"init"')) continue;
    let event: Record<string, unknown>;
    try {
      event = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (event.type !== "system" || event.subtype !== "init") continue;
    const records = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => x !== null && typeof x === "object") : []);
    return {
      ...(typeof event.claude_code_version === "string" ? { version: event.claude_code_version } : {}),
      tools: strings(event.tools),
      mcpServers: records(event.mcp_servers).map((s) => ({ name: String(s.name), status: String(s.status) })),
      plugins: records(event.plugins)
        .filter((p) => p.path !== "builtin")
        .map((p) => String(p.name)),
      skills: strings(event.skills),
      agents: strings(event.agents),
    };
  }
  return undefined;
}

const missing = (recorded: readonly string[], now: readonly string[]) => recorded.filter((x) => !now.includes(x));

/**
 * The differences that can change a replay: what the recording had and the replay lacks (tools,
 * MCP servers or ones that no longer connect, plugins, skills, agents), plugins and MCP servers
 * the replay adds (their hooks and tools act on every call), and a different claude version.
 * Tools, skills and agents that only the replay has are left out: a newer claude adds built-ins.
 */
export function comparePreflight(recorded: InitFacts, now: InitFacts): PreflightWarning[] {
  const out: PreflightWarning[] = [];
  const add = (kind: PreflightWarning["kind"], names: readonly string[], what: string, fix: string) => {
    if (names.length) out.push({ kind, names, message: `${what}: ${names.join(", ")} (${fix})` });
  };
  if (recorded.version && now.version && recorded.version !== now.version) {
    out.push({ kind: "version", names: [recorded.version, now.version], message: `recorded on claude ${recorded.version}, replayed on ${now.version} (known wording changes are listed as drift, not divergences)` });
  }
  add("tools", missing(recorded.tools, now.tools), "tools the recording had and the replay does not offer", "a plugin, MCP server or --allowed-tools setting is missing");
  const connected = (servers: InitFacts["mcpServers"]) => servers.filter((s) => s.status === "connected").map((s) => s.name);
  add("mcp", missing(connected(recorded.mcpServers), connected(now.mcpServers)), "MCP servers connected in the recording and not now", "pass the same MCP config and check the server starts");
  add("mcp", missing(now.mcpServers.map((s) => s.name), recorded.mcpServers.map((s) => s.name)), "MCP servers the replay adds", "their tools and failures can change the run");
  add("plugins", missing(recorded.plugins, now.plugins), "plugins the recording loaded and the replay did not", "pass them with --plugin");
  add("plugins", missing(now.plugins, recorded.plugins), "plugins the replay loads and the recording did not", "their hooks act on every call");
  add("skills", missing(recorded.skills, now.skills), "skills the recording had and the replay does not", "load the plugin or skills dir that provides them");
  add("agents", missing(recorded.agents, now.agents), "agents the recording had and the replay does not", "load the plugin or agents dir that provides them");
  return out;
}
