/** What one harness run is made of, and the checks that reject a bad spec before anything spawns. */
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { isPlainObject } from "../../src/match/arg-match.js";
import { validateHealthSwitches } from "../../src/health/gate.js";
import { checkAgentSpec, isStringMap, rejectField, type SpecShape } from "../run/spec.js";
import type { MockModel } from "../../mock-model/server/start.js";
import type { ClaudeRunSpec } from "../../src/eval/spec-types.js";
import type { RunProblem, Trace } from "../../src/trace/types.js";
import { isSandboxSpec, SANDBOX_SPEC_PROBLEM } from "./sandbox.js";

export type { PermissionMode, McpConfig } from "../../src/eval/spec-types.js";

/**
 * One run of the real `claude` binary against the scripted mock model.
 * @example
 * await runHarness({
 *   prompt: "tidy up",
 *   script: { turns: [{ tools: [{ name: "Bash", input: { command: "rm -rf build" } }] }, { text: "Done." }] },
 *   plugins: ["./examples/plugin"],
 * });
 */
export interface HarnessSpec extends ClaudeRunSpec {
  /** The mock server to use; a shared one is started on first use. */
  readonly mock?: MockModel;
}

const MODES = ["default", "acceptEdits", "dontAsk", "plan", "bypassPermissions"];
const isStringList = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === "string" && x !== "");

/** A harness spec's fields in order, with the rules of those only Claude Code runs have. */
const HARNESS_SPEC: SpecShape = {
  runner: "runHarness",
  noun: "a harness spec",
  fields: [
    "prompt", "script", "files", "fixture", "settings", "plugins", "skills", "agents", "mcpConfig", "allowedTools", "disallowedTools",
    "permissionMode", "maxTurns", "model", "args", "env", "unsafeEnv", "timeoutMs", "maxRetries", "keep", "claudePath", "mock", "reject", "cwd", "signal", "health", "sandbox", "observe",
  ],
  rules: {
    settings: [isPlainObject, "must be a settings object"],
    plugins: [isStringList, "must be an array of plugin directory paths"],
    skills: [isStringMap, "must map skill names to SKILL.md text"],
    agents: [isStringMap, "must map agent names to agent .md text"],
    allowedTools: [isStringList, "must be an array of tool names/rules"],
    disallowedTools: [isStringList, "must be an array of tool names/rules"],
    permissionMode: [(v) => MODES.includes(v as string), `must be one of ${MODES.join(", ")}`],
    maxTurns: [(v) => Number.isInteger(v) && (v as number) > 0, "must be a positive integer"],
    claudePath: [(v) => typeof v === "string" && v !== "", "must be the path of the claude binary"],
    sandbox: [isSandboxSpec, SANDBOX_SPEC_PROBLEM],
    observe: [(v) => typeof v === "boolean", "must be true or false"],
    mock: [(v) => typeof v === "object" && v !== null && typeof (v as { addRun?: unknown }).addRun === "function", "must be a server from startMockModel()"],
  },
};

/**
 * Reject a malformed spec, naming the field, the bad value and its type — and any plugin dir,
 * settings or MCP config file that does not exist: a missing plugin silently leaves its hooks out,
 * and a guard test would then pass on claude's own guards.
 */
export function validateSpec(spec: unknown): asserts spec is HarnessSpec {
  checkAgentSpec(spec, HARNESS_SPEC);
  validateHealthSwitches(spec.health, "runHarness: spec.health");
  for (const name of [...Object.keys((spec.skills ?? {}) as object), ...Object.keys((spec.agents ?? {}) as object)]) {
    if (!/^[\w.:-]+$/.test(name)) rejectField("runHarness", "skills/agents", "names must be plain file names (letters, digits, . _ : -)", name);
  }
  refuseMissingPaths(spec as unknown as HarnessSpec);
}

const PLUGIN_PARTS = [".claude-plugin/plugin.json", "hooks/hooks.json", "skills", "agents", "commands", ".mcp.json"];

function kindOf(file: string): "dir" | "file" | undefined {
  try {
    return statSync(file).isDirectory() ? "dir" : "file";
  } catch {
    return undefined;
  }
}

function refuseMissing(field: string, given: string, resolved: string, want: "dir" | "file", why: string): void {
  const kind = kindOf(resolved);
  if (kind === want) return;
  const problem = kind === undefined ? `does not exist (${resolved})` : `is a ${kind === "dir" ? "directory" : "file"}, not a ${want === "dir" ? "directory" : "file"} (${resolved})`;
  throw new InvalidInputError("INVALID_INPUT", `runHarness: spec.${field} ${JSON.stringify(given)} ${problem}`, { detail: `  ${why}; relative paths resolve against spec.cwd (default: the current directory)` });
}

/** Plugin dirs, settings and MCP config files named by the spec (fields and CLI args) must exist. */
function refuseMissingPaths(spec: HarnessSpec): void {
  const cwd = path.resolve(spec.cwd ?? process.cwd());
  const pluginWhy = "without it the plugin's hooks, skills and agents are silently absent from the run";
  const checkPlugin = (field: string, given: string) => {
    const dir = path.resolve(cwd, given);
    refuseMissing(field, given, dir, "dir", pluginWhy);
    if (!PLUGIN_PARTS.some((p) => existsSync(path.join(dir, p)))) {
      throw new InvalidInputError("INVALID_INPUT", `runHarness: spec.${field} ${JSON.stringify(given)} is not a plugin directory (${dir})`, {
        detail: `  a plugin has at least one of ${PLUGIN_PARTS.join(", ")}; point at the plugin's root`,
      });
    }
    for (const file of [".claude-plugin/plugin.json", "hooks/hooks.json"]) {
      if (!existsSync(path.join(dir, file))) continue;
      try {
        JSON.parse(readFileSync(path.join(dir, file), "utf8"));
      } catch (error) {
        throw new InvalidInputError("INVALID_INPUT", `runHarness: spec.${field} ${JSON.stringify(given)}: ${file} is not valid JSON (${(error as Error).message})`, {
          cause: error,
          detail: "  claude silently skips such a plugin (or its hooks); fix the file",
        });
      }
    }
  };
  (spec.plugins ?? []).forEach((p, i) => {
    checkPlugin(`plugins[${i}]`, p);
  });
  if (typeof spec.mcpConfig === "string") refuseMissing("mcpConfig", spec.mcpConfig, path.resolve(cwd, spec.mcpConfig), "file", "claude would start without those MCP servers");
  for (const [field, text] of [...Object.entries(spec.skills ?? {}).map(([n, t]) => [`skills.${n}`, t] as const), ...Object.entries(spec.agents ?? {}).map(([n, t]) => [`agents.${n}`, t] as const)]) {
    const looksLikePath = !/\s/.test(text.trim()) && (/\.md$/i.test(text.trim()) || existsSync(path.resolve(cwd, text.trim())));
    if (text.trim() === "" || looksLikePath) {
      rejectField("runHarness", field, `must be the ${field.startsWith("skills") ? "SKILL.md" : "agent .md"} text itself (with its --- frontmatter), not ${text.trim() === "" ? "empty" : "a path: read the file and pass its text"}`, text);
    }
  }
  // The same paths passed as raw CLI arguments.
  const args = spec.args ?? [];
  args.forEach((arg, i) => {
    const [flag, inline] = arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = inline ?? args[i + 1];
    if (value === undefined) return;
    if (flag === "--plugin-dir") checkPlugin(`args[${inline === undefined ? i + 1 : i}]`, value);
    else if ((flag === "--settings" || flag === "--mcp-config") && !value.trimStart().startsWith("{")) {
      refuseMissing(`args[${inline === undefined ? i + 1 : i}]`, value, path.resolve(cwd, value), "file", `claude would run without that ${flag === "--settings" ? "settings file" : "MCP config"}`);
    }
  });
}

/**
 * The plugin dirs claude did not load, as run errors: it drops a plugin whose manifest it rejects
 * without a word, and a guard test would then be testing a run without its guard.
 */
export function unloadedPlugins(trace: Trace, plugins: readonly string[], cwd: string): RunProblem[] {
  const loaded = trace.source.plugins;
  if (!loaded) return [];
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  const have = new Set(loaded.map((p) => real(p.path)));
  return plugins
    .map((p) => path.resolve(cwd, p))
    .filter((p) => !have.has(real(p)))
    .map((p) => ({
      kind: "plugin-not-loaded",
      message: `claude did not load the plugin at ${p} (it is not among the plugins its init line lists: ${loaded.map((l) => l.name).join(", ") || "none"}); its hooks, skills and agents are absent from this run — check .claude-plugin/plugin.json against claude's plugin manifest`,
    }));
}

/** Claude refuses bypassPermissions as root unless the run declares a sandbox; say so before anything spawns. */
export function refuseRootBypass(spec: Pick<HarnessSpec, "permissionMode" | "env">, runner: string): void {
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  if (root && spec.permissionMode === "bypassPermissions" && spec.env?.IS_SANDBOX !== "1") {
    throw new InvalidInputError("INVALID_INPUT", `${runner}: permissionMode bypassPermissions is refused by claude when running as root`, {
      detail: '  use the default (acceptEdits) plus allowedTools, or declare a sandbox with env: { IS_SANDBOX: "1" }',
    });
  }
}
