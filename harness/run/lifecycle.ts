/**
 * One run's life, the same for every agent CLI: prepare the temp dirs, snapshot, run the process
 * tree, diff, read the trace, choose the failure reason, and hand back a result whose cleanup()
 * removes the dirs once — or throw the HarnessError that carries it. What differs between
 * agents (the binary, its argv and env, how its output becomes a Trace, how it fails) comes in.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import { isProctorError } from "../../src/errors/proctor-error.js";
import type { Script } from "../../src/eval/script-types.js";
import { loadScript, validateScript } from "../../mock-model/script/schema.js";
import type { MockModel } from "../../mock-model/server/start.js";
import type { RunProblem, Trace } from "../../src/trace/types.js";
import { runProcess, type ProcessResult } from "../process/run-process.js";
import { keepRunDirs, removeRunDirs, removeRunDirsInBackground, type RunDirs } from "../workdir/prepare.js";
import { diffSnapshots, takeSnapshot } from "../workdir/snapshot.js";
import { diffRoots, snapshotRoots, type OutsidePlan } from "../workdir/outside.js";
import { HarnessError, quoteArg } from "./failure.js";
import { useSharedMock, warmIfCold, type MockView } from "./mock.js";
import { chooseFailureReason, describeFailure, type FailureProfile } from "./reason.js";
import type { AgentRunResult } from "./result.js";

/** How to start the binary in a run's temp dirs. */
export interface Launch {
  readonly dirs: RunDirs;
  readonly args: string[];
  readonly env: Record<string, string>;
  /** The trial's other writable roots, compared before and after like the work dir (absent: only the work dir is). */
  readonly outside?: OutsidePlan;
  /**
   * What runs around the binary, innermost first (the jail, then the observer around it): each
   * turns the command line into the one to spawn, may add to the Trace once the run ended, and
   * releases what it holds whatever happened.
   */
  readonly wrappers?: readonly LaunchWrapper[];
}

/** One layer around an agent's command line (see Launch.wrappers). */
export interface LaunchWrapper {
  /** What it is, for messages (`jail`, `observer`). */
  readonly name: string;
  /** The command line to spawn instead of `binary args`. */
  wrap(binary: string, args: readonly string[]): { readonly binary: string; readonly args: readonly string[] };
  /** Add what this layer saw to the run's Trace (before run health is judged). */
  finish?(trace: Trace, proc: ProcessResult): Trace;
  /** Release temp files, listeners, cgroups: called once, after the run, whatever happened. */
  dispose?(): void;
}

/**
 * One agent run, with everything that differs between agents. `M` is the mock model's run that
 * answers it (none against the real API).
 */
export interface AgentRun<M extends MockView | undefined = undefined> {
  /** How this kind of run names its CLI and says why it failed. */
  readonly failures: FailureProfile;
  readonly binary: string;
  /** What every agent's spec says about a run's life: the prompt (sent on stdin), keep, reject and an abort signal. */
  readonly spec: { readonly prompt: string; readonly keep?: boolean; readonly reject?: boolean; readonly signal?: AbortSignal };
  /** The spec's timeoutMs or the agent's default. */
  readonly timeoutMs: number;
  /**
   * Register the run on the mock model (absent against the real API): called once the binary is
   * started, in the same tick, so it holds before the CLI can send a request, and the script's
   * check runs while the CLI boots rather than before it. If it throws (a bad script), the CLI is
   * killed at once and the error is the run's. Its errors join the trace; it stops serving when the run ends.
   */
  readonly register?: () => M;
  /** Create the temp dirs and say how to start the binary in them. */
  prepare(): Launch;
  /** The agent's own Trace from its output; the snapshot's files, the mock's requests and the run's errors are added after. */
  readTrace(proc: ProcessResult, dirs: RunDirs, mockRun: M): Trace;
  /** Judge the finished Trace's run health (files, requests and run errors added): returns it with `health` set. */
  judgeHealth?(trace: Trace, dirs: RunDirs, mockRun: M): Trace;
}

/** The binary to run, or the binary-missing HarnessError thrown before anything starts — one wording for every agent. */
export function findAgentBinary(failures: FailureProfile, resolve: () => string): string {
  try {
    return resolve();
  } catch (error) {
    if (!isProctorError(error)) throw error;
    throw new HarnessError({ reason: "binary-missing", command: failures.placeholder, stderrTail: "", exitCode: null, signal: null, timedOut: false, durationMs: 0 }, "could not start", {
      cause: error,
      extra: [`  ${error.message.replace(/\n/g, "\n  ")}`],
      agent: failures.agent,
    });
  }
}

/** A scripted run, ready to start: its cwd, the mock server, the API key the run will be registered under, and the fields `runAgentProcess` takes from them. */
export interface ScriptedRunStart<M extends MockView> {
  readonly cwd: string;
  readonly mock: MockModel;
  /** The key to hand the CLI: `register` adds the run under it. */
  readonly apiKey: string;
  readonly run: Pick<AgentRun<M>, "failures" | "binary" | "spec"> & { readonly register: () => M };
}

/**
 * Resolve what a scripted run needs before anything is prepared, in one order for every agent:
 * a script file (a bad one fails first), the binary (missing: a HarnessError, unless an inline
 * script is bad too, which then fails first), the mock (the spec's own server, else the shared
 * one). An inline script is checked when the run is registered, once the CLI is started: the
 * check is most of what comes before the start in a fresh process, and the CLI takes far longer
 * to boot than the check takes to run.
 */
export async function startScriptedRun<M extends MockView>(
  spec: AgentRun["spec"] & { readonly cwd?: string; readonly script: Script | string; readonly mock?: MockModel },
  failures: FailureProfile,
  resolveBinary: (cwd: string) => string,
  addRun: (mock: MockModel, script: Script, apiKey: string) => M,
): Promise<ScriptedRunStart<M>> {
  const cwd = path.resolve(spec.cwd ?? process.cwd());
  const script = typeof spec.script === "string" ? loadScript(path.resolve(cwd, spec.script)) : spec.script;
  let binary: string;
  try {
    binary = findAgentBinary(failures, () => resolveBinary(cwd));
  } catch (error) {
    if (typeof spec.script !== "string") validateScript(script);
    throw error;
  }
  const mock = spec.mock ?? (await useSharedMock());
  const apiKey = `sk-proctor-mock-${randomBytes(12).toString("hex")}`;
  const register = () => {
    const mockRun = addRun(mock, script, apiKey);
    warmIfCold(mock);
    return mockRun;
  };
  return { cwd, mock, apiKey, run: { failures, binary, spec, register } };
}

/** The shell line a failure message shows: the argv, and the prompt (shortened) as a here-string. */
function describeCommand(binary: string, args: readonly string[], prompt: string): string {
  return `${[binary, ...args].map(quoteArg).join(" ")} <<< ${quoteArg(prompt.length > 80 ? `${prompt.slice(0, 79)}…` : prompt)}`;
}

/** The run's own errors: the mock's hard errors, then a timeout or an abort. */
function runErrors(proc: ProcessResult, timeoutMs: number, mockRun: MockView | undefined): RunProblem[] {
  const errors: RunProblem[] = (mockRun?.errors ?? []).map((e) => ({ kind: e.kind, message: e.message }));
  if (proc.timedOut) errors.push({ kind: "timeout", message: `the run was killed after ${timeoutMs} ms (timeoutMs); the trace holds what it did until then` });
  else if (proc.aborted) errors.push({ kind: "killed", message: "the run was aborted; the trace holds what it did until then" });
  return errors;
}

/**
 * Run an agent CLI once in fresh temp dirs and return its result (R: the shared fields, plus
 * `mockRun` when a mock answered), so every agent's run is isolated, traced, failed and cleaned
 * up alike. Rejects with a HarnessError when the run failed (unless `reject: false`).
 */
export async function runAgentProcess<R extends AgentRunResult<R>, M extends MockView | undefined = undefined>(run: AgentRun<M>): Promise<R> {
  const { failures, binary, timeoutMs, spec } = run;
  const keep = spec.keep === true;
  const reject = spec.reject ?? true;
  const { dirs, args, env, outside, wrappers = [] } = run.prepare();
  const command = describeCommand(binary, args, spec.prompt);
  let spawned: { readonly binary: string; readonly args: readonly string[] } = { binary, args };
  for (const w of wrappers) spawned = w.wrap(spawned.binary, spawned.args);
  let mockRun: M | undefined;
  let refused: { readonly error: unknown } | undefined;

  try {
    const before = takeSnapshot(dirs.workDir);
    const outsideBefore = outside ? snapshotRoots(outside.roots) : undefined;
    const register = run.register;
    const onSpawn = register
      ? () => {
          try {
            mockRun = register();
            return true;
          } catch (error) {
            refused = { error };
            return false;
          }
        }
      : undefined;
    const proc = await runProcess(spawned.binary, spawned.args, { cwd: dirs.workDir, env, input: spec.prompt, timeoutMs, signal: spec.signal, onSpawn });
    if (refused) throw refused.error;
    const files = diffSnapshots(dirs.workDir, before, takeSnapshot(dirs.workDir));
    const own = run.readTrace(proc, dirs, mockRun as M);
    const errors = runErrors(proc, timeoutMs, mockRun);
    const outsideWrites = outside && outsideBefore ? diffRoots(outside, outsideBefore) : undefined;
    let read: Trace = { ...own, files, ...(outsideWrites ? { outsideWrites } : {}), ...(mockRun ? { modelRequests: [...mockRun.requests] } : {}), errors: [...own.errors, ...errors] };
    for (const w of wrappers) if (w.finish) read = w.finish(read, proc);
    const trace = run.judgeHealth ? run.judgeHealth(read, dirs, mockRun as M) : read;
    const reason = chooseFailureReason(proc, trace, failures, mockRun);

    // With keep, cleanup() has nothing to do; otherwise it removes the temp root once (every call waits for that removal).
    let removing: Promise<void> | undefined = keep ? Promise.resolve() : undefined;
    const fields: AgentRunResult<R> = {
      trace,
      exitCode: proc.exitCode,
      signal: proc.signal,
      stdout: proc.stdout,
      stderr: proc.stderr,
      workDir: dirs.workDir,
      command: [binary, ...args],
      durationMs: proc.durationMs,
      timedOut: proc.timedOut,
      ...(mockRun ? { mockRun } : {}),
      cleanup() {
        removing ??= removeRunDirsInBackground(dirs.root).catch((error: unknown) => {
          removing = undefined; // a failed removal is tried again by the next call
          throw error;
        });
        return removing;
      },
    };
    // R is these fields plus, for a mock run, `mockRun` itself: the cast claims no more than that.
    const result = fields as R & { failure?: HarnessError<R> };
    if (keep) keepRunDirs(dirs.root);
    if (reason === undefined) return result;
    const failure = new HarnessError<R>(
      {
        reason,
        command,
        workDir: dirs.workDir,
        stderrTail: proc.stderr.slice(-4000),
        lastRequest: mockRun?.describeLastRequest(),
        exitCode: proc.exitCode,
        signal: proc.signal,
        timedOut: proc.timedOut,
        durationMs: proc.durationMs,
      },
      describeFailure(reason, failures, proc, timeoutMs, trace, mockRun),
      {
        result,
        agent: failures.agent,
        extra: [
          ...(trace.errors.length ? [`  trace errors:\n${trace.errors.map((e) => `    ${e.kind}: ${e.message}`).join("\n")}`] : []),
          ...(reject && !keep ? ["  the temp dirs are removed; pass keep: true to keep them for inspection"] : []),
        ],
      },
    );
    result.failure = failure;
    if (!reject) return result;
    // A root that cannot be removed stays tracked (the exit hook tries again, and says so): the run's failure is still the answer.
    await result.cleanup().catch(() => undefined);
    throw failure;
  } catch (error) {
    // A run refused at its start (a bad script) leaves nothing, kept or not: it never ran.
    if (refused !== undefined || (!(error instanceof HarnessError) && !keep)) {
      try {
        removeRunDirs(dirs.root);
      } catch {
        // Still tracked: the exit hook tries again. The error that stopped the run is the one to report.
      }
    }
    throw error;
  } finally {
    mockRun?.remove();
    for (const w of wrappers) {
      try {
        w.dispose?.();
      } catch {
        // A layer that cannot release what it holds must not hide the run's own outcome.
      }
    }
  }
}
