/**
 * The run specs an eval file declares (its mock, replay and real tiers), as data: what the
 * harness takes, minus the live objects (the mock server), so the core can describe an eval
 * without loading the harness. The harness adds `mock` and validates them.
 */
import type { Script } from "./script-types.js";
import type { HealthSwitches } from "../health/run-health.js";

export type PermissionMode = "default" | "acceptEdits" | "dontAsk" | "plan" | "bypassPermissions";

/** An MCP config as `--mcp-config` reads it. */
export interface McpConfig {
  readonly mcpServers: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/**
 * The trial's confinement: `{ off: "why" }` turns it off (the reason is kept in the Trace);
 * otherwise it is on, with the trial's roots and `allowWrite` writable and the network closed
 * except `allowedDomains`. The mock and replay tiers run in proctor's jail; the real tier in
 * proctor's jail with `jail: true`, else in Claude Code's own sandbox around Bash.
 */
export type SandboxSpec =
  | { readonly off: string }
  | {
      readonly allowedDomains?: readonly string[];
      readonly allowWrite?: readonly string[];
      /**
       * Real tier only: run the whole trial in proctor's jail (the mock tier always does), its one
       * way out an allowlist proxy to the API's host and `allowedDomains`; without it, the real
       * tier's sandbox is Claude Code's own, around Bash.
       */
      readonly jail?: boolean;
    };

/** What every agent run is made of, whichever agent (Claude Code, Codex) runs it. */
export interface AgentRunSpec {
  /** The user prompt (sent on stdin, so it may start with `-`). */
  readonly prompt: string;
  /** What the model says: a Script, or the path of a JSON/YAML script file. */
  readonly script: Script | string;
  /** Files to create in the work dir: relative path → content (after `fixture` is copied). */
  readonly files?: Readonly<Record<string, string>>;
  /** A directory copied into the fresh work dir first. */
  readonly fixture?: string;
  /** MCP servers: the config object (`{"mcpServers": {…}}`) or the path of a config file. */
  readonly mcpConfig?: McpConfig | string;
  readonly model?: string;
  /** Extra CLI arguments, after the harness's own. */
  readonly args?: readonly string[];
  /**
   * Extra environment for the CLI (and so for hooks, tools and commands): the only variables beyond
   * the fixed allowlist (PATH, SHELL, LANG, LC_*, TERM, TZ) that reach the run. Cannot set the isolation
   * variables (HOME, TMPDIR, XDG dirs, the endpoint and key). Proxy, code-injection (`NODE_OPTIONS`,
   * `LD_*`, `DYLD_*`, `BASH_ENV`) and credential-looking names are refused unless `unsafeEnv`.
   */
  readonly env?: Readonly<Record<string, string>>;
  /** Let `env` pass proxy, code-injection and credential-looking variables (they can reach the trace and the model). @default false */
  readonly unsafeEnv?: boolean;
  /** Kill the whole process tree after this long. @default 30000 */
  readonly timeoutMs?: number;
  /** How often the CLI retries a failed request or an API fault. @default 2 */
  readonly maxRetries?: number;
  /** Keep the temp dirs after `cleanup()` (and on failure), for debugging. @default false */
  readonly keep?: boolean;
  /** Throw a HarnessError when the run fails (timed out, killed, script overrun, unscripted API fault, crash). @default true */
  readonly reject?: boolean;
  /** Relative paths (fixture, script file, mcpConfig file, and Claude Code's plugins) resolve against this. @default process.cwd() */
  readonly cwd?: string;
  /** Abort the run: the process tree is killed and the run fails as killed. */
  readonly signal?: AbortSignal;
  /**
   * Run-health items switched off for this run, each with the reason it may legitimately fail
   * (see the README's "Run health"). Every item is on by default.
   * @example { "script-consumed": "the agent may stop once the tests pass" }
   */
  readonly health?: HealthSwitches;
}

/** One run of the real `claude` binary against the scripted mock model, without the live mock server (`HarnessSpec` in proctor/harness adds it). */
export interface ClaudeRunSpec extends AgentRunSpec {
  /** Settings (hooks, permissions, env …) written to a file and passed with `--settings`. */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** Plugin directories, each passed with `--plugin-dir`. */
  readonly plugins?: readonly string[];
  /** User-level skills: name → SKILL.md text (written to the run's own config dir). */
  readonly skills?: Readonly<Record<string, string>>;
  /** User-level subagents: name → agent .md text (written to the run's own config dir). */
  readonly agents?: Readonly<Record<string, string>>;
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
  /** `CLAUDE_CODE_MAX_RETRIES`: how often the CLI retries an API fault. @default 2 */
  readonly maxRetries?: number;
  /** The claude binary; else `PROCTOR_CLAUDE`, `node_modules/.bin/claude`, then PATH. */
  readonly claudePath?: string;
  /**
   * Confinement (needs bwrap, socat and perl on Linux). On by default for runHarness and runReplay
   * (proctor's jail), off by default for runEval (`{ jail: true }` for proctor's jail with an
   * egress allowlist, `{ allowedDomains: [...] }` for Claude Code's own sandbox).
   */
  readonly sandbox?: SandboxSpec;
  /**
   * Record what each call's processes did (strace; see docs/observation.md): `trace.observation`
   * and each call's `observed`. On by default where strace can trace; `false` runs unobserved, and
   * the effect checks then decide from the command text.
   * @default true
   */
  readonly observe?: boolean;
}

/**
 * One run of the real `claude` binary against the real Anthropic API.
 * @example
 * const { trace, cleanup } = await runEval({ prompt: "list the files", maxTurns: 3, maxBudgetUsd: 0.05 });
 */
export interface RunEvalSpec extends Omit<ClaudeRunSpec, "script"> {
  /** The API key. @default process.env.ANTHROPIC_API_KEY */
  readonly apiKey?: string;
  /** An API gateway in front of api.anthropic.com (`ANTHROPIC_BASE_URL`). @default the real API */
  readonly baseUrl?: string;
  /**
   * Cost cap of this one run, passed to claude as `--max-budget-usd`: a runaway loop on the real
   * API stops at the cap (the run ends with an error result the checks see). Per-measurement
   * caps are `measure`'s `budget.maxUsd`.
   * @default 1
   */
  readonly maxBudgetUsd?: number;
}

/** What to replay, and how the run is set up (everything runHarness takes but the script), without the live mock server. */
export interface ReplayRunSpec extends Omit<ClaudeRunSpec, "script" | "prompt"> {
  /** The recording: a path (stream-json from `claude -p`, a session log or its folder) or its text. */
  readonly recording: string;
  /** The prompt to start the run with. @default the recording's own (session logs), else "Replay the recorded run." */
  readonly prompt?: string;
  /** Compare tool results by status only, not text. @default false */
  readonly ignoreResultText?: boolean;
  /** Stop at the first tool result that differs; every agent then ends its turn. @default false */
  readonly stopAtFirstDivergence?: boolean;
  /**
   * Absolute paths outside the replay's work dir that recorded calls may still name (e.g. a system
   * file a recorded Read opened). Every other recorded path outside it is refused. @default []
   */
  readonly allowOutside?: readonly string[];
}
