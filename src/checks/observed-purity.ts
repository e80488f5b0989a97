/**
 * The purity floor per call, decided from what the call was seen doing where the trace observed it.
 * The text decides first, as the gate does (a call the gate would deny fails whatever happened);
 * a call the text lets through as read-only is then judged by its observed effects
 * (observed.ts has the rule). Where a live trace has no record for a Bash call, or its observation
 * is incomplete, the call is decided as the gate decides it: with the trial's repository as context,
 * never with the text alone. A trace with no observation is decided from the text, and says so.
 */
import { existsSync } from "node:fs";
import type { ToolCall, Trace } from "../trace/types.js";
import { explainBash, type BashContext } from "../effects/bash/classify.js";
import { baseToolOf, shellCommandOf, type HarnessDialect } from "../effects/dialect.js";
import { classifyToolEffect, type PurityLevel } from "../effects/effects.js";
import { decidePurityGate } from "../effects/purity-gate.js";
import { callEffects, listEffects, stoppedBeforeRunning, NO_OBSERVATION, observationIncomplete, observedScope, offendingEffects, type ObservedScope } from "./observed.js";

/** How one call was decided. */
export type DecidedBy = "text" | "observed" | "context" | "tool";

export interface CallPurity {
  readonly allow: boolean;
  /** Why it broke the floor (empty on allow). */
  readonly message: string;
  readonly by: DecidedBy;
}

/** What every call of one trace is judged against, built once per evaluation. */
export interface PurityScope {
  readonly observed: boolean;
  readonly scope: ObservedScope;
  /** Why the observation does not cover every process, when it does not. */
  readonly incomplete: string | undefined;
  /** The trial's repository as the gate sees it, or why it cannot be had. */
  context(): { readonly context: BashContext } | { readonly problem: string };
}

/** The scope a trace's calls are judged in. */
export function purityScope(trace: Trace): PurityScope {
  const scope = observedScope(trace);
  let context: ReturnType<PurityScope["context"]> | undefined;
  return {
    observed: trace.observation !== undefined,
    scope,
    incomplete: observationIncomplete(trace, scope),
    context: () => (context ??= trialContext(trace)),
  };
}

/**
 * The context the gate classifies with inside the trial: its work dir and environment (the trial's
 * HOME and TMPDIR over this process's, so the trial's global git configuration is read). A work dir
 * that is gone cannot be read, and a verdict without it would be the text's alone: that is refused.
 */
function trialContext(trace: Trace): { context: BashContext } | { problem: string } {
  const cwd = trace.source.cwd;
  if (cwd === undefined) return { problem: "the trace does not record the trial's work dir" };
  if (!existsSync(cwd)) return { problem: `the trial's work dir ${cwd} is gone (keep the trial, keep: true, and evaluate before it is removed)` };
  const root = (name: string) => trace.outsideWrites?.roots.find((r) => r.name === name)?.path;
  const home = root("$HOME");
  const tmp = root("$TMPDIR");
  return { context: { cwd, env: { ...process.env, ...(home ? { HOME: home } : {}), ...(tmp ? { TMPDIR: tmp } : {}), PWD: cwd } } };
}

/** Decide one call of `trace` under the floor `level` (see the module comment). */
export function decideCallPurity(level: PurityLevel, trace: Trace, call: ToolCall, dialect: HarnessDialect, ps: PurityScope): CallPurity {
  const command = shellCommandOf(call.input);
  const gate = decidePurityGate(level, call.name, command, dialect);
  if (!gate.allow) return { allow: false, message: gate.message, by: "text" };
  if (!ps.observed || level === "unrestricted") return { allow: true, message: "", by: "text" };
  const base = baseToolOf(call.name);
  const shell = dialect.shellTools.includes(base);
  // A tool allowed to change things (Write at `bounded`) is not held to observing; a read-only tool is.
  if (!shell && classifyToolEffect(base, dialect) !== "read-only") return { allow: true, message: "", by: "tool" };
  const effects = callEffects(trace, call);
  // Nothing ran, so nothing could be observed: the text's verdict is the gate's, and it held.
  if (effects === undefined && stoppedBeforeRunning(call)) return { allow: true, message: "", by: "text" };
  if (effects !== undefined) {
    const offending = offendingEffects(effects, ps.scope, [command, call.ran?.command]);
    if (offending.length > 0) {
      return {
        allow: false,
        message: `observed: ${listEffects(offending, ps.scope)} — ${shell ? "the command reads as read-only, but what ran did this" : `${base} is read-only, but its call did this`}`,
        by: "observed",
      };
    }
  }
  // Only a shell's effects are attributed to its call; a read-only tool's work is the agent's own.
  if (!shell) return { allow: true, message: "", by: effects === undefined ? "tool" : "observed" };
  if (effects !== undefined && ps.incomplete === undefined) return { allow: true, message: "", by: "observed" };
  const why = effects === undefined ? "not observed (no record was tied to this call)" : ps.incomplete ?? "";
  const context = ps.context();
  if ("problem" in context) return { allow: false, message: `${why}, and it cannot be decided as the gate decides it: ${context.problem}`, by: effects === undefined ? "context" : "observed" };
  const verdict = explainBash(command ?? "", context.context);
  if (verdict.effect !== "read-only") {
    return { allow: false, message: `${why}; decided from the command text with the trial's repository (${context.context.cwd}): ${verdict.effect} (${verdict.reason})`, by: effects === undefined ? "context" : "observed" };
  }
  return { allow: true, message: "", by: effects === undefined ? "context" : "observed" };
}

/**
 * What a purity verdict adds about how its calls were decided: `observed: no effect` on the calls
 * judged by observation, where the trial's repository decided instead, or that nothing was observed.
 */
export function decidedNote(ps: PurityScope, decided: readonly CallPurity[], shellCalls: number): string {
  if (!ps.observed) return NO_OBSERVATION;
  const observed = decided.filter((d) => d.allow && d.by === "observed").length;
  const context = decided.filter((d) => d.by === "context").length;
  const parts: string[] = [];
  if (observed > 0) parts.push(`observed: no effect on ${observed} call(s)`);
  if (context > 0) parts.push(`${context} Bash call(s) not observed: decided from the command text with the trial's repository`);
  if (ps.incomplete !== undefined && shellCalls > 0) parts.push(`${ps.incomplete}: Bash calls were also decided with the trial's repository`);
  return parts.join("; ") || "observed: no call the text let through was left to judge by its effects";
}
