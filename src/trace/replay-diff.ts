/**
 * How a replayed run differs from its recording, call by call. A replay makes the recorded calls
 * with the recorded ids, so calls pair by id; what can differ is what the world answered: the
 * tool's result, the call's status (a hook or permission now denies it, or no longer does), the
 * hooks that fired for it, the subagents that ran, how the run ended. One divergence per changed
 * decision: a status change carries the hook that caused it, and its result text is not reported
 * again (a denied call's result is the denial).
 */
import { MAIN_AGENT, type Divergence, type HookEvent, type ToolCall, type Trace, type VersionDrift } from "./types.js";
import { wordingDrift } from "./version-drift.js";
import { validateTrace } from "./schema.js";

export interface DiffOptions {
  /** Compare results by status only, not text. @default false */
  readonly ignoreResultText?: boolean;
  /** 1-based turn of each recorded call within its agent, by call id. */
  readonly turnOf?: ReadonlyMap<string, number>;
  /** Text the replay answers with when the run asks for a turn the recording does not have. */
  readonly exhaustedNote?: string;
  /**
   * Told of each result that differs only by a known wording change between claude versions
   * (KNOWN_WORDING_CHANGES), which is then not a divergence. Only when the two Traces' claude
   * versions differ or one is unknown: on one version, a reworded answer is a real change.
   */
  readonly onDrift?: (drift: VersionDrift) => void;
}

/** May a difference between these Traces be version drift? Their claude versions differ, or one is unknown. */
export function versionsMayDrift(recorded: Trace, now: Trace): boolean {
  const a = recorded.source.agentVersion;
  const b = now.source.agentVersion;
  return a === undefined || b === undefined || a !== b;
}

const clip = (text: string, max = 200) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * `text` with each whole occurrence of the work dir `cwd` replaced by `to`: the path itself or one
 * under it, not a path that merely starts with the same characters (`/app` in `/application.log`).
 */
export function replaceWorkDir(text: string, cwd: string, to: string): string {
  if (cwd === "") return text;
  return text.replace(new RegExp(`${escapeRegExp(cwd)}(?![\\w.-])`, "g"), () => to);
}

function normalise(text: string | undefined, cwd: string | undefined): string {
  if (text === undefined) return "(no result)";
  return cwd ? replaceWorkDir(text, cwd, "<cwd>") : text;
}

/** Equal texts, or (across claude versions) texts that differ only by a known rewording. */
const sameAnswer = (a: string, b: string, drift: boolean) => a === b || (drift && wordingDrift(a, b) !== undefined);

/** `PreToolUse:Bash blocked`, `PostToolUse:Bash ran` — what hooks did for one call. */
function hookSummary(hooks: readonly HookEvent[]): string {
  if (hooks.length === 0) return "no hook";
  return hooks.map((h) => `${h.name} ${h.blocked ? "blocked" : "ran"}`).join(", ");
}

function statusText(call: ToolCall): string {
  return call.status === "denied" && call.deniedBy ? `denied (by ${call.deniedBy})` : call.status;
}

/** Every divergence between a recording's Trace and its replay's, in recorded order. */
export function diffReplay(recorded: Trace, now: Trace, options: DiffOptions = {}): Divergence[] {
  validateTrace(recorded);
  validateTrace(now);
  const out: Divergence[] = [];
  const nowById = new Map(now.toolCalls.map((c) => [c.id, c]));
  const hooksOf = (trace: Trace, id: string) => trace.hooks.filter((h) => h.callId === id);
  // A recording without hook events (a session log, a run without --include-hook-events) cannot
  // show hook changes; comparing against its silence would report every hook as new.
  const recordedHooks = recorded.hooks.length > 0;
  const turn = (id: string) => options.turnOf?.get(id) ?? 0;

  for (const call of recorded.toolCalls) {
    const base = { agent: call.agent, turn: turn(call.id), callId: call.id, tool: call.name };
    const next = nowById.get(call.id);
    if (!next) {
      out.push({ ...base, kind: "call", recorded: `${call.name} ${statusText(call)}`, now: "not made", message: `${call.name} (${call.id}) was not made in the replay` });
      continue;
    }
    const hooksBefore = recordedHooks ? hookSummary(hooksOf(recorded, call.id)) : undefined;
    const hooksNow = hookSummary(hooksOf(now, call.id));
    // Without hook events the recording cannot tell a hook's denial from a failing tool: the same
    // error text, now attributed to a hook, is the same answer.
    const unattributed =
      !recordedHooks &&
      call.status === "failure" &&
      next.status === "denied" &&
      next.deniedBy === "hook" &&
      sameAnswer(normalise(call.result, recorded.source.cwd), normalise(next.result, now.source.cwd), options.onDrift !== undefined && versionsMayDrift(recorded, now));
    if (!unattributed && (call.status !== next.status || call.deniedBy !== next.deniedBy)) {
      const why = hooksBefore !== undefined && hooksBefore !== hooksNow ? ` (hooks: ${hooksBefore} → ${hooksNow})` : "";
      const phrase =
        next.status === "denied" ? "is now denied" : call.status === "denied" ? `is no longer denied (now ${next.status})` : `now ends ${next.status}`;
      out.push({ ...base, kind: "status", recorded: statusText(call), now: statusText(next), message: `${call.name} (${call.id}) ${phrase}, recorded ${statusText(call)}${why}` });
      continue;
    }
    if (hooksBefore !== undefined && hooksBefore !== hooksNow) {
      out.push({ ...base, kind: "hook", recorded: hooksBefore, now: hooksNow, message: `hooks for ${call.name} (${call.id}) changed: ${hooksBefore} → ${hooksNow}` });
      continue;
    }
    // An Agent call's result is the subagent's scripted answer plus the CLI's bookkeeping (ids,
    // durations); the subagent's own calls are compared one by one instead.
    if (!options.ignoreResultText && call.name !== "Agent" && call.name !== "Task") {
      const a = normalise(call.result, recorded.source.cwd);
      const b = normalise(next.result, now.source.cwd);
      const drift = a !== b && options.onDrift && versionsMayDrift(recorded, now) ? wordingDrift(a, b) : undefined;
      if (drift) options.onDrift?.({ callId: call.id, tool: call.name, changes: drift, recorded: clip(a), now: clip(b) });
      else if (a !== b) out.push({ ...base, kind: "result", recorded: clip(a), now: clip(b), message: `${call.name} (${call.id}) answered differently` });
    }
  }

  const nowSubagents = new Map(now.subagents.map((s) => [s.id, s]));
  for (const sub of recorded.subagents) {
    if (nowById.get(sub.id) === undefined) continue; // its Agent call is already reported missing
    const next = nowSubagents.get(sub.id);
    if (!next) {
      out.push({ kind: "subagent", agent: MAIN_AGENT, turn: turn(sub.id), callId: sub.id, tool: sub.type, recorded: `${sub.type} ran`, now: "not dispatched", message: `subagent ${sub.type} (${sub.id}) was not dispatched in the replay` });
    } else if (next.type !== sub.type) {
      out.push({ kind: "subagent", agent: MAIN_AGENT, turn: turn(sub.id), callId: sub.id, tool: sub.type, recorded: sub.type, now: next.type, message: `subagent ${sub.id} ran as ${next.type}, recorded ${sub.type}` });
    }
  }

  // Hooks about no call (SessionStart, UserPromptSubmit, Stop, SubagentStop) answer the run as a
  // whole: compared as a multiset, since parallel subagents may stop in either order.
  if (recordedHooks) {
    const runLevel = (t: Trace) => {
      const list = t.hooks.filter((h) => h.callId === undefined).map((h) => `${h.name} ${h.blocked ? "blocked" : "ran"}`).sort();
      return list.length ? list.join(", ") : "no hook";
    };
    const before = runLevel(recorded);
    const after = runLevel(now);
    if (before !== after) {
      out.push({ kind: "hook", agent: MAIN_AGENT, turn: 0, recorded: before, now: after, message: `hooks of the run (not of a call) changed: ${before} → ${after}` });
    }
  }

  const note = options.exhaustedNote;
  if (note !== undefined && (now.replies.some((r) => r.text.includes(note)) || now.output?.includes(note))) {
    out.push({ kind: "turn", agent: MAIN_AGENT, turn: 0, recorded: "the recording ended", now: "the run asked for another turn", message: "the run asked for a turn the recording does not have (a hook or tool made the agent go on)" });
  }

  const ending = (t: Trace) => (t.complete ? (t.outcome ? `${t.outcome.subtype}${t.outcome.isError ? " (error)" : ""}` : "complete") : "incomplete");
  if (ending(recorded) !== ending(now)) {
    out.push({ kind: "outcome", agent: MAIN_AGENT, turn: 0, recorded: ending(recorded), now: ending(now), message: `the run ended ${ending(now)}, recorded ${ending(recorded)}` });
  }
  return out;
}
