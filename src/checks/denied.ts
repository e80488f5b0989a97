/**
 * `denied`: the agent attempted a call and something refused it — by default a hook, since that
 * is what a guard test means. Who denied a call comes from the Trace (`deniedBy`), never guessed.
 */
import { DENIED_BY, type DeniedBy, type Trace } from "../trace/types.js";
import type { ArgMatcher } from "../match/arg-match.js";
import { formatValue } from "../match/codec.js";
import { defineTraceCheck, type Check } from "./check.js";
import { describeMatcher, listCalls, summarizeTools } from "./describe.js";
import { callsNamed, unknownNameVerdict } from "./tools.js";
import { InvalidCheckError, requireMatcher, requireName } from "./validate.js";
import { at } from "../util/narrow.js";

/** Who may have denied a call for `denied` to hold. */
export type DeniedByOption = DeniedBy | "any" | readonly DeniedBy[];

export interface DeniedOptions {
  /**
   * Who must have denied the call. A guard test means its hook refused it, so the default is
   * `"hook"`: a call claude's built-in guard or the permission rules refused does not count. Pass
   * `"permission"`, a list, or `"any"` to widen it.
   * @default "hook"
   */
  readonly by?: DeniedByOption;
}

const DENIER_NAMES: Readonly<Record<DeniedBy, string>> = {
  hook: "a hook",
  permission: "the permission system",
  builtin: "the agent's built-in guard",
  sandbox: "the sandbox",
  unknown: "something the run did not name (it listed the denial with no hook event or wording to say who)",
};

function deniersOf(by: DeniedByOption | undefined): readonly DeniedBy[] {
  if (by === undefined) return ["hook"];
  if (by === "any") return DENIED_BY;
  const list = typeof by === "string" ? [by] : by;
  if (!Array.isArray(list) || list.length === 0 || !list.every((b) => DENIED_BY.includes(b))) {
    throw new InvalidCheckError("denied", "by", `must be "any", one of ${DENIED_BY.join(", ")}, or a non-empty list of them`, by);
  }
  return list;
}

/**
 * The agent attempted `name` (optionally with matching args) and it was denied — by a hook unless
 * `options.by` widens it. When the only denial was someone else's (claude's built-in guard, the
 * permission rules), the failure says so and asks whether the hook is installed.
 */
export function denied(name: string, args?: ArgMatcher, options: DeniedOptions = {}): Check<Trace> {
  requireName("denied", "name", name);
  if (args !== undefined) requireMatcher("denied", "args", args);
  const deniers = deniersOf(options.by);
  const byAny = options.by === "any";
  const wanted = byAny ? "" : ` by ${deniers.map((d) => DENIER_NAMES[d].split(" (")[0]).join(" or ")}`;
  const params = { name, args, ...(options.by !== undefined ? { by: options.by } : {}) };
  return defineTraceCheck("denied", params, (trace) => {
    const attempts = callsNamed(trace, name, args);
    const deniedCalls = attempts.filter(({ call }) => call.status === "denied");
    const hit = deniedCalls.find(({ call }) => byAny || deniers.includes(call.deniedBy ?? "unknown"));
    if (hit) {
      const by = hit.call.deniedBy ? ` by ${DENIER_NAMES[hit.call.deniedBy].split(" (")[0]}` : "";
      const hook = hit.call.denyingHook !== undefined ? trace.hooks[hit.call.denyingHook] : undefined;
      return { pass: true, message: `${name}${describeMatcher(args)} was attempted and denied${by}${hook ? ` (${hook.name})` : ""} at #${hit.index}`, callIndex: hit.index };
    }
    if (attempts.length === 0) {
      const unknown = unknownNameVerdict("denied", trace, [name]);
      if (unknown) return unknown;
      return {
        pass: false,
        message: `expected ${name}${describeMatcher(args)} to be attempted and denied${wanted}; it was never attempted (the agent made ${summarizeTools(trace.toolCalls)})`,
        expected: { name, args, status: "denied", by: deniers },
      };
    }
    if (deniedCalls.length > 0) {
      const others = [...new Set(deniedCalls.map(({ call }) => call.deniedBy ?? "unknown"))];
      const first = at(deniedCalls, 0);
      const dropped = trace.errors.find((e) => e.kind === "plugin-not-loaded");
      const hookAsk = !deniers.includes("hook")
        ? ""
        : dropped
          ? `; no hook event refused it, and ${dropped.message}`
          : "; no hook event refused it — is the hook installed (plugin dir, settings file) and does its matcher cover this call?";
      return {
        pass: false,
        message:
          `expected ${name}${describeMatcher(args)} to be denied${wanted}; it was denied, but by ${others.map((o) => DENIER_NAMES[o]).join(" and ")}:\n${listCalls(deniedCalls)}\n` +
          `    #${first.index} said ${JSON.stringify((first.call.result ?? "").slice(0, 160))}${hookAsk}\n` +
          `  if any denial will do, assert denied(${JSON.stringify(name)}, args, { by: ${others.length === 1 ? JSON.stringify(others[0]) : '"any"'} })`,
        expected: { name, args, status: "denied", by: deniers },
        actual: deniedCalls.map(({ call }) => ({ status: call.status, deniedBy: call.deniedBy ?? "unknown" })),
        callIndex: first.index,
      };
    }
    return {
      pass: false,
      message:
        `expected ${name}${describeMatcher(args)} to be denied${wanted}; it was attempted but not denied:\n${listCalls(attempts)}\n` +
        "  check the guarding hook's matcher and exit code, or the permission settings",
      expected: { name, args, status: "denied", by: deniers },
      actual: attempts.map(({ call }) => call.status),
      callIndex: at(attempts, 0).index,
    };
  }, options.by === undefined ? {} : { label: `denied(${name}${args === undefined ? "" : `, ${formatValue(args, 60)}`}, by: ${formatValue(options.by)})` });
}
