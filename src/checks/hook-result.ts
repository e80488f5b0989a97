/** Checks over one hook run (`runHook`), not over a Trace. */
import type { HookRunResult } from "../hook/types.js";
import { defineCheck, type Check } from "./check.js";
import { HOOK_RESULT_TARGET } from "./targets.js";

function notRun(h: HookRunResult): string | undefined {
  if (!h.ran) return `it did not run for ${h.event} (its matcher did not match)`;
  if (h.timedOut) return `it timed out after ${Math.round(h.durationMs)} ms, so it decided nothing (Claude Code lets the call through)`;
  if (h.jsonError) return `its JSON output is malformed: ${h.jsonError}`;
  return undefined;
}

/** The hook a message is about: its event and command (a test may run several). */
function hookName(h: HookRunResult): string {
  const command = h.command.length > 80 ? `${h.command.slice(0, 79)}…` : h.command;
  return `the ${h.event} hook ${JSON.stringify(command)}`;
}

function summary(h: HookRunResult): string {
  const parts = [`exit ${h.exitCode}`];
  if (h.decision) parts.push(`decision ${h.decision}`);
  if (h.reason) parts.push(`reason ${JSON.stringify(h.reason.trim().slice(0, 120))}`);
  else if (h.stderr.trim()) parts.push(`stderr ${JSON.stringify(h.stderr.trim().slice(0, 120))}`);
  return parts.join(", ");
}

/** The hook blocked the event (exit 2, permissionDecision deny, decision block, or continue:false). */
export function blocked(): Check<HookRunResult> {
  return defineCheck<HookRunResult>("blocked", {}, (h) => {
    const why = notRun(h);
    if (why) return { pass: false, message: `expected ${hookName(h)} to block; ${why}` };
    return h.blocked
      ? { pass: true, message: `blocked by ${h.blockedBy.join(" + ")} (${summary(h)})`, actual: h.blockedBy }
      : { pass: false, message: `expected ${hookName(h)} to block; it let the event through (${summary(h)}). Block with exit 2 or {"hookSpecificOutput":{"permissionDecision":"deny"}}`, expected: "blocked", actual: summary(h) };
  }, { target: HOOK_RESULT_TARGET });
}

/** The hook let the event through. */
export function allowed(): Check<HookRunResult> {
  return defineCheck<HookRunResult>("allowed", {}, (h) => {
    const why = notRun(h);
    if (why) return { pass: false, message: `expected ${hookName(h)} to allow; ${why}` };
    return h.blocked
      ? { pass: false, message: `expected ${hookName(h)} to allow; it blocked via ${h.blockedBy.join(" + ")} (${summary(h)})`, expected: "allowed", actual: h.blockedBy }
      : { pass: true, message: `allowed (${summary(h)})` };
  }, { target: HOOK_RESULT_TARGET });
}
