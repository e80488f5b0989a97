/**
 * Progent-style declarative tool-argument policies: pure, deterministic decisions consulted
 * before a call runs.
 *
 * Four effects — `allow | deny | ask | defer` — with priority `deny > defer > ask > allow`
 * (`forbid` is a legacy alias of `deny`), so narrowing composes safely: a later broad `allow`
 * never re-opens a denied call. Rules match by tool name (exact, `*`, or a trailing-`*` glob) plus
 * an optional predicate over the call facts; predicate-free deny rules also answer the
 * advertise-time question "is this tool denied by name?".
 */
import { ConfigError } from "../errors/proctor-error.js";
import { requireArray, requireObject, requireString } from "../errors/arguments.js";

/** The three legs of the lethal trifecta (Meta's "Rule of Two"). */
export type TrifectaLeg = "untrusted-input" | "sensitive-data" | "external-side-effects";

/** Side-effect classes the policy engine reasons about. */
export type PolicySideEffectClass = "pure" | "read-only" | "side-effecting" | "external-stateful";

/** Facts about a tool call the policy engine decides over. */
export interface ToolCallFacts {
  readonly toolName: string;
  readonly sideEffectClass: PolicySideEffectClass;
  /** `true` when the tool reads or handles sensitive data. */
  readonly sensitive?: boolean;
  /** `true` when the tool is an untrusted-content source (MCP, web, untrusted skills): the Rule-of-Two untrusted-input leg. */
  readonly untrustedSource?: boolean;
  /** The validated arguments. */
  readonly args?: unknown;
}

/**
 * `allow` — may run; `deny` — must not run; `ask` — needs a human decision before it runs;
 * `defer` — parked for asynchronous resolution (auto-denies on timeout). `ask` and `defer` are
 * honoured only by a surface that can suspend; anything else fails them closed.
 */
export type PermissionEffect = "allow" | "deny" | "ask" | "defer";

/** A rule's effect: the four-value vocabulary plus `forbid`, the legacy spelling of `deny`. */
export type ToolRuleEffect = PermissionEffect | "forbid";

/** A single Progent rule. */
export interface ToolArgumentRule {
  readonly effect: ToolRuleEffect;
  /** An exact tool name, `*` for any, or a trailing-`*` prefix glob (`fs_*`). Case-sensitive. */
  readonly tool: string;
  /** Optional pure predicate over the call facts (args, sensitivity). */
  readonly when?: (facts: ToolCallFacts) => boolean;
  /** Human-readable reason surfaced on a non-`allow` match. */
  readonly reason?: string;
}

/** A compiled tool-argument policy. */
export interface ToolArgumentPolicy {
  readonly rules: ReadonlyArray<ToolArgumentRule>;
  /**
   * Deny a `sensitive` tool when no rule matched it at all. Default `false`: a policy with no
   * rules and this off allows everything.
   */
  readonly defaultDenySensitive?: boolean;
}

/** The binary (legacy) decision. */
export type ToolPolicyDecision = { readonly effect: "allow" } | { readonly effect: "forbid"; readonly reason: string };

/** The four-value decision; non-`allow` effects always carry a reason. */
export type PermissionDecision = { readonly effect: "allow" } | { readonly effect: "deny" | "ask" | "defer"; readonly reason: string };

/** Result of {@link isToolDeniedByName}. */
export type NameDenialDecision = { readonly denied: false } | { readonly denied: true; readonly reason: string };

const PRIORITY: Record<PermissionEffect, number> = { allow: 0, ask: 1, defer: 2, deny: 3 };

/** `forbid` → `deny`; everything else as is. */
export function normalizeRuleEffect(effect: ToolRuleEffect): PermissionEffect {
  return effect === "forbid" ? "deny" : effect;
}

/** An exact name, `*`, or a trailing-`*` prefix glob. */
export function ruleToolMatches(pattern: string, toolName: string): boolean {
  if (pattern === "*") return true;
  if (pattern.endsWith("*")) return toolName.startsWith(pattern.slice(0, -1));
  return pattern === toolName;
}

/**
 * Does the rule's predicate hold? A predicate that throws fails closed: it matches a restricting
 * rule, never an `allow`. One that returns anything but a boolean is a broken rule, not a "no":
 * read as false, a deny rule would quietly stop denying — so it is an error naming the rule.
 */
function predicateHolds(rule: ToolArgumentRule, index: number, facts: ToolCallFacts): boolean {
  if (!rule.when) return true;
  let answer: unknown;
  try {
    answer = rule.when(facts);
  } catch {
    return normalizeRuleEffect(rule.effect) !== "allow";
  }
  if (typeof answer !== "boolean") {
    const shown = answer === undefined ? "undefined" : `${JSON.stringify(answer) ?? String(answer)} (${answer === null ? "null" : typeof answer})`;
    throw new ConfigError("POLICY_INVALID", `policy rules[${index}] (${rule.effect} ${rule.tool}): when returned ${shown}, not a boolean`, {
      detail: "  a when predicate must return true or false; a truthy value is not a match, so the rule cannot be applied",
    });
  }
  return answer;
}

function reasonOf(rule: ToolArgumentRule, effect: PermissionEffect, toolName: string): string {
  return rule.reason ?? `policy rule for "${rule.tool}" says ${effect} for ${toolName}`;
}

/** A policy argument must at least hold a `rules` list; anything else is refused before it is read. */
function requirePolicy(fn: string, policy: unknown): asserts policy is ToolArgumentPolicy {
  const expected = "a tool-argument policy with a rules list (from parsePolicy or buildRuleOfTwoPolicy)";
  requireObject(fn, "policy", policy, expected);
  requireArray(fn, "policy.rules", (policy as { rules?: unknown }).rules, expected);
}

/**
 * Evaluate a policy against one call: every matching rule contributes its effect and the
 * strongest wins (`deny > defer > ask > allow`); the reason is the first strongest rule's. With
 * no match, `defaultDenySensitive` denies sensitive tools and everything else is allowed. Throws a
 * POLICY_INVALID ProctorError naming the rule whose `when` returned a non-boolean.
 */
export function evaluatePermissionDecision(policy: ToolArgumentPolicy, facts: ToolCallFacts): PermissionDecision {
  requirePolicy("evaluatePermissionDecision", policy);
  requireObject("evaluatePermissionDecision", "facts", facts, "the facts of one call (from toolCallFacts)");
  let best: { effect: PermissionEffect; rule: ToolArgumentRule } | undefined;
  for (const [index, rule] of policy.rules.entries()) {
    if (!ruleToolMatches(rule.tool, facts.toolName) || !predicateHolds(rule, index, facts)) continue;
    const effect = normalizeRuleEffect(rule.effect);
    if (!best || PRIORITY[effect] > PRIORITY[best.effect]) best = { effect, rule };
  }
  if (best) {
    if (best.effect === "allow") return { effect: "allow" };
    return { effect: best.effect, reason: reasonOf(best.rule, best.effect, facts.toolName) };
  }
  if (policy.defaultDenySensitive && facts.sensitive) {
    return { effect: "deny", reason: `${facts.toolName} handles sensitive data and no policy rule allows it (defaultDenySensitive)` };
  }
  return { effect: "allow" };
}

/** The binary projection: every non-`allow` effect becomes `forbid` (a consumer that cannot ask or defer must not run the call). */
export function evaluateToolArgumentPolicy(policy: ToolArgumentPolicy, facts: ToolCallFacts): ToolPolicyDecision {
  requirePolicy("evaluateToolArgumentPolicy", policy);
  requireObject("evaluateToolArgumentPolicy", "facts", facts, "the facts of one call (from toolCallFacts)");
  const decision = evaluatePermissionDecision(policy, facts);
  return decision.effect === "allow" ? { effect: "allow" } : { effect: "forbid", reason: decision.reason };
}

/**
 * Deny-by-name, before any arguments exist: does a predicate-free `deny`/`forbid` rule match this
 * tool? Rules with a `when` predicate are call-time only and never count here.
 */
export function isToolDeniedByName(policy: ToolArgumentPolicy, toolName: string): NameDenialDecision {
  requirePolicy("isToolDeniedByName", policy);
  requireString("isToolDeniedByName", "toolName", toolName, 'a tool name such as "Bash"');
  for (const rule of policy.rules) {
    if (rule.when || normalizeRuleEffect(rule.effect) !== "deny" || !ruleToolMatches(rule.tool, toolName)) continue;
    return { denied: true, reason: reasonOf(rule, "deny", toolName) };
  }
  return { denied: false };
}
