/** What one harness run is made of, and the checks that reject a bad spec before anything spawns. */
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { ProctorError } from "../../src/errors/proctor-error.js";
import { isPlainObject } from "../../src/match/arg-match.js";
import { checkAgentSpec, isStringMap, rejectField, type SpecShape } from "../run/spec.js";
import type { MockModel } from "../../mock-model/server/start.js";
import type { Script } from "../../mock-model/script/types.js";
import type { RunError, Trace } from "../../src/trace/types.js";

export type PermissionMode = "default" | "acceptEdits" | "dontAsk" | "plan" | "bypassPermissions";

/** An MCP config as `--mcp-config` reads it. */
export interface McpConfig {
  readonly mcpServers: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/**
 * One run of the real `claude` binary against the scripted mock model.
 * @example
 * await runHarness({
 *   prompt: "tidy up",
 *   script: { turns: [{ tools: [{ name: "Bash", input: { command: "rm -rf build" } }] }, { text: "Done." }] },
 *   plugins: ["./examples/plugin"],
 * });
 */
export interface HarnessSpec {
  /** The user prompt (sent on stdin, so it may start with `-`). */
  readonly prompt: string;
  /** What the model says: a Script, or the path of a JSON/YAML script file. */
  readonly script: Script | string;
  /** Files to create in the work dir: relative path → content (after `fixture` is copied). */
  readonly files?: Readonly<Record<string, string>>;
  /** A directory copied into the fresh work dir first. */
  readonly fixture?: string;
  /** Settings (hooks, permissions, env …) written to a file and passed with `--settings`. */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** Plugin directories, each passed with `--plugin-dir`. */
  readonly plugins?: readonly string[];
  /** User-level skills: name → SKILL.md text (written to the run's own config dir). */
  readonly skills?: Readonly<Record<string, string>>;
  /** User-level subagents: name → agent .md text (written to the run's own config dir). */
  readonly agents?: Readonly<Record<string, string>>;
  /** MCP servers, passed with `--mcp-config`: the config object or the path of a config file. */
  readonly mcpConfig?: McpConfig | string;
  /**
   * Tools pre-approved with `--allowedTools`. Replaces the default, which is `["Skill"]` plus
   * `mcp__<server>` for each server in `mcpConfig` (the approvals a user gives a plugin they installed).
   */
  readonly allowedTools?: readonly string[];
  readonly disallowedTools?: readonly string[];
  /**
   * @default "acceptEdits" — edits and file commands inside the work dir run, anything that would
   * ask a user is denied, hooks and settings rules apply; the same as root and as a normal user.
   */
  readonly permissionMode?: PermissionMode;
  readonly maxTurns?: number;
  readonly model?: string;
  /** Extra CLI arguments, appended last. */
  readonly args?: readonly string[];
  /**
   * Extra environment for the CLI (and so for hooks and tools): the only variables beyond the
   * fixed allowlist (PATH, SHELL, LANG, LC_*, TERM, TZ) that reach the run. Cannot set the isolation
   * variables (HOME, TMPDIR, XDG dirs, the endpoint and key). Proxy, code-injection (`NODE_OPTIONS`,
   * `LD_*`, `DYLD_*`, `BASH_ENV`) and credential-looking names are refused unless `unsafeEnv`.
   */
  readonly env?: Readonly<Record<string, string>>;
  /** Let `env` pass proxy, code-injection and credential-looking variables (they can reach the trace and the model). @default false */
  readonly unsafeEnv?: boolean;
  /** Kill the whole process tree after this long. @default 30000 */
  readonly timeoutMs?: number;
  /** `CLAUDE_CODE_MAX_RETRIES`: how often the CLI retries an API fault. @default 2 */
  readonly maxRetries?: number;
  /** Keep the temp dirs after `cleanup()` (and on failure), for debugging. @default false */
  readonly keep?: boolean;
  /** The claude binary; else `PROCTOR_CLAUDE`, `node_modules/.bin/claude`, then PATH. */
  readonly claudePath?: string;
  /** The mock server to use; a shared one is started on first use. */
  readonly mock?: MockModel;
  /** Throw a HarnessError when the run fails (timed out, killed, script overrun, unscripted API fault, crash). @default true */
  readonly reject?: boolean;
  /** Relative paths (fixture, plugins, script file, mcpConfig file) resolve against this. @default process.cwd() */
  readonly cwd?: string;
  /** Abort the run: the process tree is killed and the run fails as killed. */
  readonly signal?: AbortSignal;
}

const MODES = ["default", "acceptEdits", "dontAsk", "plan", "bypassPermissions"];
const isStringList = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === "string" && x !== "");

/** A harness spec's fields in order, with the rules of those only Claude Code runs have. */
const HARNESS_SPEC: SpecShape = {
  runner: "runHarness",
  noun: "a harness spec",
  fields: [
    "prompt", "script", "files", "fixture", "settings", "plugins", "skills", "agents", "mcpConfig", "allowedTools", "disallowedTools",
    "permissionMode", "maxTurns", "model", "args", "env", "unsafeEnv", "timeoutMs", "maxRetries", "keep", "claudePath", "mock", "reject", "cwd", "signal",
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
  throw new ProctorError("INVALID_INPUT", `runHarness: spec.${field} ${JSON.stringify(given)} ${problem}`, { detail: `  ${why}; relative paths resolve against spec.cwd (default: the current directory)` });
}

/** Plugin dirs, settings and MCP config files named by the spec (fields and CLI args) must exist. */
function refuseMissingPaths(spec: HarnessSpec): void {
  const cwd = path.resolve(spec.cwd ?? process.cwd());
  const pluginWhy = "without it the plugin's hooks, skills and agents are silently absent from the run";
  const checkPlugin = (field: string, given: string) => {
    const dir = path.resolve(cwd, given);
    refuseMissing(field, given, dir, "dir", pluginWhy);
    if (!PLUGIN_PARTS.some((p) => existsSync(path.join(dir, p)))) {
      throw new ProctorError("INVALID_INPUT", `runHarness: spec.${field} ${JSON.stringify(given)} is not a plugin directory (${dir})`, {
        detail: `  a plugin has at least one of ${PLUGIN_PARTS.join(", ")}; point at the plugin's root`,
      });
    }
    for (const file of [".claude-plugin/plugin.json", "hooks/hooks.json"]) {
      if (!existsSync(path.join(dir, file))) continue;
      try {
        JSON.parse(readFileSync(path.join(dir, file), "utf8"));
      } catch (error) {
        throw new ProctorError("INVALID_INPUT", `runHarness: spec.${field} ${JSON.stringify(given)}: ${file} is not valid JSON (${(error as Error).message})`, {
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
export function unloadedPlugins(trace: Trace, plugins: readonly string[], cwd: string): RunError[] {
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
    throw new ProctorError("INVALID_INPUT", `${runner}: permissionMode bypassPermissions is refused by claude when running as root`, {
      detail: '  use the default (acceptEdits) plus allowedTools, or declare a sandbox with env: { IS_SANDBOX: "1" }',
    });
  }
}
