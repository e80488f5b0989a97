/**
 * Why a harness run failed, chosen by one priority chain, and the rich error that carries
 * everything a successful run has plus the reason, the command, the work dir, the stderr tail
 * and the mock's last request.
 */
import { ProctorError, type ProctorErrorCode } from "../../src/errors/proctor-error.js";
import type { Trace } from "../../src/trace/types.js";
import type { MockRun } from "../../mock-model/run/mock-run.js";
import type { ProcessResult } from "../process/run-process.js";

/** The reasons, in priority order: the first that applies is the one reported. */
export type FailureReason = "timed-out" | "killed" | "script-overrun" | "binary-missing" | "api-fault" | "crashed";

const CODES: Record<FailureReason, ProctorErrorCode> = {
  "timed-out": "TIMEOUT",
  killed: "RUN_FAILED",
  "script-overrun": "SCRIPT_OVERRUN",
  "binary-missing": "BINARY_MISSING",
  "api-fault": "RUN_FAILED",
  crashed: "RUN_FAILED",
};

/** The fields a failed run carries beyond its result. */
export interface FailureFacts {
  readonly reason: FailureReason;
  /** The command line, shell-quoted. */
  readonly command: string;
  readonly workDir?: string;
  readonly stderrTail: string;
  /** The mock's last main/subagent request, described: the agent, the turn asked for, what it had just received. */
  readonly lastRequest?: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly durationMs: number;
}

/** A failed harness run. `result` holds the whole run (trace included) when the binary was found. */
export class HarnessError<R = unknown> extends ProctorError implements FailureFacts {
  readonly reason: FailureReason;
  readonly command: string;
  readonly workDir?: string;
  readonly stderrTail: string;
  readonly lastRequest?: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly durationMs: number;
  readonly result?: R;

  /** `options.agent` names the CLI in the message. @default "claude" */
  constructor(facts: FailureFacts, why: string, options: { result?: R; cause?: unknown; extra?: string[]; agent?: string } = {}) {
    const detail = [
      ...(options.extra ?? []),
      facts.workDir ? `  work dir: ${facts.workDir}` : undefined,
      facts.lastRequest ? `  the mock's last request: ${facts.lastRequest}` : undefined,
      facts.stderrTail.trim() ? `  stderr (tail):\n${indent(facts.stderrTail.trim().split("\n").slice(-15).join("\n"), "    ")}` : undefined,
    ].filter((x): x is string => x !== undefined);
    super(CODES[facts.reason], `${options.agent ?? "claude"} run ${why}: ${facts.command}`, { detail: detail.join("\n") || undefined, cause: options.cause });
    this.name = "HarnessError";
    this.reason = facts.reason;
    this.command = facts.command;
    this.workDir = facts.workDir;
    this.stderrTail = facts.stderrTail;
    this.lastRequest = facts.lastRequest;
    this.exitCode = facts.exitCode;
    this.signal = facts.signal;
    this.timedOut = facts.timedOut;
    this.durationMs = facts.durationMs;
    this.result = options.result;
  }
}

function indent(text: string, pad: string): string {
  return text.replace(/^/gm, pad);
}

/** Quote one argument for a shell line (for display only). */
export function quoteArg(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The reason a finished run failed, or undefined when it did not (an agent's own error ending — max turns — is not a failure). */
export function chooseReason(proc: ProcessResult, trace: Trace, mockRun: MockRun): FailureReason | undefined {
  if (proc.timedOut) return "timed-out";
  if (proc.aborted || (proc.signal !== null && !trace.complete)) return "killed";
  if (mockRun.errors.length > 0) return "script-overrun";
  const apiError = trace.outcome?.apiErrorStatus !== undefined || trace.errors.some((e) => e.kind === "api-error" || /^API Error/.test(e.message));
  if (apiError && mockRun.faultsServed === 0) return "api-fault";
  if (!trace.complete) return "crashed";
  return undefined;
}

/** The phrase for a reason, as the short message says it. */
export function describeReason(reason: FailureReason, proc: ProcessResult | undefined, timeoutMs: number, trace?: Trace, mockRun?: MockRun): string {
  switch (reason) {
    case "timed-out":
      return `timed out after ${timeoutMs} ms (the process tree was killed)`;
    case "killed":
      return proc?.aborted ? "was aborted (the process tree was killed)" : `was killed by ${proc?.signal ?? "a signal"}`;
    case "script-overrun":
      return `failed: ${mockRun?.errors[0]?.message.replace(/^proctor mock model: /, "") ?? "the script ran out"}`;
    case "binary-missing":
      return "could not start: the claude binary is missing";
    case "api-fault":
      return `failed with an API error the script did not ask for: ${trace?.errors.find((e) => e.kind === "api-error")?.message ?? trace?.outcome?.apiErrorStatus}`;
    case "crashed":
      return `ended without a result (exit code ${proc?.exitCode ?? "none"}${proc?.spawnError ? `, ${proc.spawnError.message}` : ""})`;
  }
}
