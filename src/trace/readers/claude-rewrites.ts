/**
 * Calls whose command a PreToolUse hook rewrote (`hookSpecificOutput.updatedInput.command`, as
 * `proctor gate` does to run a command confined). Claude Code's stream-json and session log keep
 * the model's command on the call; the command that ran is only in the hook's answer. This puts
 * both on the Trace (`ToolCall.ran`), and reads what the confinement refused: a write the
 * classifier let through ("Read-only file system") is a fact the run observed, recorded as such.
 */
import type { HookEvent, RunProblem, ToolCall } from "../types.js";
import { isRecord } from "../../util/narrow.js";

/** What a confinement refusal looks like in a result: EROFS, or the rewrite's own "could not start" line. */
const REFUSED = /Read-only file system|proctor gate: cannot confine this command/;

/** The hook's rewritten command, when its answer (exit 0, JSON on stdout) carries one. */
function rewrittenCommand(hook: HookEvent): string | undefined {
  if (hook.event !== "PreToolUse" || hook.blocked || hook.exitCode !== 0) return undefined;
  const text = (hook.stdout ?? "").trim();
  if (!text.startsWith("{")) return undefined;
  try {
    const json: unknown = JSON.parse(text);
    const command = isRecord(json) && isRecord(json.hookSpecificOutput) && isRecord(json.hookSpecificOutput.updatedInput) ? json.hookSpecificOutput.updatedInput.command : undefined;
    return typeof command === "string" ? command : undefined;
  } catch {
    return undefined;
  }
}

/** Does the rewrite carry this command (as a single-quoted word, or verbatim)? */
function carries(rewrite: string, command: unknown): boolean {
  if (typeof command !== "string" || command === "") return false;
  return rewrite.includes(`'${command.replace(/'/g, `'\\''`)}'`) || rewrite.includes(command);
}

/**
 * The command that ran, per call id. A hook is about the call it was tied to when it started; when
 * its rewrite visibly carries another call's command of the same tool (parallel calls), that one.
 */
export function rewritesByCall(hooks: readonly HookEvent[], calls: readonly ToolCall[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const hook of hooks) {
    const rewrite = rewrittenCommand(hook);
    if (rewrite === undefined || hook.callId === undefined) continue;
    const tool = hook.name.slice(hook.name.indexOf(":") + 1);
    const tied = calls.find((c) => c.id === hook.callId);
    const call = tied && carries(rewrite, tied.input.command) ? tied : (calls.find((c) => c.name === tool && !out.has(c.id) && carries(rewrite, c.input.command)) ?? tied);
    if (call && rewrite !== call.input.command) out.set(call.id, rewrite);
  }
  return out;
}

/**
 * The calls with `ran` set, and a problem per call the confinement visibly refused. A refused call
 * that failed is `denied` by the sandbox: what the hook let through, the sandbox did not.
 */
export function withRewrites(calls: ToolCall[], hooks: readonly HookEvent[]): { calls: ToolCall[]; problems: RunProblem[] } {
  const rewrites = rewritesByCall(hooks, calls);
  if (rewrites.size === 0) return { calls, problems: [] };
  const problems: RunProblem[] = [];
  const out = calls.map((call, i) => {
    const command = rewrites.get(call.id);
    if (command === undefined) return call;
    const refused = call.status === "denied" ? undefined : REFUSED.exec(call.result ?? "")?.[0];
    if (refused === undefined) return { ...call, ran: { command, by: "hook" as const } };
    problems.push({
      kind: "confinement-refused",
      message: `call #${i} (${call.name} ${JSON.stringify(String(call.input.command ?? "").slice(0, 120))}) was let through by a PreToolUse hook, rewritten to run confined, and the confinement refused it ("${refused}"): whatever classified it as read-only was wrong`,
    });
    const denied = call.status === "failure" ? { status: "denied" as const, deniedBy: "sandbox" as const } : {};
    return { ...call, ...denied, ran: { command, by: "hook" as const, refused } };
  });
  return { calls: out, problems };
}
