/** What one Codex run is made of, and the checks that reject a bad spec before anything spawns. */
import { isPlainObject } from "../../src/match/arg-match.js";
import { checkAgentSpec, type SpecShape } from "../run/spec.js";
import type { MockModel } from "../../mock-model/server/start.js";
import type { AgentRunSpec, McpConfig } from "../../src/eval/spec-types.js";
import type { Script } from "../../src/eval/script-types.js";

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
export interface CodexSpec extends AgentRunSpec {
  /** What the model says: a Script, or the path of a JSON/YAML script file. Tools are called by the names Codex offers (`exec_command`, `apply_patch`, `mcp__<server>__<tool>`). */
  readonly script: Script | string;
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
  /** The codex binary; else `PROCTOR_CODEX`, `node_modules/.bin/codex`, then PATH. */
  readonly codexPath?: string;
  /** The mock server to use; the shared one is started on first use. */
  readonly mock?: MockModel;
  /** Throw a HarnessError when the run fails (timed out, killed, script overrun, tool not offered, unscripted API fault, crash). @default true */
  readonly reject?: boolean;
}

const SANDBOXES = ["read-only", "workspace-write", "danger-full-access"];

/** A Codex spec's fields in order, with the rules of those only Codex runs have. */
const CODEX_SPEC: SpecShape = {
  runner: "runCodex",
  noun: "a Codex spec",
  fields: [
    "prompt", "script", "files", "fixture", "model", "sandbox", "mcpConfig", "config", "args", "env", "unsafeEnv", "timeoutMs", "maxRetries", "keep", "codexPath",
    "mock", "reject", "cwd", "signal",
  ],
  rules: {
    sandbox: [(v) => SANDBOXES.includes(v as string), `must be one of ${SANDBOXES.join(", ")}`],
    config: [isPlainObject, "must map config keys to values"],
    codexPath: [(v) => typeof v === "string" && v !== "", "must be the path of the codex binary"],
    mock: [(v) => typeof v === "object" && v !== null && typeof (v as { addResponsesRun?: unknown }).addResponsesRun === "function", "must be a server from startMockModel()"],
  },
};

/** Reject a malformed spec, naming the field, the bad value and its type. */
export function validateCodexSpec(spec: unknown): asserts spec is CodexSpec {
  checkAgentSpec(spec, CODEX_SPEC);
}
