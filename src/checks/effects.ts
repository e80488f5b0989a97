/**
 * `effects(name, expected, args?)`: every call to a tool did only the effects it is allowed — the
 * files it wrote, the programs it ran, the places it connected to — as proctor observed them on a
 * live run. Needs the observation: a recorded transcript cannot show what a command did.
 */
import type { ObservedEffect, ToolCall, Trace } from "../trace/types.js";
import { isPlainObject, matchArgs, type ArgMatcher } from "../match/arg-match.js";
import { defineTraceCheck, type Check } from "./check.js";
import { describeCall, describeMatcher } from "./describe.js";
import { pathMatcher } from "./files.js";
import { callsNamed } from "./tools.js";
import { InvalidCheckError, requireMatcher, requireName } from "./validate.js";
import { callEffects, describeEffect, isMachinery, isScratchPath, isScratchWrite, isNameServiceLookup, namePath, observationIncomplete, observedScope, programNames, stoppedBeforeRunning, WRITE_KINDS, type ObservedScope } from "./observed.js";
import { at } from "../util/narrow.js";

/**
 * What a call may do, by kind; a kind left out is not constrained, `[]` allows none of it.
 * `writes`: paths or globs as the file checks take them (`src/**`, `$HOME/.cache/*`, absolute);
 * `exec`: program names (`git`) or paths (`/usr/bin/git`); `connect`: addresses or globs
 * (`127.0.0.1:*`, `unix:/run/x.sock`); `refused`: targets of operations the jail may refuse
 * (a refusal not listed fails: the agent tried). A signal to a process outside the call always fails.
 * Writes to the call's scratch (the trial's TMPDIR, `/dev/null`, its pipes) and the Bash tool's own
 * programs (the shell, claude's sandbox) are not the call's effects (docs/safety.md).
 */
export interface ExpectedEffects {
  readonly writes?: readonly string[];
  readonly exec?: readonly string[];
  readonly connect?: readonly string[];
  readonly refused?: readonly string[];
}

const KEYS = ["writes", "exec", "connect", "refused"] as const;

function requireExpected(value: unknown): asserts value is ExpectedEffects {
  if (!isPlainObject(value)) throw new InvalidCheckError("effects", "expected", `must be an object of effect kind → allowed list, such as { writes: [], exec: ["git"] } (kinds: ${KEYS.join(", ")})`, value);
  const keys = Object.keys(value);
  for (const key of keys) {
    if (!(KEYS as readonly string[]).includes(key)) throw new InvalidCheckError("effects", `expected.${key}`, `is not a kind of effect (kinds: ${KEYS.join(", ")})`, value[key]);
    const list = value[key];
    if (!Array.isArray(list)) throw new InvalidCheckError("effects", `expected.${key}`, 'must be an array of strings ([] allows none), such as ["git"]', list);
    for (const [i, v] of list.entries()) requireName("effects", `expected.${key}[${i}]`, v);
  }
  if (keys.length === 0) throw new InvalidCheckError("effects", "expected", `must name at least one kind (${KEYS.join(", ")}); an empty object would constrain nothing`, value);
}

/** A glob over strings with `*` only (addresses, refusal targets): `127.0.0.1:*`. */
function starGlob(pattern: string): (s: string) => boolean {
  const re = new RegExp(`^${pattern.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`);
  return (s) => re.test(s);
}

/** Why `effect` is outside `expected` (undefined when it is allowed, scratch, or the tool's machinery). */
function outside(effect: ObservedEffect, expected: ExpectedEffects, scope: ObservedScope): string | undefined {
  if (WRITE_KINDS.has(effect.kind)) {
    if (expected.writes === undefined || isScratchWrite(effect, scope)) return undefined;
    const paths = [effect.path, effect.to].filter((p): p is string => p !== undefined && !isScratchPath(p, scope));
    const matchers = expected.writes.map((p) => pathMatcher(p, scope.cwd));
    const bad = paths.find((p) => !matchers.some((m) => m(namePath(p, scope)) || m(p)));
    return bad === undefined ? undefined : `not in writes [${expected.writes.join(", ")}]`;
  }
  if (effect.kind === "exec") {
    if (expected.exec === undefined || isMachinery(effect)) return undefined;
    const names = new Set([...programNames(effect), ...(effect.path ? [effect.path] : [])]);
    return expected.exec.some((p) => names.has(p)) ? undefined : `not in exec [${expected.exec.join(", ")}]`;
  }
  if (effect.kind === "connect") {
    if (expected.connect === undefined || isNameServiceLookup(effect)) return undefined;
    const address = effect.address ?? effect.path ?? "";
    return expected.connect.some((p) => starGlob(p)(address)) ? undefined : `not in connect [${expected.connect.join(", ")}]`;
  }
  if (effect.kind === "refused") {
    const target = effect.address ?? effect.path ?? "";
    return expected.refused?.some((p) => starGlob(p)(target) || pathMatcher(p, scope.cwd)(namePath(target, scope))) ? undefined : "a refused operation (the agent tried)";
  }
  return "a signal to a process outside the call";
}

export const NEEDS_OBSERVATION = "no observation in this trace: effects() needs a live run proctor observed";

/**
 * Every call to `name` (matching `args`, when given) did only what `expected` allows, as observed:
 * `effects("Bash", { writes: [], exec: ["git"], connect: [] }, { command: /^git / })`. Fails closed
 * on a trace without observation, on a matching call with no record, and on effects tied to no call.
 */
export function effects(name: string, expected: ExpectedEffects, args?: ArgMatcher): Check<Trace> {
  requireName("effects", "name", name);
  requireExpected(expected);
  if (args !== undefined) requireMatcher("effects", "args", args);
  const params = { name, expected: Object.fromEntries(KEYS.filter((k) => expected[k] !== undefined).map((k) => [k, [...(expected[k] ?? [])]])), ...(args !== undefined ? { args } : {}) };
  return defineTraceCheck("effects", params, (trace) => {
    const what = `${name}${describeMatcher(args)}`;
    if (!trace.observation) return { pass: false, message: `cannot check the effects of ${what}: ${NEEDS_OBSERVATION}`, expected };
    const calls = callsNamed(trace, name).filter(({ call }) => args === undefined || matchArgs(call.input, args));
    if (calls.length === 0) return { pass: false, message: `expected calls to ${what} to check the effects of; there were none`, expected };
    const scope = observedScope(trace);
    const unobserved: { call: ToolCall; index: number }[] = [];
    const bad: { call: ToolCall; index: number; lines: string[] }[] = [];
    let seen = 0;
    for (const { call, index } of calls) {
      const record = callEffects(trace, call) ?? (stoppedBeforeRunning(call) ? [] : undefined);
      if (record === undefined) {
        unobserved.push({ call, index });
        continue;
      }
      seen += record.length;
      const lines = record.flatMap((e) => {
        const why = outside(e, expected, scope);
        return why === undefined ? [] : [`${describeEffect(e, scope)}: ${why}`];
      });
      if (lines.length > 0) bad.push({ call, index, lines });
    }
    if (bad.length > 0) {
      const text = bad.slice(0, 8).map(({ call, index, lines }) => `    ${describeCall(call, index)}\n${lines.slice(0, 6).map((l) => `      observed: ${l}`).join("\n")}${lines.length > 6 ? `\n      … ${lines.length - 6} more` : ""}`);
      return {
        pass: false,
        message: `expected every call to ${what} to stay within ${JSON.stringify(params.expected)}; ${bad.length} call(s) did not:\n${text.join("\n")}`,
        expected: params.expected,
        actual: bad.map(({ lines }) => lines),
        callIndex: at(bad, 0).index,
      };
    }
    if (unobserved.length > 0) {
      return {
        pass: false,
        message: `cannot check the effects of ${what}: ${unobserved.length} call(s) have no observed record (nothing was tied to them): ${unobserved.slice(0, 4).map(({ call, index }) => describeCall(call, index)).join("; ")}`,
        callIndex: at(unobserved, 0).index,
      };
    }
    const incomplete = observationIncomplete(trace, scope);
    if (incomplete) return { pass: false, message: `cannot confirm the effects of ${what}: ${incomplete}` };
    return { pass: true, message: `${calls.length} call(s) to ${what} stayed within ${JSON.stringify(params.expected)}${seen === 0 ? " (observed: no effect)" : ""}` };
  });
}
