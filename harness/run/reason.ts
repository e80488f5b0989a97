/**
 * Why a finished run failed, chosen by one priority chain, and the phrase the short message says
 * it with. What differs between agents — how an API fault shows in the trace and is worded, what
 * a complete run ends with — comes from the agent's FailureProfile.
 */
import type { Trace } from "../../src/trace/types.js";
import type { ProcessResult } from "../process/run-process.js";
import type { FailureReason } from "./failure.js";

/** How one kind of run reports failure. */
export interface FailureProfile {
  /** The CLI, as messages name it. */
  readonly agent: string;
  /** The command a run that never started shows, e.g. `claude -p …`. */
  readonly placeholder: string;
  /** The reasons that can apply, the first that does wins. @default DEFAULT_ORDER */
  readonly order?: readonly FailureReason[];
  /** Whether the trace shows an API error (each CLI reports one its own way). */
  hasApiError(trace: Trace): boolean;
  /** The phrase for an API fault, after `<agent> run `. */
  describeApiFault(trace: Trace): string;
  /** What a complete run ends with, as in "ended without a result". */
  readonly ending: string;
}

/** The mock model's part in the verdict: its hard errors and the faults the script asked for. */
export interface MockVerdict {
  readonly errors: readonly { readonly message: string }[];
  readonly faultsServed: number;
}

/** A missing binary outranks everything; an agent's own error ending (max turns) is no failure. */
export const DEFAULT_ORDER: readonly FailureReason[] = ["binary-missing", "timed-out", "killed", "script-overrun", "api-fault", "crashed"];

function isMissingBinary(proc: ProcessResult): boolean {
  return proc.spawnError !== undefined && (proc.spawnError as NodeJS.ErrnoException).code === "ENOENT";
}

/** The reason a finished run failed, or undefined when it did not — one chain for every agent, so they fail alike. */
export function chooseFailureReason(proc: ProcessResult, trace: Trace, profile: FailureProfile, mock?: MockVerdict): FailureReason | undefined {
  const applies: Record<FailureReason, () => boolean> = {
    "binary-missing": () => isMissingBinary(proc),
    "timed-out": () => proc.timedOut,
    killed: () => proc.aborted || (proc.signal !== null && !trace.complete),
    "script-overrun": () => (mock?.errors.length ?? 0) > 0,
    // A fault the script served is the run's subject, not a harness failure.
    "api-fault": () => profile.hasApiError(trace) && (mock?.faultsServed ?? 0) === 0,
    crashed: () => !trace.complete,
  };
  return (profile.order ?? DEFAULT_ORDER).find((reason) => applies[reason]());
}

/** The phrase for a reason, as the short message says it, so every agent's failures read alike. */
export function describeFailure(reason: FailureReason, profile: FailureProfile, proc: ProcessResult, timeoutMs: number, trace: Trace, mock?: MockVerdict): string {
  switch (reason) {
    case "timed-out":
      return `timed out after ${timeoutMs} ms (the process tree was killed)`;
    case "killed":
      return proc.aborted ? "was aborted (the process tree was killed)" : `was killed by ${proc.signal ?? "a signal"}`;
    case "script-overrun":
      return `failed: ${mock?.errors[0]?.message.replace(/^proctor mock model: /, "") ?? "the script ran out"}`;
    case "binary-missing":
      return `could not start: the ${profile.agent} binary is missing`;
    case "api-fault":
      return profile.describeApiFault(trace);
    case "crashed":
      return `ended without ${profile.ending} (exit code ${proc.exitCode ?? "none"}${proc.spawnError ? `, ${proc.spawnError.message}` : ""})`;
  }
}
