/** How Claude Code reads a hook's answer: one interpretation, shared by runHook and the transcript reader. */
import type { BlockMechanism } from "./types.js";

export interface HookInterpretation {
  readonly blocked: boolean;
  readonly blockedBy: BlockMechanism[];
  readonly decision?: string | undefined;
  readonly reason?: string | undefined;
  readonly json?: Record<string, unknown>;
  readonly jsonError?: string;
}

/**
 * Exit 2 blocks (stderr is the reason); on exit 0 a JSON stdout may deny
 * (`hookSpecificOutput.permissionDecision: "deny"`), block (`decision: "block"`) or halt
 * (`continue: false`). Stdout that starts like JSON but does not parse is reported, not ignored.
 */
export function interpretHookOutput(exitCode: number | null, stdout: string, stderr: string): HookInterpretation {
  const blockedBy: BlockMechanism[] = [];
  let reason: string | undefined;
  if (exitCode === 2) {
    blockedBy.push("exit-2");
    reason = stderr.trim() || undefined;
  }
  const text = stdout.trim();
  if (exitCode !== 0 || !(text.startsWith("{") || text.startsWith("["))) {
    return { blocked: blockedBy.length > 0, blockedBy, reason };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { blocked: false, blockedBy, jsonError: `stdout is not valid JSON: ${(error as Error).message}` };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return { blocked: false, blockedBy, jsonError: "stdout JSON must be an object" };
  }
  const json = parsed as Record<string, unknown>;
  const specific = (json.hookSpecificOutput ?? {}) as Record<string, unknown>;
  let decision: string | undefined;
  if (typeof specific.permissionDecision === "string") {
    decision = specific.permissionDecision;
    if (decision === "deny") blockedBy.push("permission-deny");
    reason = typeof specific.permissionDecisionReason === "string" ? specific.permissionDecisionReason : reason;
  }
  if (typeof json.decision === "string") {
    decision ??= json.decision;
    if (json.decision === "block") blockedBy.push("decision-block");
    reason ??= typeof json.reason === "string" ? json.reason : undefined;
  }
  if (json.continue === false) {
    blockedBy.push("continue-false");
    reason ??= typeof json.stopReason === "string" ? json.stopReason : undefined;
  }
  return { blocked: blockedBy.length > 0, blockedBy, decision, reason, json };
}
