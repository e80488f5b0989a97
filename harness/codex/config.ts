/**
 * The `codex exec` command line for a spec: the mock model as a custom provider (HTTP only: no
 * WebSocket attempt, so no seconds of retries), nothing that reaches the network, the MCP
 * servers with their tools pre-approved, then the spec's own overrides.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { isPlainObject } from "../../src/match/arg-match.js";
import type { CodexSpec } from "./spec.js";

export const DEFAULT_CODEX_MODEL = "gpt-5.5";
export const DEFAULT_CODEX_SANDBOX = "workspace-write";
export const DEFAULT_CODEX_MAX_RETRIES = 2;
/** The provider id and the variable that carries the mock run's key. */
export const MOCK_PROVIDER = "proctor_mock";
export const MOCK_KEY_VAR = "PROCTOR_MOCK_API_KEY";

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** A value in TOML, as `-c key=value` parses it. */
export function tomlValue(value: unknown, at = "value"): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new InvalidInputError("INVALID_INPUT", `runCodex: ${at} must be a finite number for TOML; got ${value}`);
    return String(value);
  }
  if (Array.isArray(value)) return `[${value.map((v, i) => tomlValue(v, `${at}[${i}]`)).join(", ")}]`;
  if (isPlainObject(value)) {
    const pairs = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${pairs.map(([k, v]) => `${BARE_KEY.test(k) ? k : JSON.stringify(k)} = ${tomlValue(v, `${at}.${k}`)}`).join(", ")}}`;
  }
  throw new InvalidInputError("INVALID_INPUT", `runCodex: ${at} has no TOML form (TOML has no null); got ${value === null ? "null" : typeof value}`);
}

/** The MCP servers of a spec, from the config object or file `runHarness` also takes. */
export function readMcpServers(spec: CodexSpec, cwd: string): Record<string, Record<string, unknown>> {
  if (!spec.mcpConfig) return {};
  let config: unknown = spec.mcpConfig;
  if (typeof config === "string") {
    const file = path.resolve(cwd, config);
    try {
      config = JSON.parse(readFileSync(file, "utf8"));
    } catch (error) {
      throw new InvalidInputError("INVALID_INPUT", `runCodex: spec.mcpConfig ${file} is not a readable JSON file: ${(error as Error).message}`, { cause: error });
    }
  }
  const servers = isPlainObject(config) && isPlainObject(config.mcpServers) ? config.mcpServers : undefined;
  if (!servers) throw new InvalidInputError("INVALID_INPUT", 'runCodex: spec.mcpConfig must hold {"mcpServers": {"name": {"command": …}}}');
  for (const [name, server] of Object.entries(servers)) {
    if (!BARE_KEY.test(name)) throw new InvalidInputError("INVALID_INPUT", `runCodex: MCP server name ${JSON.stringify(name)} must be letters, digits, _ or - (Codex config keys)`);
    if (!isPlainObject(server)) throw new InvalidInputError("INVALID_INPUT", `runCodex: spec.mcpConfig.mcpServers.${name} must be an object like {"command": "node", "args": ["server.mjs"]}`);
  }
  return servers as Record<string, Record<string, unknown>>;
}

/** A Claude-style MCP server entry as a Codex `mcp_servers.<name>` table: `headers` → `http_headers`, no `type`, tools pre-approved. */
function codexServer(server: Record<string, unknown>): Record<string, unknown> {
  const { type: _type, headers, ...rest } = server;
  return { ...rest, ...(headers !== undefined ? { http_headers: headers } : {}), default_tools_approval_mode: rest.default_tools_approval_mode ?? "approve" };
}

/** The arguments after the binary: `exec --json …` and `-` (the prompt comes on stdin). */
export function buildCodexArgs(spec: CodexSpec, options: { baseUrl: string; mcpServers: Record<string, Record<string, unknown>> }): string[] {
  const retries = spec.maxRetries ?? DEFAULT_CODEX_MAX_RETRIES;
  const provider = {
    name: "proctor mock model",
    base_url: `${options.baseUrl}/v1`,
    env_key: MOCK_KEY_VAR,
    wire_api: "responses",
    supports_websockets: false,
    request_max_retries: retries,
    stream_max_retries: retries,
  };
  const config: [string, unknown][] = [
    ["model_provider", MOCK_PROVIDER],
    [`model_providers.${MOCK_PROVIDER}`, provider],
    // Off: usage analytics, the update check, and the plugin/app catalogs, which look up github.com and chatgpt.com.
    ["analytics.enabled", false],
    ["check_for_update_on_startup", false],
    ...Object.entries(options.mcpServers).map(([name, server]): [string, unknown] => [`mcp_servers.${name}`, codexServer(server)]),
    ...Object.entries(spec.config ?? {}),
  ];
  const args = ["exec", "--json", "--skip-git-repo-check", "--ephemeral", "--disable", "plugins", "--disable", "apps"];
  args.push("--model", spec.model ?? DEFAULT_CODEX_MODEL, "--sandbox", spec.sandbox ?? DEFAULT_CODEX_SANDBOX);
  for (const [key, value] of config) args.push("-c", `${key}=${tomlValue(value, `config ${key}`)}`);
  args.push(...(spec.args ?? []), "-");
  return args;
}
