/**
 * Whole-trajectory comparison, with agentevals' modes: the sequence of calls against a reference.
 *
 * - `strict`    — same calls, same order, nothing extra.
 * - `ordered`   — the reference calls appear in this order; other calls may come between them.
 * - `unordered` — same calls (as a multiset), any order.
 * - `subset`    — every call the agent made is in the reference (no tools beyond it).
 * - `superset`  — every reference call was made (extras allowed).
 *
 * Argument modes compare a call's input with a reference entry's `args`: `ignore` (names only),
 * `exact` (deep equality; RegExp leaves test strings), `superset` (the input holds every
 * reference key — ArgMatcher semantics), `subset` (every input key is in the reference and
 * matches). An entry without `args` matches on the name alone whatever the mode.
 *
 * Calls sharing a `turn` were issued together (parallel calls in one model message), so
 * `strict` and `ordered` never order them among themselves: any order within a turn matches.
 */
import type { ToolCall, Trace } from "../trace/types.js";
import { isPlainObject, matchArgs, testRegExp, type ArgMatcher, type ArgValue } from "../match/arg-match.js";
import { formatValue } from "../match/codec.js";
import { defineTraceCheck, type Check } from "./check.js";
import { absenceUnprovable } from "./describe.js";
import { unknownNameVerdict } from "./tools.js";
import { InvalidCheckError, requireMatcher } from "./validate.js";
import { at } from "../util/narrow.js";

export type TrajectoryMode = "strict" | "ordered" | "unordered" | "subset" | "superset";
export type ArgsMode = "exact" | "ignore" | "subset" | "superset";

/** A reference call: a tool name, or a name with expected arguments. */
export type TrajectoryStep = string | { readonly name: string; readonly args?: ArgMatcher };

export interface TrajectoryOptions {
  /** @default "strict" */
  readonly mode?: TrajectoryMode | undefined;
  /** @default "ignore" */
  readonly args?: ArgsMode | undefined;
  /** Per-tool argument mode, overriding `args` for that tool. */
  readonly toolArgs?: Readonly<Record<string, ArgsMode>>;
}

const MODES: readonly TrajectoryMode[] = ["strict", "ordered", "unordered", "subset", "superset"];
const ARG_MODES: readonly ArgsMode[] = ["exact", "ignore", "subset", "superset"];

function deepMatch(actual: unknown, expected: ArgValue | undefined): boolean {
  if (expected instanceof RegExp) return typeof actual === "string" && testRegExp(expected, actual);
  if (Array.isArray(expected)) return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => deepMatch(actual[i], e));
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return false;
    const keys = Object.keys(expected);
    return keys.length === Object.keys(actual).length && keys.every((k) => deepMatch(actual[k], (expected as ArgMatcher)[k]));
  }
  return actual === expected;
}

function stepMatches(call: ToolCall, step: { name: string; args?: ArgMatcher | undefined }, mode: ArgsMode): boolean {
  if (call.name !== step.name) return false;
  const expected = step.args;
  if (expected === undefined || mode === "ignore") return true;
  switch (mode) {
    case "exact":
      return deepMatch(call.input, expected);
    case "superset":
      return matchArgs(call.input, expected);
    case "subset":
      // Own keys only: an input key named `__proto__` or `toString` is not one the reference lists.
      return Object.keys(call.input).every((k) => Object.hasOwn(expected, k) && deepMatch(call.input[k], expected[k]));
  }
}

/** Maximum bipartite matching (augmenting paths): how many of `left` pair with distinct `right`. */
function maxMatching(nLeft: number, nRight: number, edge: (l: number, r: number) => boolean): { size: number; unmatchedLeft: number[] } {
  const owner = new Array<number>(nRight).fill(-1);
  const tryAssign = (l: number, seen: boolean[]): boolean => {
    for (let r = 0; r < nRight; r++) {
      if (seen[r] || !edge(l, r)) continue;
      seen[r] = true;
      const current = at(owner, r);
      if (current === -1 || tryAssign(current, seen)) {
        owner[r] = l;
        return true;
      }
    }
    return false;
  };
  const unmatchedLeft: number[] = [];
  let size = 0;
  for (let l = 0; l < nLeft; l++) {
    if (tryAssign(l, new Array<boolean>(nRight).fill(false))) size++;
    else unmatchedLeft.push(l);
  }
  return { size, unmatchedLeft };
}

/** Consecutive runs of call indices that share a turn (a call without `turn` is its own). */
export function turnBlocks(calls: readonly ToolCall[]): number[][] {
  const blocks: number[][] = [];
  calls.forEach((c, i) => {
    const last = blocks[blocks.length - 1];
    if (last && c.turn !== undefined && at(calls, at(last, 0)).turn === c.turn) last.push(i);
    else blocks.push([i]);
  });
  return blocks;
}

/**
 * `ordered`: the longest prefix of `nSteps` reference steps that can be laid on the calls in
 * order, where steps placed in one turn block may match its calls in any order. The steps a
 * block takes are a contiguous range, matched to its calls as a set (a bipartite matching, not a
 * greedy pick); starting each block where the previous ones left off is optimal, because any
 * range that fits from an earlier step also fits without its first steps.
 */
export function orderedPrefix(nSteps: number, blocks: readonly (readonly number[])[], edge: (call: number, step: number) => boolean): number {
  let reach = 0; // steps 0..reach-1 are placed in the blocks seen so far
  for (const block of blocks) {
    const start = reach;
    while (reach < nSteps && reach - start < block.length && rangeFits(start, reach + 1, block, edge)) reach++;
    if (reach === nSteps) break;
  }
  return reach;
}

function rangeFits(from: number, to: number, block: readonly number[], edge: (call: number, step: number) => boolean): boolean {
  return maxMatching(to - from, block.length, (s, c) => edge(at(block, c), from + s)).size === to - from;
}

function showStep(step: { name: string; args?: ArgMatcher | undefined }): string {
  return step.args ? `${step.name} ${formatValue(step.args, 60)}` : step.name;
}

/** The agent's calls compare to a reference trajectory under `mode` (see module doc). */
export function trajectory(expected: readonly TrajectoryStep[], options: TrajectoryOptions = {}): Check<Trace> {
  if (!Array.isArray(expected)) throw new InvalidCheckError("trajectory", "expected", "must be an array of tool names or { name, args }", expected);
  const steps = expected.map((s, i) => {
    if (typeof s === "string" && s !== "") return { name: s };
    if (isPlainObject(s) && typeof s.name === "string" && s.name !== "") {
      if (s.args !== undefined) requireMatcher("trajectory", `expected[${i}].args`, s.args);
      return { name: s.name, args: s.args as ArgMatcher | undefined };
    }
    throw new InvalidCheckError("trajectory", `expected[${i}]`, "must be a tool name or { name, args }", s);
  });
  const mode = options.mode ?? "strict";
  if ((mode === "superset" || mode === "subset" || mode === "ordered") && steps.length === 0) {
    const why =
      mode === "subset"
        ? 'can never pass (subset fails closed on a run with no calls); for a tool-free run assert toolCount("*", { max: 0 })'
        : "would pass on every trace, so it asserts nothing; list the calls that must happen";
    throw new InvalidCheckError("trajectory", "expected", `must not be empty in ${mode} mode: an empty reference ${why}`, expected);
  }
  const argsMode = options.args ?? "ignore";
  if (!MODES.includes(mode)) throw new InvalidCheckError("trajectory", "mode", `must be one of ${MODES.join(", ")}`, mode);
  if (!ARG_MODES.includes(argsMode)) throw new InvalidCheckError("trajectory", "args", `must be one of ${ARG_MODES.join(", ")}`, argsMode);
  for (const [name, m] of Object.entries(options.toolArgs ?? {})) {
    if (!ARG_MODES.includes(m)) throw new InvalidCheckError("trajectory", `toolArgs.${name}`, `must be one of ${ARG_MODES.join(", ")}`, m);
  }
  const modeFor = (name: string) => options.toolArgs?.[name] ?? argsMode;
  const params = { expected, mode: options.mode, args: options.args, toolArgs: options.toolArgs };
  const label = `trajectory(${mode}, [${steps.map((s) => s.name).join(", ")}])`;

  return defineTraceCheck(
    "trajectory",
    params,
    (trace) => {
      const calls = trace.toolCalls;
      const actual = calls.map((c) => c.name);
      const edge = (c: number, s: number) => {
        const step = at(steps, s);
        return stepMatches(at(calls, c), step, modeFor(step.name));
      };
      const base = { expected: steps.map(showStep), actual };
      const unknown = unknownNameVerdict("trajectory", trace, [...new Set(steps.map((s) => s.name))].filter((n) => !actual.includes(n)));
      if (unknown) return { ...unknown, ...base };
      const fail = (why: string, callIndex?: number) => ({
        pass: false,
        message: `trajectory (${mode}, args ${argsMode}) differs: ${why}\n    expected: ${steps.map(showStep).join(" → ") || "(none)"}\n    actual:   ${actual.join(" → ") || "(no calls)"}`,
        ...(callIndex === undefined ? {} : { callIndex }),
        ...base,
      });
      // Strict, unordered and subset all claim "nothing beyond the reference": an absence.
      const unprovable = mode === "superset" || mode === "ordered" ? undefined : absenceUnprovable(trace);
      if (unprovable) return fail(unprovable);
      if (mode === "subset" && calls.length === 0) {
        return fail('no tool calls recorded; subset fails closed (assert toolCount("*", { max: 0 }) for a tool-free run)');
      }
      if (mode === "ordered") {
        const placed = orderedPrefix(steps.length, turnBlocks(calls), edge);
        if (placed < steps.length) {
          const after = placed === 0 ? "" : ` after ${steps.slice(0, placed).map(showStep).join(" → ")}`;
          return fail(`step ${placed + 1} (${showStep(at(steps, placed))}) never happened in order${after}`);
        }
        return { pass: true, message: `all ${steps.length} reference call(s) happened in order (${calls.length} calls in all)` };
      }
      if (mode === "strict" && calls.some((c) => c.turn !== undefined)) {
        // Parallel calls: the reference must split into the turn blocks, each matched as a set.
        if (calls.length !== steps.length) {
          return fail(calls.length > steps.length ? `${calls.length - steps.length} call(s) beyond the reference` : `${steps.length - calls.length} reference step(s) never happened`);
        }
        let from = 0;
        for (const block of turnBlocks(calls)) {
          if (!rangeFits(from, from + block.length, block, edge)) {
            const which = block.length === 1 ? `step ${from + 1}` : `steps ${from + 1}–${from + block.length} (one turn of ${block.length} parallel calls)`;
            return fail(`${which}: expected ${steps.slice(from, from + block.length).map(showStep).join(", ")}, got ${block.map((i) => `${at(calls, i).name} ${formatValue(at(calls, i).input, 60)}`).join(", ")}`, block[0]);
          }
          from += block.length;
        }
        return { pass: true, message: `trajectory matches step for step (${calls.length} calls; parallel calls in any order)` };
      }
      if (mode === "strict") {
        const n = Math.max(calls.length, steps.length);
        for (let i = 0; i < n; i++) {
          const call = calls[i];
          const step = steps[i];
          if (!call) return fail(`step ${i + 1} (${showStep(at(steps, i))}) never happened`);
          if (!step) return fail(`extra call #${i} ${call.name} beyond the reference`, i);
          if (!edge(i, i)) return fail(`step ${i + 1}: expected ${showStep(step)}, got ${call.name} ${formatValue(call.input, 80)}`, i);
        }
        return { pass: true, message: `trajectory matches step for step (${calls.length} calls)` };
      }
      if (mode === "superset" || mode === "unordered") {
        const m = maxMatching(steps.length, calls.length, (s, c) => edge(c, s));
        if (m.unmatchedLeft.length > 0) return fail(`reference call(s) not made: ${m.unmatchedLeft.map((s) => showStep(at(steps, s))).join(", ")}`);
        if (mode === "unordered" && calls.length !== steps.length) return fail(`${calls.length - steps.length} call(s) beyond the reference`);
        return { pass: true, message: `all ${steps.length} reference call(s) made${mode === "unordered" ? ", nothing else" : ""}` };
      }
      const m = maxMatching(calls.length, steps.length, edge);
      if (m.unmatchedLeft.length > 0) {
        const extra = m.unmatchedLeft.map((c) => `#${c} ${at(calls, c).name}`);
        return fail(`call(s) outside the reference: ${extra.join(", ")}`, m.unmatchedLeft[0]);
      }
      return { pass: true, message: `all ${calls.length} call(s) are within the reference` };
    },
    { label },
  );
}
