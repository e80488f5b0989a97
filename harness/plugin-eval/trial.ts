/**
 * The tiers a `claude plugin eval` suite runs on in proctor: the mock (each case's script sidecar
 * drives the real claude), a replay of a recorded run, or the real API. Each run is set up the way
 * claude's own runner sets up a case: `--permission-mode dontAsk`, the case's allowed and
 * disallowed tools, max turns, timeout, model and env, the plugin loaded only in the `with` arm.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import type { TrialContext } from "../../src/measure/measure.js";
import { evidenceFromStream, type AskJudge, type RunEvidence } from "../../src/plugin-eval/grade.js";
import type { SuiteTrial } from "../../src/plugin-eval/run-suite.js";
import type { Arm } from "../../src/plugin-eval/score.js";
import { scriptedJudgeAnswer } from "../../src/plugin-eval/scripted-judge.js";
import { mockCallLine } from "../../src/plugin-eval/mock-respond.js";
import { readSuiteMocks, type SuiteMocks } from "../../src/plugin-eval/mocks.js";
import { readCallLog, shadowPlugin, type ShadowPlugin } from "./shadow.js";
import type { PluginEvalSuite, SuiteCase } from "../../src/plugin-eval/types.js";
import type { ClaudeRunSpec, SandboxSpec } from "../../src/eval/spec-types.js";
import type { Trace } from "../../src/trace/types.js";
import { runHarness } from "../claude/run-harness.js";
import { runEval } from "../eval/run-eval.js";
import { runReplay } from "../replay/run-replay.js";
import { readSidecar, type CaseSidecar } from "./sidecar.js";
import { grantTools, ruleOf } from "../../src/plugin-eval/grant-notices.js";

export { grantTools, UNGATED_TOOLS } from "../../src/plugin-eval/grant-notices.js";

export type SuiteTier = "mock" | "replay" | "real";

/** A recorded run of a case, replayed by `--replay`: `<case>/proctor.recording.jsonl` (`.without.jsonl` for the without arm). */
export const recordingFile = (c: SuiteCase, arm: Arm) => join(c.dir, arm === "without" && existsSync(join(c.dir, "proctor.recording.without.jsonl")) ? "proctor.recording.without.jsonl" : "proctor.recording.jsonl");

export interface SuiteTierOptions {
  readonly tier: SuiteTier;
  readonly claudePath?: string | undefined;
  /** The judge model of the real tier. @default "haiku" (claude's default) */
  readonly judgeModel?: string | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Operator grants for gated tools (Bash, Write, Edit, WebFetch, mcp__*), as claude plugin eval's --allow-tools. */
  readonly allowTools?: readonly string[] | undefined;
  /** Let a plugin's MCP servers that the suite does not mock start for real (claude's --allow-real-servers). */
  readonly allowRealServers?: boolean | undefined;
  /** `off`: ignore the suite's mocks/ (claude's --mocks off); the plugin's servers then start for real. */
  readonly mocks?: "on" | "off" | undefined;
  /** Called with each run's raw stream-json (e.g. to write a first script from a real run). */
  readonly onStream?: ((c: SuiteCase, arm: Arm, trial: number, stdout: string) => void) | undefined;
}

/** Refuse, before any run, what proctor does not run of a suite, and what a tier lacks. */
export function checkSuiteRunnable(suite: PluginEvalSuite, tier: SuiteTier): Map<SuiteCase, CaseSidecar | undefined> {
  const sidecars = new Map<SuiteCase, CaseSidecar | undefined>();
  for (const c of suite.cases) {
    const where = `case ${JSON.stringify(c.case.name)} (${c.relDir})`;
    if (c.case.plugins?.length) throw new InvalidInputError("INVALID_INPUT", `${where}: plugins: (more plugins for the case) is not supported by proctor run yet`, { hint: "drop it, or run the suite with claude plugin eval" });
    if (c.case.context.history_file) throw new InvalidInputError("INVALID_INPUT", `${where}: context.history_file (resuming a recorded session) is not supported by proctor run yet`);
    if (existsSync(join(c.dir, "mocks"))) throw new InvalidInputError("INVALID_INPUT", `${where}: a case's own mocks/ is not supported by proctor run yet`, { hint: "put the mocks in the suite's mocks/ directory, or run the suite with claude plugin eval" });
    const sidecar = readSidecar(c);
    if (tier === "mock" && !sidecar) throw new InvalidInputError("INVALID_INPUT", `${where} has no script for the mock tier: write ${c.relDir}/proctor.script.json`, { hint: 'a script looks like {"turns": [{"text": "Done."}], "judge": {"<llm grader>": "PASS"}}; or run once with --real --write-scripts' });
    if (tier === "replay" && !existsSync(recordingFile(c, "with"))) throw new InvalidInputError("INVALID_INPUT", `${where} has no recording to replay: ${c.relDir}/proctor.recording.jsonl`, { hint: "record one with --real --write-scripts" });
    sidecars.set(c, sidecar);
  }
  return sidecars;
}

/** The run spec of one case on one arm (everything but the script). */
export function caseSpec(suite: PluginEvalSuite, c: SuiteCase, arm: Arm, claudePath: string | undefined, allowTools: readonly string[] = []): Omit<ClaudeRunSpec, "script"> {
  const e = c.case.execution;
  const tools = grantTools(e.allowed_tools, allowTools, e.disallowed_tools);
  // A withheld tool is not offered at all (disallowed), so it cannot even be called and refused.
  const withheld = [...new Set([...tools.withheld.filter((t) => ruleOf(t).content === undefined), ...(e.disallowed_tools ?? [])])];
  const args = [...(e.append_system_prompt ? ["--append-system-prompt", e.append_system_prompt] : []), ...c.case.context.add_dirs.flatMap((d) => ["--add-dir", resolve(c.dir, d)])];
  return {
    prompt: e.prompt,
    cwd: c.dir,
    plugins: arm === "with" && suite.pluginDir ? [suite.pluginDir] : [],
    permissionMode: "dontAsk",
    allowedTools: tools.allowed,
    ...(withheld.length ? { disallowedTools: withheld } : {}),
    maxTurns: e.max_turns,
    timeoutMs: e.timeout_seconds * 1000,
    ...(e.model ? { model: e.model } : {}),
    ...(Object.keys(e.env).length ? { env: e.env } : {}),
    args,
    reject: false,
    ...(claudePath ? { claudePath } : {}),
  };
}

/** The files `{source: file}` targets read, read now (before the work dir goes). */
function fileReader(c: SuiteCase, workDir: string): (path: string) => string | undefined {
  const paths = new Set<string>();
  for (const g of c.case.graders) {
    const t = g.type === "regex" ? g.target : g.type === "llm" ? g.focus : undefined;
    if (typeof t === "object") paths.add(t.path);
  }
  const texts = new Map<string, string | undefined>();
  for (const p of paths) {
    const file = resolve(workDir, p);
    texts.set(p, existsSync(file) && statSync(file).isFile() ? readFileSync(file, "utf8") : undefined);
  }
  return (path) => texts.get(path);
}

/** A file of the case (a baseline grader's recording), with claude's message when it is missing. */
function caseFile(c: SuiteCase, p: string): string {
  const file = resolve(c.dir, p);
  if (!existsSync(file)) throw new Error(`case ${JSON.stringify(c.case.name)}: path ${JSON.stringify(p)} does not exist`);
  return readFileSync(file, "utf8");
}

const createdOf = (trace: Trace) => (trace.files?.changes ?? []).filter((f) => f.change === "created").map((f) => f.path);

/** The stand-ins append to the call log outside the trial: in the jail that dir is declared writable (a spec that turned the sandbox off keeps it off). */
function callLogWritable(sandbox: SandboxSpec | undefined, callDir: string): { sandbox: SandboxSpec } {
  if (sandbox && "off" in sandbox) return { sandbox };
  return { sandbox: { ...sandbox, allowWrite: [...(sandbox?.allowWrite ?? []), callDir] } };
}

/** The mocks a suite runs with, and the shadow plugin that serves them; undefined without mocks. */
function suiteMocks(suite: PluginEvalSuite, options: SuiteTierOptions): { mocks: SuiteMocks; shadow: ShadowPlugin; tools: string[] } | undefined {
  if (options.mocks === "off") return undefined;
  const mocks = readSuiteMocks(suite.root);
  if (!mocks || mocks.servers.length === 0) return undefined;
  if (!suite.pluginDir) {
    throw new InvalidInputError("INVALID_INPUT", `${mocks.dir}: mocks stand in for a plugin's MCP servers, but ${suite.root} is not inside a plugin (no .claude-plugin/plugin.json in its parent)`, { hint: "keep the eval dir in the plugin it tests, or run with --mocks off" });
  }
  const shadow = shadowPlugin(suite.pluginDir, suite.root, mocks, { allowRealServers: options.allowRealServers === true });
  return { mocks, shadow, tools: mocks.servers.flatMap((s) => [...s.responders.keys()].map((tool) => shadow.toolName(s.name, tool))) };
}

/** The trial runner and the judge for a suite on a tier; `close()` removes what the tier set up. */
export function suiteTier(suite: PluginEvalSuite, options: SuiteTierOptions) {
  const sidecars = checkSuiteRunnable(suite, options.tier);
  const mocked = suiteMocks(suite, options);
  const runTrial = async (c: SuiteCase, arm: Arm, trial: number, _context: TrialContext): Promise<SuiteTrial> => {
    const base = caseSpec(suite, c, arm, options.claudePath, options.allowTools);
    // The with arm loads the shadow plugin, whose stand-ins log each call for mock_calls and aborts.
    const callDir = mocked && arm === "with" ? mkdtempSync(join(tmpdir(), "proctor-mock-calls-")) : undefined;
    const callLog = callDir ? join(callDir, "calls.jsonl") : undefined;
    const spec = {
      ...base,
      // Mocked tools are allowed without a grant, as in claude plugin eval.
      ...(mocked && arm === "with" ? { plugins: [mocked.shadow.dir], allowedTools: [...(base.allowedTools ?? []), ...mocked.tools], env: { ...base.env, PROCTOR_MOCK_CALLS: callLog as string }, ...(options.tier === "real" ? {} : callLogWritable(base.sandbox, callDir as string)) } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    };
    const sidecar = sidecars.get(c);
    try {
      const result =
        options.tier === "mock"
          ? await runHarness({ ...spec, script: (arm === "without" ? sidecar?.without : undefined) ?? (sidecar?.script as NonNullable<typeof sidecar>["script"]) })
          : options.tier === "replay"
            ? await runReplay({ ...spec, recording: recordingFile(c, arm) })
            : await runEval(spec);
      try {
        options.onStream?.(c, arm, trial, result.stdout);
        const log = callLog && mocked ? readCallLog(callLog) : undefined;
        const silent = mocked?.shadow.mocked.filter((server) => !log?.ready.has(server)) ?? [];
        if (log && silent.length) throw new Error(`the mock stand-in for ${silent.join(", ")} never started in this run (no identity line in its call log), so what the run asked of it is unknown`);
        const calls = log?.calls;
        const mockCalls = calls?.map((r) => mockCallLine({ tool: mocked?.shadow.toolName(r.server, r.tool) ?? r.tool, input: r.input, output: r.output, verdict: r.verdict }));
        const evidence: RunEvidence = { ...evidenceFromStream(result.stdout, createdOf(result.trace), fileReader(c, result.workDir)), caseFile: (p: string) => caseFile(c, p), ...(mockCalls ? { mockCalls } : {}) };
        const abort = calls?.find((r) => r.verdict === "abort");
        const error = result.failure ? result.failure.shortMessage : null;
        return { trace: result.trace, evidence, error, ...(abort ? { aborted: { server: abort.server, tool: abort.tool, reason: abort.output } } : {}) };
      } finally {
        await result.cleanup();
      }
    } finally {
      if (callDir) rmSync(callDir, { recursive: true, force: true });
    }
  };
  const judge = (c: SuiteCase): AskJudge | undefined => {
    if (options.tier !== "real") {
      const rules = sidecars.get(c)?.judge ?? {};
      const graders = c.case.graders.map((grader) => ({ grader, rules }));
      return async (prompt) => scriptedJudgeAnswer(prompt, graders);
    }
    return async (prompt) => {
      const { trace, cleanup } = await runEval({ prompt, args: ["--tools", ""], maxTurns: 1, model: options.judgeModel ?? "haiku", maxBudgetUsd: 0.25, timeoutMs: 120_000, ...(options.claudePath ? { claudePath: options.claudePath } : {}) });
      await cleanup();
      return trace.output ?? "";
    };
  };
  const close = () => mocked?.shadow.cleanup();
  return { runTrial, judge, close, mocks: mocked ? { servers: mocked.shadow.mocked, withheld: mocked.shadow.withheld, warnings: mocked.mocks.warnings, tools: mocked.tools } : undefined };
}
