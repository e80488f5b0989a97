/** Policy facts about a tool, derived from the dialect, with per-tool overrides. */
import { classifyToolEffect } from "../effects/effects.js";
import { baseToolOf, type HarnessDialect } from "../effects/dialect.js";
import { ruleToolMatches, type PolicySideEffectClass, type ToolCallFacts } from "./tool-argument-policy.js";
import { requireObject, requireString } from "../errors/arguments.js";

/** What a policy file may say about a tool, overriding what the dialect implies. */
export interface ToolFactOverride {
  readonly sideEffectClass?: PolicySideEffectClass;
  readonly sensitive?: boolean;
  readonly untrustedSource?: boolean;
}

/**
 * The side-effect class a dialect implies: shells and network tools are `external-stateful` (they
 * can reach anywhere), other side-effecting built-ins `side-effecting`, read-only built-ins
 * `read-only`, and MCP or unknown tools `external-stateful` (unknown effects fail closed).
 */
export function sideEffectClassOf(toolName: string, dialect: HarnessDialect): PolicySideEffectClass {
  const base = baseToolOf(toolName);
  if (dialect.shellTools.includes(base) || dialect.exfiltrationTools.includes(base)) return "external-stateful";
  const effect = classifyToolEffect(base, dialect);
  return effect === "read-only" ? "read-only" : effect === "side-effecting" ? "side-effecting" : "external-stateful";
}

/**
 * Facts for one call. `overrides` are keyed by tool name or glob (`mcp__github__*`); when several
 * match, later keys win field by field.
 */
export function toolCallFacts(
  toolName: string,
  args: unknown,
  dialect: HarnessDialect,
  overrides: Readonly<Record<string, ToolFactOverride>> = {},
): ToolCallFacts {
  requireString("toolCallFacts", "toolName", toolName, 'a tool name such as "Bash"');
  requireObject("toolCallFacts", "dialect", dialect, "a harness dialect (claudeCodeDialect or codexDialect)");
  requireObject("toolCallFacts", "overrides", overrides, "an object of fact overrides keyed by tool name or glob");
  const base = baseToolOf(toolName);
  let facts: { -readonly [K in keyof ToolCallFacts]: ToolCallFacts[K] } = {
    toolName: base,
    sideEffectClass: sideEffectClassOf(base, dialect),
    sensitive: dialect.privateDataTools.includes(base),
    untrustedSource: dialect.untrustedInputTools.includes(base) || dialect.mcpToolPattern.test(base),
    args,
  };
  for (const [pattern, override] of Object.entries(overrides)) {
    if (ruleToolMatches(pattern, base)) facts = { ...facts, ...override };
  }
  return facts;
}
