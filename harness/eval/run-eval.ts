/**
 * runEval: the real `claude` binary against the real Anthropic API, isolated like runHarness
 * (fresh temp work dir and HOME, credentials scrubbed) — and the run's Trace, with usage and cost
 * from the CLI's result line. Without a key it refuses with NO_API_KEY, which `measure` reports as
 * a skipped eval.
 */
import path from "node:path";
import { parseTranscript } from "../../src/trace/transcript.js";
import type { Trace } from "../../src/trace/types.js";
import { resolveClaudeBinary } from "../claude/binary.js";
import { claudeVars } from "../claude/env.js";
import { CLAUDE_FAILURES } from "../claude/failure.js";
import { withHealth } from "../claude/health.js";
import { withMcpWait } from "../claude/mcp-wait.js";
import { buildArgs } from "../claude/run-harness.js";
import { refuseRootBypass, type HarnessSpec } from "../claude/spec.js";
import { attributeSandboxDenials, hermeticTrial, withOriginalPlugins } from "../claude/hermetic.js";
import { refuseSandboxConflict, sandboxPreflight, sandboxState } from "../claude/sandbox.js";
import { EGRESS_PORT, egressRules, openEgressHost } from "../claude/egress.js";
import { openJailHost, specJail, type JailHost } from "../claude/jail.js";
import { limitsFromEnv } from "../../src/policy/confine.js";
import type { LaunchWrapper } from "../run/lifecycle.js";
import type { ProcessResult } from "../process/run-process.js";
import type { FailureReason } from "../run/failure.js";
import { isolateEnv } from "../run/env.js";
import { findAgentBinary, runAgentProcess } from "../run/lifecycle.js";
import { claudeObserveContext, createObserver, observing } from "../observe/observer.js";
import { chooseFailureReason, type FailureProfile } from "../run/reason.js";
import type { AgentRunResult } from "../run/result.js";
import { prepareRunDirs, type RunDirs } from "../workdir/prepare.js";
import { DEFAULT_EVAL_BUDGET_USD, DEFAULT_EVAL_MAX_RETRIES, DEFAULT_EVAL_TIMEOUT_MS, resolveApiKey, validateEvalSpec, type RunEvalSpec } from "./spec.js";
import { requireObject, requireString } from "../../src/errors/arguments.js";

/** What a real-API run produced: runHarness's result without the mock's view. */
export interface EvalRunResult extends AgentRunResult<EvalRunResult> {}

/** The CLI arguments: runHarness's, plus the per-run cost cap. */
export function buildEvalArgs(spec: RunEvalSpec, dirs: RunDirs, cwd: string): string[] {
  requireObject("buildEvalArgs", "spec", spec, "a run spec checked by validateEvalSpec");
  requireObject("buildEvalArgs", "dirs", dirs, "the run's directories");
  requireString("buildEvalArgs", "cwd", cwd, "the directory the run works in");
  const args = buildArgs({ ...spec, script: {} } as HarnessSpec, dirs, cwd);
  const extra = spec.args?.length ?? 0;
  // The cap goes before the user's own extra arguments, which buildArgs appends last.
  args.splice(args.length - extra, 0, "--max-budget-usd", String(spec.maxBudgetUsd ?? DEFAULT_EVAL_BUDGET_USD));
  return args;
}

/** Allowlisted parent env + the spec's env + isolation and the one credential the run may use. */
export function buildEvalEnv(parent: Readonly<Record<string, string | undefined>>, spec: RunEvalSpec, dirs: Pick<RunDirs, "home" | "configDir" | "tmpDir">, apiKey: string): Record<string, string> {
  requireObject("buildEvalEnv", "parent", parent, "an environment such as process.env");
  requireObject("buildEvalEnv", "spec", spec, "a run spec checked by validateEvalSpec");
  requireObject("buildEvalEnv", "dirs", dirs, "the run's directories ({ home, configDir, tmpDir })");
  requireString("buildEvalEnv", "apiKey", apiKey, "the Anthropic API key");
  const vars = claudeVars({ configDir: dirs.configDir, apiKey, baseUrl: spec.baseUrl, maxRetries: spec.maxRetries ?? DEFAULT_EVAL_MAX_RETRIES });
  return isolateEnv(parent, spec.env, { home: dirs.home, tmp: dirs.tmpDir }, vars);
}

/** The spec's plugin dirs and arguments as the trial's copies have them. */
function copiedPaths(spec: HarnessSpec): Pick<RunEvalSpec, "plugins" | "args"> {
  return { ...(spec.plugins ? { plugins: spec.plugins } : {}), ...(spec.args ? { args: spec.args } : {}) };
}

/** The real API's words: no mock, so every API error is a fault, explained with what to do about it. */
const EVAL_FAILURES: FailureProfile = {
  ...CLAUDE_FAILURES,
  // A missing binary ranks below a timeout or an abort here; no mock, so no script overrun.
  order: ["timed-out", "killed", "binary-missing", "api-fault", "crashed"],
  hasApiError: (trace) => trace.outcome?.apiErrorStatus !== undefined || trace.errors.some((e) => e.kind === "api-error"),
  describeApiFault(trace) {
    const status = trace.outcome?.apiErrorStatus;
    const message = trace.errors.find((e) => e.kind === "api-error")?.message ?? `status ${status}`;
    const hint = status === 401 ? " — the API key was refused: check ANTHROPIC_API_KEY" : status === 529 || status === 429 ? " — the API is overloaded or rate-limited: lower concurrency or retry later" : "";
    return `failed with an API error: ${message}${hint}`;
  },
};

/** Why a finished real-API run failed, or undefined (max turns and the budget cap are the agent's ending, not a failure). */
export function chooseEvalReason(proc: ProcessResult, trace: Trace): FailureReason | undefined {
  return chooseFailureReason(proc, trace, EVAL_FAILURES);
}

/**
 * Run the real claude binary against the real API in a fresh temp work dir, and return its Trace.
 * Throws NO_API_KEY without a key (measure: a skipped eval) and a HarnessError when the run
 * failed (unless `reject: false`).
 */
export async function runEval(spec: RunEvalSpec): Promise<EvalRunResult> {
  validateEvalSpec(spec);
  const apiKey = resolveApiKey(spec);
  refuseRootBypass(spec, "runEval");
  const sandbox = sandboxState(spec.sandbox, false);
  const jailed = sandbox.on && sandbox.jail;
  refuseSandboxConflict("runEval", spec.settings, sandbox, jailed);
  if (sandbox.on) sandboxPreflight("runEval", process.env, jailed ? "jail" : "claude");
  const cwd = path.resolve(spec.cwd ?? process.cwd());
  let copies: ReadonlyMap<string, string> = new Map();
  const binary = findAgentBinary(EVAL_FAILURES, () => resolveClaudeBinary({ claudePath: spec.claudePath, cwd }));
  const observe = observing(spec.observe);
  const egress = jailed ? await openEvalEgress(spec.baseUrl, sandbox.allowedDomains) : undefined;
  try {
    return await runAgentProcess<EvalRunResult>({
      failures: EVAL_FAILURES,
      binary,
      spec,
      timeoutMs: spec.timeoutMs ?? DEFAULT_EVAL_TIMEOUT_MS,
      prepare() {
        const trial = hermeticTrial({ ...spec, script: {} } as HarnessSpec, prepareRunDirs(spec, cwd), cwd, sandbox, egress !== undefined);
        const { dirs } = trial;
        copies = trial.pluginCopies;
        const specEnv = withMcpWait(spec.env, dirs.mcpServers);
        const plugins = (trial.spec.plugins ?? []).map((p) => path.resolve(cwd, p));
        const env = { ...buildEvalEnv(process.env, specEnv ? { ...spec, env: specEnv } : spec, dirs, apiKey), ...(egress?.env ?? {}) };
        const wrappers: LaunchWrapper[] = [];
        if (egress) {
          wrappers.push(specJail(spec, trial, { cwd, env, serveUrl: egress.serveUrl, limits: limitsFromEnv(process.env) }, egress.host));
        }
        if (observe) wrappers.push(createObserver({ context: () => claudeObserveContext(binary, dirs.workDir, { settingsFile: dirs.settingsFile, mcpConfigFile: dirs.mcpConfigFile, plugins }) }));
        return { dirs, args: buildEvalArgs({ ...spec, ...copiedPaths(trial.spec) }, dirs, cwd), env, outside: trial.outside, wrappers };
      },
      readTrace: (proc) => {
        const trace = withOriginalPlugins(parseTranscript(proc.stdout, { sourceKind: "eval" }), copies);
        // Jailed, the jail's finish() marks its refusals; claude's sandbox, its denials; neither, nothing confined Bash.
        if (egress) return trace;
        return sandbox.on ? attributeSandboxDenials(trace) : trace;
      },
      judgeHealth: (trace, dirs) => withHealth(trace, spec, dirs, undefined, { maxBudgetUsd: spec.maxBudgetUsd ?? DEFAULT_EVAL_BUDGET_USD }),
    });
  } finally {
    egress?.host.close();
  }
}

/**
 * The jailed real tier's way out. An endpoint on loopback over http (a gateway on this machine,
 * or the mock standing in for one) is served inside on its own port, as the mock tier's is; any
 * other goes through the egress proxy (egress.ts), which connects only to the endpoint's host and
 * `allowedDomains`, with HTTPS_PROXY and HTTP_PROXY (both cases: curl reads only the lower) set
 * for claude and everything it runs.
 */
async function openEvalEgress(baseUrl: string | undefined, allowedDomains: readonly string[]): Promise<{ host: JailHost; serveUrl: string; env: Record<string, string> }> {
  const url = baseUrl === undefined ? undefined : new URL(baseUrl);
  if (url && url.protocol === "http:" && (url.hostname === "127.0.0.1" || url.hostname === "localhost")) {
    return { host: await openJailHost(baseUrl as string), serveUrl: baseUrl as string, env: {} };
  }
  const serveUrl = `http://127.0.0.1:${EGRESS_PORT}`;
  const env = { HTTPS_PROXY: serveUrl, HTTP_PROXY: serveUrl, https_proxy: serveUrl, http_proxy: serveUrl };
  return { host: await openEgressHost(egressRules(baseUrl, allowedDomains)), serveUrl, env };
}
