/** The result of running one hook command the way Claude Code does (see `runHook` in proctor/harness). */

/** The mechanisms by which a hook can block. */
export type BlockMechanism = "exit-2" | "permission-deny" | "decision-block" | "continue-false";

export interface HookRunResult {
  /** `false` when the hook's matcher did not match the event's tool, so Claude Code would not run it. */
  readonly ran: boolean;
  readonly event: string;
  readonly command: string;
  /** `null` when the process was killed (timeout) or never ran. */
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly durationMs: number;
  /** Parsed stdout JSON, when stdout was JSON. */
  readonly json?: Record<string, unknown>;
  /** Why stdout looked like JSON but did not parse, or had the wrong shape. */
  readonly jsonError?: string;
  /** Did any block mechanism fire? */
  readonly blocked: boolean;
  /** Every mechanism that fired, in a stable order. */
  readonly blockedBy: readonly BlockMechanism[];
  /** `permissionDecision` or `decision` as stated by the hook's JSON. */
  readonly decision?: string | undefined;
  /** The reason the hook gave (permissionDecisionReason, reason, stopReason, or stderr on exit 2). */
  readonly reason?: string | undefined;
}
