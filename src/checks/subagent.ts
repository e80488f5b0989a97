/** Checks scoped to a subagent. */
import type { Trace } from "../trace/types.js";
import { subagentView } from "../trace/scope.js";
import { defineTraceCheck, type Check } from "./check.js";
import { InvalidCheckError, requireName } from "./validate.js";
import { ambiguousNames, answersTo } from "./names.js";
import { at } from "../util/narrow.js";

/**
 * The named subagent ran (a bare name also matches a plugin's `plugin:name`) and EVERY run of it passed every nested check (a safety check inside
 * must hold for each dispatch, not just one). Nested checks see the subagent's scoped view.
 */
export function subagent(name: string, checks: readonly Check<Trace>[]): Check<Trace> {
  requireName("subagent", "name", name);
  if (!Array.isArray(checks)) throw new InvalidCheckError("subagent", "checks", "must be an array of checks", checks);
  checks.forEach((c, i) => {
    if (typeof c?.eval !== "function" || typeof c?.toJSON !== "function") throw new InvalidCheckError("subagent", `checks[${i}]`, "must be a check", c);
  });
  const label = `subagent(${name}, [${checks.map((c) => c.label).join(", ")}])`;
  return defineTraceCheck(
    "subagent",
    { name },
    (trace) => {
      const ambiguous = ambiguousNames(name, trace.subagents.map((s) => s.type));
      if (ambiguous) return { pass: false, message: `subagent ${name} is ambiguous: the run had ${ambiguous.join(" and ")}; name the one you mean`, expected: name, actual: ambiguous };
      const runs = trace.subagents.filter((s) => answersTo(name, s.type));
      if (runs.length === 0) {
        const ran = trace.subagents.map((s) => s.type);
        return {
          pass: false,
          message: `expected subagent ${name} to run; ${ran.length ? `subagents that ran: ${ran.join(", ")}` : "no subagent ran"}`,
          expected: name,
          actual: ran,
        };
      }
      const failures: string[] = [];
      const failed: NestedFailure[] = [];
      let passed = 0;
      runs.forEach((run, r) => {
        // The view numbers the subagent's calls from 0: keep the way back to the run's numbering.
        const own = ownCallIndices(trace, run.id);
        const dispatch = trace.toolCalls.findIndex((c) => c.id === run.id);
        const by = dispatch === -1 ? `dispatched by id ${run.id}` : `dispatched by #${dispatch} ${at(trace.toolCalls, dispatch).name} (id ${run.id})`;
        const where = `run ${r + 1} (${run.description ?? run.prompt.slice(0, 40)}), ${by}`;
        // A fresh view per nested check: one that mutates its trace cannot change what the next sees.
        const results = checks.map((c) => c.eval(subagentView(trace, run)));
        passed += results.filter((x) => x.pass).length;
        for (const x of results.filter((x) => !x.pass)) {
          const global = x.callIndex === undefined ? undefined : own[x.callIndex];
          const on = global === undefined ? "" : `, at its call #${x.callIndex} (the run's #${global}, id ${at(trace.toolCalls, global).id})`;
          failures.push(`    ${where}${on}: ✗ ${x.label} — ${x.message.replace(/\n/g, "\n      ")}`);
          failed.push({ run: r + 1, subagentId: run.id, check: x.label, ...(global === undefined ? {} : { callIndex: global, callId: at(trace.toolCalls, global).id }) });
        }
      });
      const total = runs.length * checks.length;
      if (failures.length === 0) return { pass: true, message: `subagent ${name} ran ${runs.length} time(s) and passed all ${checks.length} nested check(s)` };
      const firstCall = failed.find((f) => f.callIndex !== undefined)?.callIndex;
      return {
        pass: false,
        score: total === 0 ? 0 : passed / total,
        message: `subagent ${name} ran ${runs.length} time(s); ${failures.length} nested check result(s) failed (#N inside a nested message counts the subagent's own calls):\n${failures.join("\n")}`,
        actual: failed,
        callIndex: firstCall ?? trace.toolCalls.findIndex((c) => c.id === failed[0]?.subagentId),
      };
    },
    { label, json: () => ({ kind: "subagent", name, checks: checks.map((c) => c.toJSON()) }) },
  );
}

/** One nested check that failed: on which run, and on which call of the whole trace when it named one. */
interface NestedFailure {
  readonly run: number;
  readonly subagentId: string;
  readonly check: string;
  readonly callIndex?: number;
  readonly callId?: string;
}

/** Indices into `trace.toolCalls` of the calls one subagent made, in order: its view's call #i is the run's `[i]`. */
function ownCallIndices(trace: Trace, id: string): number[] {
  const out: number[] = [];
  trace.toolCalls.forEach((c, i) => {
    if (c.agent === id) out.push(i);
  });
  return out;
}
