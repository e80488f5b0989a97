/**
 * runHarness: the real `claude` binary, offline, driven by a scripted mock model, in a fresh
 * isolated temp dir — and the run's Trace, with exact file changes and every model request.
 */
import path from "node:path";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { parseTranscript } from "../../src/trace/transcript.js";
import type { MockRun } from "../../mock-model/run/mock-run.js";
import { runAgentProcess, startScriptedRun } from "../run/lifecycle.js";
import { checkSpecEnv } from "../run/env.js";
import type { AgentRunResult } from "../run/result.js";
import { prepareRunDirs, type RunDirs } from "../workdir/prepare.js";
import { claudeObserveContext, createObserver, observing } from "../observe/observer.js";
import { resolveClaudeBinary } from "./binary.js";
import { buildChildEnv, ownedVariables } from "./env.js";
import { CLAUDE_FAILURES } from "./failure.js";
import { withHealth } from "./health.js";
import { withMcpWait } from "./mcp-wait.js";
import { refuseRootBypass, unloadedPlugins, validateSpec, type HarnessSpec } from "./spec.js";
import { hermeticTrial, originalPaths, withOriginalPlugins, type HermeticTrial } from "./hermetic.js";
import { refuseSandboxConflict, sandboxPreflight, sandboxState } from "./sandbox.js";
import { withCalibration } from "./calibrate.js";
import { openJailHost, specJail } from "./jail.js";
import { limitsFromEnv } from "../../src/policy/confine.js";
import type { LaunchWrapper } from "../run/lifecycle.js";

/** What a harness run produced. */
export interface HarnessResult extends AgentRunResult<HarnessResult> {
  /** The mock's view: every request, side requests, script errors, unused turns. */
  readonly mockRun: MockRun;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_PERMISSION_MODE = "acceptEdits";
const DEFAULT_MAX_RETRIES = 2;

/** The CLI arguments for a spec (the prompt goes on stdin). */
export function buildArgs(spec: HarnessSpec, dirs: RunDirs, cwd: string): string[] {
  const args = ["-p", "--output-format", "stream-json", "--verbose", "--include-hook-events", "--permission-mode", spec.permissionMode ?? DEFAULT_PERMISSION_MODE];
  if (dirs.settingsFile) args.push("--settings", dirs.settingsFile);
  for (const p of spec.plugins ?? []) args.push("--plugin-dir", path.resolve(cwd, p));
  if (dirs.mcpConfigFile) args.push("--mcp-config", dirs.mcpConfigFile);
  const allowed = spec.allowedTools ?? ["Skill", ...dirs.mcpServers.map((s) => `mcp__${s}`)];
  if (allowed.length > 0) args.push(`--allowedTools=${allowed.join(",")}`);
  if (spec.disallowedTools?.length) args.push(`--disallowedTools=${spec.disallowedTools.join(",")}`);
  if (spec.maxTurns !== undefined) args.push("--max-turns", String(spec.maxTurns));
  if (spec.model) args.push("--model", spec.model);
  args.push(...(spec.args ?? []));
  return args;
}

function refuseOwnedEnv(spec: HarnessSpec): void {
  const owned = ownedVariables(spec.env);
  if (owned.length > 0) {
    throw new InvalidInputError("INVALID_INPUT", `runHarness: spec.env sets ${owned.join(", ")}, which the harness owns (the mock model's endpoint and key, the isolated HOME and config dir)`, {
      detail: "  drop them: every harness run talks to the mock model only, with its own temp HOME",
    });
  }
  checkSpecEnv("runHarness", spec.env, spec.unsafeEnv);
}

/**
 * Run the real claude binary against a scripted mock model in a fresh temp work dir, and return
 * its Trace. Rejects with a HarnessError when the run failed (unless `reject: false`).
 */
export async function runHarness(spec: HarnessSpec): Promise<HarnessResult> {
  validateSpec(spec);
  refuseRootBypass(spec, "runHarness");
  refuseOwnedEnv(spec);
  // The mock tier runs the whole trial in proctor's jail unless the spec says why not.
  if (spec.sandbox && "jail" in spec.sandbox && spec.sandbox.jail === false) {
    throw new InvalidInputError("INVALID_INPUT", "runHarness: spec.sandbox.jail is false, but the mock tier always runs in proctor's jail", { detail: '  drop jail, or run without the jail, saying why: sandbox: { off: "why" }' });
  }
  const sandbox = sandboxState(spec.sandbox, true);
  refuseSandboxConflict("runHarness", spec.settings, sandbox, true);
  if (sandbox.on) sandboxPreflight("runHarness", process.env, "jail");
  const observe = observing(spec.observe);
  const resolveBinary = (cwd: string) => resolveClaudeBinary({ claudePath: spec.claudePath, cwd });
  let trial: HermeticTrial | undefined;
  const { cwd, mock, apiKey, run } = await startScriptedRun(spec, CLAUDE_FAILURES, resolveBinary, (mock, script, apiKey) => mock.addRun(script, { apiKey }));
  const limits = sandbox.on ? limitsFromEnv(process.env) : undefined;
  const host = sandbox.on ? await openJailHost(mock.url) : undefined;
  let result: HarnessResult;
  try {
    result = await runAgentProcess<HarnessResult, MockRun>({
      ...run,
      timeoutMs: spec.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      prepare() {
        trial = hermeticTrial(spec, prepareRunDirs(spec, cwd), cwd, sandbox, host !== undefined);
        const { dirs } = trial;
        const env = buildChildEnv(process.env, withMcpWait(spec.env, dirs.mcpServers), { home: dirs.home, tmp: dirs.tmpDir, configDir: dirs.configDir, baseUrl: mock.url, apiKey, maxRetries: spec.maxRetries ?? DEFAULT_MAX_RETRIES });
        const wrappers: LaunchWrapper[] = [];
        if (host !== undefined) {
          wrappers.push(specJail(spec, trial, { cwd, env, serveUrl: mock.url, limits }, host));
        }
        const args = buildArgs(trial.spec, dirs, cwd);
        const plugins = (trial.spec.plugins ?? []).map((p) => path.resolve(cwd, p));
        // The observer goes around the jail (wrappers are innermost first): strace follows claude's tree into it from outside.
        if (observe) wrappers.push(createObserver({ context: () => claudeObserveContext(run.binary, dirs.workDir, { settingsFile: dirs.settingsFile, mcpConfigFile: dirs.mcpConfigFile, plugins }) }));
        return { dirs, args, env, outside: trial.outside, wrappers };
      },
      readTrace: (proc) => {
        const parsed = parseTranscript(proc.stdout, { sourceKind: "harness" });
        const copies = trial?.pluginCopies ?? new Map<string, string>();
        // Jailed, the jail's finish() marks its refusals (jail.ts); off, nothing confined Bash.
        const trace = withOriginalPlugins(parsed, copies);
        const unloaded = originalPaths(unloadedPlugins(trace, spec.plugins ?? [], cwd), copies);
        const read = unloaded.length ? { ...trace, errors: [...trace.errors, ...unloaded] } : trace;
        return sandbox.on ? read : { ...read, confinement: { mode: "off", reason: sandbox.reason, refused: [] } };
      },
      judgeHealth: (trace, dirs, mockRun) => withHealth(trace, spec, dirs, mockRun),
    });
  } finally {
    // The run's wrappers close it too; this covers a run that failed before its wrappers existed.
    host?.close();
  }
  const trace = await withCalibration(result.trace, spec, run.binary, sandbox.on, runHarness);
  return trace === result.trace ? result : { ...result, trace };
}
