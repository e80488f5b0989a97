/**
 * One run's life, the same for every agent CLI: prepare the temp dirs, snapshot, run the process
 * tree, diff, read the trace, choose the failure reason, and hand back a result whose cleanup()
 * removes the dirs once — or throw the HarnessError that carries it. What differs between
 * agents (the binary, its argv and env, how its output becomes a Trace, how it fails) comes in.
 */
import path from "node:path";
import { isProctorError } from "../../src/errors/proctor-error.js";
import type { Script } from "../../src/eval/script-types.js";
import { loadScript } from "../../mock-model/script/schema.js";
import type { MockModel } from "../../mock-model/server/start.js";
import type { RunProblem, Trace } from "../../src/trace/types.js";
import { runProcess, type ProcessResult } from "../process/run-process.js";
import { keepRunDirs, removeRunDirs, removeRunDirsInBackground, type RunDirs } from "../workdir/prepare.js";
import { diffSnapshots, takeSnapshot } from "../workdir/snapshot.js";
import { HarnessError, quoteArg } from "./failure.js";
import { useSharedMock, type MockView } from "./mock.js";
import { chooseFailureReason, describeFailure, type FailureProfile } from "./reason.js";
import type { AgentRunResult } from "./result.js";

/** How to start the binary in a run's temp dirs. */
export interface Launch {
  readonly dirs: RunDirs;
  readonly args: string[];
  readonly env: Record<string, string>;
}

/** One agent run, with everything that differs between agents. */
export interface AgentRun {
  /** How this kind of run names its CLI and says why it failed. */
  readonly failures: FailureProfile;
  readonly binary: string;
  /** What every agent's spec says about a run's life: the prompt (sent on stdin), keep, reject and an abort signal. */
  readonly spec: { readonly prompt: string; readonly keep?: boolean; readonly reject?: boolean; readonly signal?: AbortSignal };
  /** The spec's timeoutMs or the agent's default. */
  readonly timeoutMs: number;
  /** The mock model's run (absent against the real API): its errors join the trace, it stops serving when the run ends. */
  readonly mockRun?: MockView;
  /** Create the temp dirs and say how to start the binary in them (the mock run is removed if this throws). */
  prepare(): Launch;
  /** The agent's own Trace from its output; the snapshot's files, the mock's requests and the run's errors are added after. */
  readTrace(proc: ProcessResult, dirs: RunDirs): Trace;
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

/** A scripted run, started: its cwd, the mock server and the run registered on it, and the fields `runAgentProcess` takes from them. */
export interface ScriptedRunStart<M extends MockView> {
  readonly cwd: string;
  readonly mock: MockModel;
  readonly mockRun: M;
  readonly run: Pick<AgentRun, "failures" | "binary" | "spec"> & { readonly mockRun: M };
}

/**
 * Resolve what a scripted run needs before anything is prepared, in one order for every agent:
 * the script (a bad script file fails first), the binary (missing: a HarnessError), the mock
 * (the spec's own server, else the shared one), then the run registered on it.
 */
export async function startScriptedRun<M extends MockView>(
  spec: AgentRun["spec"] & { readonly cwd?: string; readonly script: Script | string; readonly mock?: MockModel },
  failures: FailureProfile,
  resolveBinary: (cwd: string) => string,
  addRun: (mock: MockModel, script: Script) => M,
): Promise<ScriptedRunStart<M>> {
  const cwd = path.resolve(spec.cwd ?? process.cwd());
  const script = typeof spec.script === "string" ? loadScript(path.resolve(cwd, spec.script)) : spec.script;
  const binary = findAgentBinary(failures, () => resolveBinary(cwd));
  const mock = spec.mock ?? (await useSharedMock());
  const mockRun = addRun(mock, script);
  return { cwd, mock, mockRun, run: { failures, binary, spec, mockRun } };
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
export async function runAgentProcess<R extends AgentRunResult<R>>(run: AgentRun): Promise<R> {
  const { failures, binary, mockRun, timeoutMs, spec } = run;
  const keep = spec.keep === true;
  const reject = spec.reject ?? true;
  let launch: Launch;
  try {
    launch = run.prepare();
  } catch (error) {
    mockRun?.remove();
    throw error;
  }
  const { dirs, args, env } = launch;
  const command = describeCommand(binary, args, spec.prompt);

  try {
    const before = takeSnapshot(dirs.workDir);
    const proc = await runProcess(binary, args, { cwd: dirs.workDir, env, input: spec.prompt, timeoutMs, signal: spec.signal });
    const files = diffSnapshots(dirs.workDir, before, takeSnapshot(dirs.workDir));
    const own = run.readTrace(proc, dirs);
    const errors = runErrors(proc, timeoutMs, mockRun);
    const trace: Trace = { ...own, files, ...(mockRun ? { modelRequests: [...mockRun.requests] } : {}), errors: [...own.errors, ...errors] };
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
    if (!(error instanceof HarnessError) && !keep) {
      try {
        removeRunDirs(dirs.root);
      } catch {
        // Still tracked: the exit hook tries again. The error that stopped the run is the one to report.
      }
    }
    throw error;
  } finally {
    mockRun?.remove();
  }
}
