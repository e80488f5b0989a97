/**
 * The Rule-of-Two preset: declare which lethal-trifecta legs a session may hold, and compile that
 * into an enforceable policy that blocks the legs it may not.
 */
import type { ToolArgumentPolicy, ToolArgumentRule, TrifectaLeg } from "./tool-argument-policy.js";
import { requireObject } from "../errors/arguments.js";

/** Which of the three legs the agent may hold this session. A safe profile drops at least one. */
export interface RuleOfTwoProfile {
  /** May the agent ingest untrusted input (web / MCP / untrusted skills)? */
  readonly untrustedInput: boolean;
  /** May the agent read sensitive data (secrets / PII)? */
  readonly sensitiveData: boolean;
  /** May the agent take external side effects (write / send / deploy)? */
  readonly externalSideEffects: boolean;
}

/** Result of compiling a Rule-of-Two profile. */
export interface RuleOfTwoCompilation {
  /** The tool-argument policy enforcing the profile at call time. */
  readonly policy: ToolArgumentPolicy;
  /** `read-only` when the profile denies external side effects (writer tools are blocked too), else absent. */
  readonly capability?: "read-only";
  /** The legs the profile holds. */
  readonly heldLegs: ReadonlyArray<TrifectaLeg>;
  /** `true` when the profile holds all three legs — the dangerous case, surfaced, never silently permitted. */
  readonly holdsFullTrifecta: boolean;
}

/**
 * Compile a profile: without external side effects, a `read-only` capability floor plus a deny
 * rule over writer tools; without sensitive data, sensitive tools are default-denied; without
 * untrusted input, untrusted-source tools are denied. Holding all three is reported.
 */
export function buildRuleOfTwoPolicy(profile: RuleOfTwoProfile): RuleOfTwoCompilation {
  requireObject("buildRuleOfTwoPolicy", "profile", profile, "a profile such as { untrustedInput: true, sensitiveData: false, externalSideEffects: true }");
  const heldLegs: TrifectaLeg[] = [];
  if (profile.untrustedInput) heldLegs.push("untrusted-input");
  if (profile.sensitiveData) heldLegs.push("sensitive-data");
  if (profile.externalSideEffects) heldLegs.push("external-side-effects");
  const rules: ToolArgumentRule[] = [];
  if (!profile.externalSideEffects) {
    rules.push({
      tool: "*",
      effect: "deny",
      when: (facts) => facts.sideEffectClass === "side-effecting" || facts.sideEffectClass === "external-stateful",
      reason: "Rule of Two: this session does not hold the external-side-effects leg, so only read-only calls may run",
    });
  }
  if (!profile.untrustedInput) {
    rules.push({
      tool: "*",
      effect: "deny",
      when: (facts) => facts.untrustedSource === true,
      reason: "Rule of Two: this session does not hold the untrusted-input leg, and this tool brings in untrusted content (web pages, MCP results)",
    });
  }
  return {
    policy: { rules, defaultDenySensitive: !profile.sensitiveData },
    ...(profile.externalSideEffects ? {} : { capability: "read-only" as const }),
    heldLegs,
    holdsFullTrifecta: heldLegs.length === 3,
  };
}
