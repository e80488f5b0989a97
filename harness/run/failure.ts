/**
 * The rich error every agent run fails with: everything a successful run has plus the reason,
 * the command, the work dir, the stderr tail and the mock's last request.
 */
import { RunError } from "../../src/errors/proctor-error.js";

/** The reasons, in priority order: the first that applies is the one reported. */
export type FailureReason = "timed-out" | "killed" | "script-overrun" | "binary-missing" | "api-fault" | "crashed";

const CODES: Record<FailureReason, RunError["code"]> = {
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
  readonly lastRequest?: string | undefined;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly durationMs: number;
}

// The facts are the error's own fields: declared once, in FailureFacts.
// biome-ignore lint/correctness/noUnusedVariables: merges with the class below to type the fields the constructor copies in
export interface HarnessError<R = unknown> extends FailureFacts {}

/** A failed harness run. `result` holds the whole run (trace included) when the binary was found. */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: deliberate; the constructor assigns every FailureFacts field
export class HarnessError<R = unknown> extends RunError {
  declare readonly result?: R;

  /** `options.agent` names the CLI in the message. @default "claude" */
  constructor(facts: FailureFacts, why: string, options: { result?: R; cause?: unknown; extra?: string[]; agent?: string } = {}) {
    const detail = [
      ...(options.extra ?? []),
      facts.workDir ? `  work dir: ${facts.workDir}` : undefined,
      facts.lastRequest ? `  the mock's last request: ${facts.lastRequest}` : undefined,
      facts.stderrTail.trim() ? `  stderr (tail):\n${indent(facts.stderrTail.trim().split("\n").slice(-15).join("\n"), "    ")}` : undefined,
    ].filter((x): x is string => x !== undefined);
    super(CODES[facts.reason], `${options.agent ?? "claude"} run ${why}: ${facts.command}`, { ...(detail.length > 0 ? { detail: detail.join("\n") } : {}), cause: options.cause });
    const { reason, command, workDir, stderrTail, lastRequest, exitCode, signal, timedOut, durationMs } = facts;
    Object.assign(this, { reason, command, workDir, stderrTail, lastRequest, exitCode, signal, timedOut, durationMs, result: options.result });
    this.name = "HarnessError";
  }
}

function indent(text: string, pad: string): string {
  return text.replace(/^/gm, pad);
}

/** Quote one argument for a shell line (for display only). */
export function quoteArg(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
