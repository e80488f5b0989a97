/** What one Codex run is made of, and the checks that reject a bad spec before anything spawns. */
import { ProctorError } from "../../src/errors/proctor-error.js";
import { isPlainObject } from "../../src/match/arg-match.js";
import { describeValue } from "../../src/checks/validate.js";
import type { MockModel } from "../../mock-model/server/start.js";
import type { Script } from "../../mock-model/script/types.js";
import type { McpConfig } from "../claude/spec.js";

/** Codex's sandbox modes (`--sandbox`). */
export type CodexSandbox = "read-only" | "workspace-write" | "danger-full-access";

/**
 * One run of the real `codex exec` against the scripted mock model.
 * @example
 * await runCodex({
 *   prompt: "tidy up",
 *   script: { turns: [{ tools: [{ name: "exec_command", input: { cmd: "ls" } }] }, { text: "Done." }] },
 * });
 */
export interface CodexSpec {
  /** The user prompt (sent on stdin). */
  readonly prompt: string;
  /** What the model says: a Script, or the path of a JSON/YAML script file. Tools are called by the names Codex offers (`exec_command`, `apply_patch`, `mcp__<server>__<tool>`). */
  readonly script: Script | string;
  /** Files to create in the work dir: relative path → content (after `fixture` is copied). */
  readonly files?: Readonly<Record<string, string>>;
  /** A directory copied into the fresh work dir first. */
  readonly fixture?: string;
  /**
   * The model name Codex is told it talks to; it picks the tool set. @default "gpt-5.5" — in
   * codex-cli 0.171 the catalog model with plain function tools (`exec_command`, `apply_patch`, …);
   * newer slugs put every tool behind a JavaScript `exec` tool ("code mode").
   */
  readonly model?: string;
  /** @default "workspace-write" — writes inside the work dir, no network; what `codex exec` users run with. */
  readonly sandbox?: CodexSandbox;
  /** MCP servers, the same config `runHarness` takes (`{"mcpServers": {…}}` or a file path); each becomes `mcp_servers.<name>` with its tools pre-approved. */
  readonly mcpConfig?: McpConfig | string;
  /** Extra `-c key=value` config overrides (values are written as TOML). */
  readonly config?: Readonly<Record<string, unknown>>;
  /** Extra CLI arguments, after the harness's own. */
  readonly args?: readonly string[];
  /** Extra environment for the CLI (and so for its commands). Cannot override the isolation variables. */
  readonly env?: Readonly<Record<string, string>>;
  /** Kill the whole process tree after this long. @default 30000 */
  readonly timeoutMs?: number;
  /** How often Codex retries a failed request or a broken stream. @default 2 */
  readonly maxRetries?: number;
  /** Keep the temp dirs after `cleanup()` (and on failure), for debugging. @default false */
  readonly keep?: boolean;
  /** The codex binary; else `PROCTOR_CODEX`, `node_modules/.bin/codex`, then PATH. */
  readonly codexPath?: string;
  /** The mock server to use; the shared one is started on first use. */
  readonly mock?: MockModel;
  /** Throw a HarnessError when the run fails (timed out, killed, script overrun, tool not offered, unscripted API fault, crash). @default true */
  readonly reject?: boolean;
  /** Relative paths (fixture, script file, mcpConfig file) resolve against this. @default process.cwd() */
  readonly cwd?: string;
  /** Abort the run: the process tree is killed and the run fails as killed. */
  readonly signal?: AbortSignal;
}

const FIELDS = new Set([
  "prompt", "script", "files", "fixture", "model", "sandbox", "mcpConfig", "config", "args", "env", "timeoutMs", "maxRetries", "keep", "codexPath",
  "mock", "reject", "cwd", "signal",
]);
const SANDBOXES = ["read-only", "workspace-write", "danger-full-access"];

function bad(field: string, problem: string, value: unknown): never {
  throw new ProctorError("INVALID_INPUT", `runCodex: spec.${field} ${problem}; got ${describeValue(value)}`);
}

const isStringMap = (v: unknown) => isPlainObject(v) && Object.values(v).every((x) => typeof x === "string");

/** Reject a malformed spec, naming the field, the bad value and its type. */
export function validateCodexSpec(spec: unknown): asserts spec is CodexSpec {
  if (!isPlainObject(spec)) bad("", "must be an object like { prompt, script }", spec);
  for (const key of Object.keys(spec)) if (!FIELDS.has(key)) bad(key, `is not a field of a Codex spec (fields: ${[...FIELDS].join(", ")})`, spec[key]);
  if (typeof spec.prompt !== "string" || spec.prompt.trim() === "") bad("prompt", "must be a non-empty string", spec.prompt);
  if (typeof spec.script !== "string" && !isPlainObject(spec.script)) bad("script", "must be a Script object or the path of a script file", spec.script);
  const optional: [string, (v: unknown) => boolean, string][] = [
    ["files", isStringMap, "must map relative paths to file contents (strings)"],
    ["fixture", (v) => typeof v === "string" && v !== "", "must be a directory path"],
    ["model", (v) => typeof v === "string" && v !== "", "must be a model name"],
    ["sandbox", (v) => SANDBOXES.includes(v as string), `must be one of ${SANDBOXES.join(", ")}`],
    ["mcpConfig", (v) => typeof v === "string" || (isPlainObject(v) && isPlainObject(v.mcpServers)), 'must be {"mcpServers": {…}} or a config file path'],
    ["config", isPlainObject, "must map config keys to values"],
    ["args", (v) => Array.isArray(v) && v.every((x) => typeof x === "string"), "must be an array of strings"],
    ["env", isStringMap, "must map variable names to string values"],
    ["timeoutMs", (v) => typeof v === "number" && v > 0 && Number.isFinite(v), "must be a positive number of milliseconds"],
    ["maxRetries", (v) => Number.isInteger(v) && (v as number) >= 0, "must be a non-negative integer"],
    ["keep", (v) => typeof v === "boolean", "must be a boolean"],
    ["codexPath", (v) => typeof v === "string" && v !== "", "must be the path of the codex binary"],
    ["mock", (v) => typeof v === "object" && v !== null && typeof (v as { addResponsesRun?: unknown }).addResponsesRun === "function", "must be a server from startMockModel()"],
    ["reject", (v) => typeof v === "boolean", "must be a boolean"],
    ["cwd", (v) => typeof v === "string" && v !== "", "must be a directory path"],
    ["signal", (v) => v instanceof AbortSignal, "must be an AbortSignal"],
  ];
  for (const [field, ok, problem] of optional) if (spec[field] !== undefined && !ok(spec[field])) bad(field, problem, spec[field]);
  for (const p of Object.keys((spec.files ?? {}) as object)) {
    if (p.startsWith("/") || p.split(/[\\/]/).includes("..")) bad(`files[${JSON.stringify(p)}]`, "must be a path inside the work dir (relative, no ..)", p);
  }
}
