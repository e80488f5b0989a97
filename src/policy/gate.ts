/**
 * The gate's decision for one PreToolUse call, composed from the purity floor, a policy file, a
 * Rule-of-Two profile and an approval rung: the strictest answer wins (deny > ask > allow). Pure:
 * the shell classifier is passed in, so a caller can load it only for shell calls.
 */
import type { BashVerdict } from "../effects/bash/verdict.js";
import { baseToolOf, shellCommandOf, type HarnessDialect } from "../effects/dialect.js";
import type { PurityLevel } from "../effects/effects.js";
import { decidePurity } from "../effects/purity-decision.js";
import type { PolicyFile } from "./policy-file.js";
import { buildRuleOfTwoPolicy, type RuleOfTwoProfile } from "./rule-of-two.js";
import { isToolGatedAtRung, type ApprovalRung } from "./rungs.js";
import { evaluatePermissionDecision, type PermissionDecision, type ToolArgumentPolicy, type ToolCallFacts } from "./tool-argument-policy.js";
import { isProctorError } from "../errors/proctor-error.js";
import { toolCallFacts } from "./tool-facts.js";
import { requireObject, requireString } from "../errors/arguments.js";

/** What the gate enforces; every field is optional, and each one present must agree. */
export interface GateOptions {
  readonly dialect: HarnessDialect;
  readonly purity?: PurityLevel;
  readonly policy?: PolicyFile;
  readonly ruleOfTwo?: RuleOfTwoProfile;
  readonly rung?: ApprovalRung;
}

/** `none`: nothing objected and nothing granted — Claude Code's own permission settings decide. */
export type GateDecision = "allow" | "deny" | "ask" | "none";

export interface GateAnswer {
  readonly decision: GateDecision;
  /** Why, naming the option(s) that decided; empty for `none`. */
  readonly reason: string;
}

interface Vote {
  readonly decision: GateDecision;
  readonly by: string;
  readonly reason: string;
}

const RANK: Record<GateDecision, number> = { none: 0, allow: 1, ask: 2, deny: 3 };

/** Does deciding this call need the shell classifier? (Only shell calls, and only for options that look at commands.) */
export function gateNeedsShell(toolName: string, options: GateOptions): boolean {
  if (!options.dialect.shellTools.includes(baseToolOf(toolName))) return false;
  const constrainedPurity = options.purity !== undefined && options.purity !== "unrestricted";
  return constrainedPurity || options.policy !== undefined || options.ruleOfTwo !== undefined || options.rung === "assisted" || options.rung === "auto";
}

function fromPermission(decision: PermissionDecision, by: string): Vote {
  switch (decision.effect) {
    case "allow":
      return { decision: "none", by, reason: "" };
    case "defer":
      return { decision: "deny", by, reason: `${decision.reason} (the policy defers this call, and a hook cannot park a call, so it is denied)` };
    default:
      return { decision: decision.effect, by, reason: decision.reason };
  }
}

/** A policy's vote; a policy that cannot be applied (a broken rule) denies, naming why — a gate never fails open. */
function policyVote(policy: ToolArgumentPolicy, facts: ToolCallFacts, by: string): Vote {
  try {
    return fromPermission(evaluatePermissionDecision(policy, facts), by);
  } catch (error) {
    if (!isProctorError(error)) throw error;
    return { decision: "deny", by, reason: `the policy could not be applied, so the call is denied: ${error.shortMessage}` };
  }
}

/** Shell facts are refined by command: a provably read-only command is a read-only call. */
function refine(facts: ToolCallFacts, verdict: BashVerdict | undefined): ToolCallFacts {
  return verdict?.effect === "read-only" ? { ...facts, sideEffectClass: "read-only" } : facts;
}

/** Decide one call. `judgeShell` classifies shell commands; without it, any shell command counts as undecidable. */
export function decideGate(toolName: string, toolInput: Record<string, unknown>, options: GateOptions, judgeShell?: (command: string) => BashVerdict): GateAnswer {
  requireString("decideGate", "toolName", toolName, 'a tool name such as "Bash"');
  requireObject("decideGate", "options", options, "gate options with a dialect");
  requireObject("decideGate", "options.dialect", options.dialect, "a harness dialect (claudeCodeDialect or codexDialect)");
  const { dialect } = options;
  const base = baseToolOf(toolName);
  const shell = dialect.shellTools.includes(base);
  const command = shellCommandOf(toolInput);
  let verdict: BashVerdict | undefined;
  const judge = (c: string): BashVerdict => (verdict ??= judgeShell ? judgeShell(c) : { effect: "undecidable", reason: "the shell classifier was not loaded" });
  if (shell && command !== undefined && gateNeedsShell(toolName, options)) judge(command);

  const votes: Vote[] = [];
  if (options.purity !== undefined) {
    const d = decidePurity(options.purity, toolName, command, dialect, judge);
    votes.push({ decision: d.allow ? "none" : "deny", by: `purity ${options.purity}`, reason: d.message });
  }
  if (options.policy) {
    const facts = refine(options.policy.factsFor(toolName, toolInput), shell ? verdict : undefined);
    votes.push(policyVote(options.policy.policy, facts, `policy ${options.policy.source}`));
  }
  if (options.ruleOfTwo) {
    const compiled = buildRuleOfTwoPolicy(options.ruleOfTwo);
    const facts = refine(toolCallFacts(toolName, toolInput, dialect), shell ? verdict : undefined);
    const legs = compiled.heldLegs.join(", ") || "no legs";
    votes.push(policyVote(compiled.policy, facts, `rule of two (${legs})`));
  }
  if (options.rung) votes.push(rungVote(base, options.rung, dialect, shell, command, judge));

  const strongest = votes.reduce<GateDecision>((best, v) => (RANK[v.decision] > RANK[best] ? v.decision : best), "none");
  if (strongest === "none") return { decision: "none", reason: "" };
  const reasons = votes.filter((v) => v.decision === strongest).map((v) => `[${v.by}] ${v.reason}`);
  return { decision: strongest, reason: reasons.join(" ") };
}

/**
 * Did this call pass (allow, or nothing objected) only because the shell classifier called its
 * command read-only? Decided by deciding again with that verdict doubted (read as side-effecting):
 * when the doubted answer is ask or deny, the classifier's word let the call through — the calls
 * `proctor gate` runs confined, so a wrong reading becomes a failed command, not a write.
 */
export function passedAsReadOnly(toolName: string, toolInput: Record<string, unknown>, options: GateOptions, answer: GateAnswer, judgeShell?: (command: string) => BashVerdict): boolean {
  if (answer.decision === "deny" || answer.decision === "ask" || !judgeShell) return false;
  if (!options.dialect.shellTools.includes(baseToolOf(toolName))) return false;
  const command = shellCommandOf(toolInput);
  if (command === undefined || judgeShell(command).effect !== "read-only") return false;
  const doubted = decideGate(toolName, toolInput, options, () => ({ effect: "side-effecting", reason: "doubted: what if the classifier is wrong" }));
  return doubted.decision === "deny" || doubted.decision === "ask";
}

/**
 * A rung grants what it does not gate (`allow`: that is what a rung means — pre-approval). A gated
 * call goes to the user (`ask`) at `manual`/`write`; at `assisted` and `auto` only the shell is
 * gated, and proctor's rater is the shell classifier: a read-only command is cleared, anything else
 * is asked at `assisted` and refused back to the model at `auto`.
 */
function rungVote(tool: string, rung: ApprovalRung, dialect: HarnessDialect, shell: boolean, command: string | undefined, judge: (c: string) => BashVerdict): Vote {
  const by = `rung ${rung}`;
  if (rung === "bypass") return { decision: "allow", by, reason: "the bypass rung approves every call" };
  if (!isToolGatedAtRung({ toolName: tool, rung, shellTools: dialect.shellTools })) return { decision: "allow", by, reason: `${tool} is granted at the ${rung} rung` };
  if (shell && (rung === "assisted" || rung === "auto")) {
    const v = command === undefined ? undefined : judge(command);
    if (v?.effect === "read-only") return { decision: "allow", by, reason: `the rater cleared a read-only ${tool} command (${v.reason})` };
    const why = v ? `${v.effect}: ${v.reason}` : "no command to rate";
    return rung === "assisted"
      ? { decision: "ask", by, reason: `${tool} command does not look safe to the rater (${why}); it needs the user's approval` }
      : { decision: "deny", by, reason: `the auto-rater refused this ${tool} command (${why}); use a read-only command or another tool` };
  }
  return { decision: "ask", by, reason: `${tool} is not granted at the ${rung} rung; it needs the user's approval` };
}
