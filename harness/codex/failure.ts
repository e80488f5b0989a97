/** Why a Codex run failed, chosen by the same priority chain as Claude runs, in Codex's words. */
import type { Trace } from "../../src/trace/types.js";
import type { ResponsesMockRun } from "../../mock-model/responses/run-state.js";
import type { FailureReason } from "../claude/failure.js";
import type { ProcessResult } from "../process/run-process.js";

/** The reason a finished run failed, or undefined when it did not. */
export function chooseCodexReason(proc: ProcessResult, trace: Trace, run: ResponsesMockRun): FailureReason | undefined {
  if (proc.spawnError && (proc.spawnError as NodeJS.ErrnoException).code === "ENOENT") return "binary-missing";
  if (proc.timedOut) return "timed-out";
  if (proc.aborted || (proc.signal !== null && !trace.complete)) return "killed";
  if (run.errors.length > 0) return "script-overrun";
  if (trace.outcome?.isError && run.faultsServed === 0) return "api-fault";
  if (!trace.complete) return "crashed";
  return undefined;
}

/** The phrase for a reason, as the short message says it. */
export function describeCodexReason(reason: FailureReason, proc: ProcessResult | undefined, timeoutMs: number, trace?: Trace, run?: ResponsesMockRun): string {
  switch (reason) {
    case "timed-out":
      return `timed out after ${timeoutMs} ms (the process tree was killed)`;
    case "killed":
      return proc?.aborted ? "was aborted (the process tree was killed)" : `was killed by ${proc?.signal ?? "a signal"}`;
    case "script-overrun":
      return `failed: ${run?.errors[0]?.message.replace(/^proctor mock model: /, "") ?? "the script ran out"}`;
    case "binary-missing":
      return "could not start: the codex binary is missing";
    case "api-fault":
      return `failed with an API error the script did not ask for: ${trace?.errors.find((e) => e.kind === "api-error")?.message ?? "turn.failed"}`;
    case "crashed":
      return `ended without turn.completed (exit code ${proc?.exitCode ?? "none"}${proc?.spawnError ? `, ${proc.spawnError.message}` : ""})`;
  }
}
