/** Scoped views of a Trace — derived, never stored copies. */
import type { HookEvent, SubagentRun, ToolCall, Trace } from "./types.js";
import { MAIN_AGENT } from "./types.js";
import { filesFromCalls } from "./files-from-calls.js";
import { TranscriptError } from "../errors/proctor-error.js";

/** A view of something that is not a Trace is the caller's mistake: say so, not a TypeError. */
function requireTraceShape(fn: string, trace: Trace): void {
  if (!Array.isArray((trace as Partial<Trace> | null)?.toolCalls)) {
    throw new TranscriptError("INVALID_TRACE", `${fn}(trace) needs a Trace; this has no toolCalls array`, { input: "trace", hint: "pass the Trace of a run: readTranscript(file) or (await runHarness(spec)).trace" });
  }
}

/**
 * The trace as one subagent saw it: its own calls, skills and hooks; its output as the one reply.
 * Files come from its own Write/Edit calls (a snapshot is run-wide and can't be attributed);
 * usage and turns are run-wide, so the view has none and resource checks fail closed on it.
 */
export function subagentView(trace: Trace, run: SubagentRun): Trace {
  requireTraceShape("subagentView", trace);
  // Loops, not flatMap: a run of thousands of calls, most of them not this subagent's.
  const own: { c: ToolCall; i: number }[] = [];
  trace.toolCalls.forEach((c, i) => {
    if (c.agent === run.id) own.push({ c, i });
  });
  const indices = own.map(({ i }) => i);
  const callIds = new Set(own.map(({ c }) => c.id));
  const ownHooks: { h: HookEvent; i: number }[] = [];
  trace.hooks.forEach((h, i) => {
    if (h.callId !== undefined && callIds.has(h.callId)) ownHooks.push({ h, i });
  });
  const hookIndices = ownHooks.map(({ i }) => i);
  // A denying hook is named by its index in the hooks list, which the view renumbers.
  const toolCalls = own.map(({ c }) => {
    return c.denyingHook === undefined ? c : { ...c, denyingHook: hookIndices.indexOf(c.denyingHook) };
  });
  const localAt = (at: number) => indices.filter((i) => i < at).length;
  return {
    version: 1,
    source: trace.source,
    complete: trace.complete && run.status !== "pending",
    toolCalls,
    subagents: [],
    skills: trace.skills
      .filter((s) => s.agent === run.id)
      .map((s) => ({ ...s, callIndex: indices.indexOf(s.callIndex) })),
    hooks: ownHooks.map(({ h }) => ({ ...h, at: localAt(h.at) })),
    replies: run.output === undefined ? [] : [{ text: run.output, at: toolCalls.length }],
    ...(run.output === undefined ? {} : { output: run.output }),
    files: filesFromCalls(toolCalls, trace.source.cwd),
    ...(trace.modelRequests ? { modelRequests: trace.modelRequests.filter((r) => r.agent === run.type) } : {}),
    errors: trace.errors,
  };
}

/** The trace without any subagent's calls: what the main loop itself did. */
export function mainAgentView(trace: Trace): Trace {
  requireTraceShape("mainAgentView", trace);
  const toolCalls = trace.toolCalls.filter((c) => c.agent === MAIN_AGENT);
  return {
    ...trace,
    toolCalls,
    skills: trace.skills
      .filter((s) => s.agent === MAIN_AGENT)
      .map((s) => {
        const call = trace.toolCalls[s.callIndex];
        return { ...s, callIndex: call === undefined ? -1 : toolCalls.indexOf(call) };
      }),
    ...(trace.modelRequests ? { modelRequests: trace.modelRequests.filter((r) => r.agent === MAIN_AGENT) } : {}),
  };
}
