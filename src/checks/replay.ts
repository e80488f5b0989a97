/** Checks on a replayed run: did the world answer as it did when the run was recorded? */
import type { Divergence, Trace } from "../trace/types.js";
import { defineTraceCheck, type Check } from "./check.js";
import { InvalidCheckError } from "./validate.js";

const KINDS: readonly Divergence["kind"][] = ["result", "status", "hook", "call", "subagent", "turn", "outcome"];

export interface ReplayMatchOptions {
  /** Divergence kinds that do not fail the check, e.g. `["result"]` for tools whose output drifts (dates, ids). */
  readonly ignore?: readonly Divergence["kind"][];
}

/**
 * The replay matched its recording: no tool answered differently, no call is now denied or no
 * longer denied, no hook decides differently, every recorded call and subagent happened and the
 * run ended the same way. Fails closed on a Trace that is not a replay.
 */
export function replayMatches(options: ReplayMatchOptions = {}): Check<Trace> {
  const ignore = options.ignore ?? [];
  if (!Array.isArray(ignore)) throw new InvalidCheckError("replayMatches", "ignore", `must be an array of divergence kinds (${KINDS.join(", ")})`, ignore);
  for (const kind of ignore) {
    if (!KINDS.includes(kind)) throw new InvalidCheckError("replayMatches", "ignore", `holds ${JSON.stringify(kind)}; the divergence kinds are ${KINDS.join(", ")}`, ignore);
  }
  return defineTraceCheck("replayMatches", { ignore: ignore.length ? ignore : undefined }, (trace) => {
    if (!trace.replay) {
      return { pass: false, message: "expected a replayed run; this Trace has no replay record (make one with runReplay or `proctor replay RECORDING`)" };
    }
    const counted = trace.replay.divergences.filter((d) => !ignore.includes(d.kind));
    if (counted.length === 0 && trace.replay.stoppedEarly) {
      // It stopped because something differed; what came after was never replayed, so nothing says it matched.
      return {
        pass: false,
        message: `the replay stopped at a divergence from ${trace.replay.recording} (${trace.replay.divergences.map((d) => d.kind).join(", ") || "unreported"}, ignored here), so the rest of the recording was not replayed; replay without stopping at the first divergence, or with ignoreResultText`,
        expected: "a replay that ran to the end with no divergence",
        actual: trace.replay.divergences,
      };
    }
    if (counted.length === 0) {
      const skipped = trace.replay.divergences.length - counted.length;
      return { pass: true, message: `the replay matched ${trace.replay.recording}${skipped ? ` (${skipped} ignored divergence${skipped === 1 ? "" : "s"})` : ""}${driftText(trace.replay)}` };
    }
    const lines = counted.map((d) => `  turn ${d.turn} (${d.agent === "main" ? "main" : `subagent ${d.agent}`}) ${d.kind}: ${d.message}\n    recorded: ${d.recorded}\n    now:      ${d.now}`);
    const first = counted.find((d) => d.callId !== undefined);
    const callIndex = first ? trace.toolCalls.findIndex((c) => c.id === first.callId) : -1;
    return {
      pass: false,
      ...(callIndex >= 0 ? { callIndex } : {}),
      message: `the replay diverged from ${trace.replay.recording} ${counted.length} time${counted.length === 1 ? "" : "s"}${trace.replay.stoppedEarly ? " (stopped at the first)" : ""}:\n${lines.join("\n")}${driftText(trace.replay).replace(/^; /, "\n  and ")}`,
      expected: "no divergence",
      actual: counted,
    };
  });
}

/** `; version drift …` when known rewordings between claude versions explained some differences. */
export function driftText(replay: NonNullable<Trace["replay"]>): string {
  const drift = replay.drift ?? [];
  if (drift.length === 0) return "";
  const ids = [...new Set(drift.flatMap((d) => d.changes))].join(", ");
  const v = replay.versions;
  const across = v?.recorded && v.now ? `claude ${v.recorded} → ${v.now}` : "claude versions";
  return `; version drift, not a divergence: ${drift.length} result${drift.length === 1 ? "" : "s"} differ${drift.length === 1 ? "s" : ""} only by known wording changes between ${across} (${ids})`;
}
