/** Checks on the run's machinery: hooks that fired and skills that resolved. */
import type { Trace } from "../trace/types.js";
import { defineTraceCheck, type Check } from "./check.js";
import { requireName } from "./validate.js";
import { ambiguousNames, answersTo } from "./names.js";

/** A hook fired for this event (`"PreToolUse"`, `"Stop"`) or this exact hook name (`"PreToolUse:Bash"`). */
export function hookFired(event: string): Check<Trace> {
  requireName("hookFired", "event", event);
  return defineTraceCheck("hookFired", { event }, (trace) => {
    const hits = trace.hooks.filter((h) => h.event === event || h.name === event);
    if (hits.length > 0) {
      const blocked = hits.filter((h) => h.blocked).length;
      return { pass: true, message: `${event} hook fired ${hits.length} time(s)${blocked ? `, blocking ${blocked}` : ""}` };
    }
    // A call a hook denied proves a PreToolUse hook fired for it, even where the record of hook
    // runs is missing or partial (a session log, a stream without --include-hook-events).
    const denied = trace.toolCalls.map((c, index) => ({ c, index })).filter(({ c }) => c.deniedBy === "hook" && (event === "PreToolUse" || event === `PreToolUse:${c.name}`));
    if (denied.length > 0) {
      return { pass: true, message: `${event} hook fired: it denied ${denied.map(({ c, index }) => `#${index} ${c.name}`).join(", ")} (the trace records the denial, not the hook's own output)`, callIndex: (denied[0] as { index: number }).index };
    }
    const fired = [...new Set(trace.hooks.map((h) => h.name))];
    const partial = trace.source.hookRecord === "partial";
    return {
      pass: false,
      message:
        `expected a ${event} hook to fire; ${fired.length ? `hooks ${partial ? "recorded" : "that fired"}: ${fired.join(", ")}` : partial ? "no hook run recorded" : "no hooks fired"}` +
        (partial
          ? ` — and proctor cannot tell whether it fired: this trace was read from a Claude Code session log, which keeps a hook only when it printed output, failed, blocked or was cancelled (a hook that ran in silence leaves no line). Read the run's stream-json instead (claude -p --output-format stream-json --verbose --include-hook-events, as proctor's harness records it)`
          : " (is the hook registered in the settings or plugin the run loaded, and does its matcher match?)"),
      expected: event,
      actual: fired,
    };
  });
}

/** A skill resolved to this id without erroring. `plugin:name` matches exactly; a bare `name` also matches `anyplugin:name`. */
export function skill(id: string): Check<Trace> {
  requireName("skill", "id", id);
  return defineTraceCheck("skill", { id }, (trace) => {
    const ambiguous = ambiguousNames(id, trace.skills.map((s) => s.name));
    if (ambiguous) return { pass: false, message: `skill ${id} is ambiguous: the run had ${ambiguous.join(" and ")}; name the one you mean`, expected: id, actual: ambiguous };
    const runs = trace.skills.filter((s) => answersTo(id, s.name));
    const ok = runs.find((s) => s.status === "success");
    if (ok) return { pass: true, message: `skill ${ok.name} resolved at #${ok.callIndex}`, callIndex: ok.callIndex };
    const [first] = runs;
    if (first) {
      const call = trace.toolCalls[first.callIndex];
      return {
        pass: false,
        message: `skill ${id} was invoked but did not resolve (status ${first.status}): ${call?.result ?? "no result"}`,
        expected: id,
        actual: runs.map((s) => s.status),
        callIndex: first.callIndex,
      };
    }
    const seen = trace.skills.map((s) => s.name);
    return {
      pass: false,
      message: `expected skill ${id} to run; ${seen.length ? `skills that ran: ${seen.join(", ")}` : "no skill ran"} (is the skill installed, and does its description make the model pick it?)`,
      expected: id,
      actual: seen,
    };
  });
}
