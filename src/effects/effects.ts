/**
 * Static effect-surface analysis — the `pure:` contract and the purity ladder.
 *
 * An agent's side effects are its tool calls, and the read-only / side-effecting split is a
 * published catalog (the dialect), so this analysis is deterministic. It answers how constrained a
 * declared tool contract is, at three rungs: `pure` (only observes), `bounded` (decidable
 * side-effecting tools, nothing unknown), `unrestricted` (Bash, an unknown-effect tool, or a
 * wildcard — unbounded from the names alone).
 *
 * Surface vs floor: the static surface cannot see a Bash command, so Bash makes it
 * `unrestricted`; the purity floor (`purityViolations`, `decidePurityGate`) admits Bash at
 * `bounded` because the runtime gate refines it per command.
 */
import { baseToolOf, type HarnessDialect } from "./dialect.js";
import { requireArray, requireObject, requireString } from "../errors/arguments.js";

/** The effect class of a single tool from a declared `tools:` contract. */
export type ToolEffect = "read-only" | "side-effecting" | "unknown";

/** The three rungs of the purity ladder. */
export type PurityLevel = "pure" | "bounded" | "unrestricted";

/** The purity levels, strictest first. */
export const PURITY_LEVELS: readonly PurityLevel[] = ["pure", "bounded", "unrestricted"];

/** The aggregated effect surface of a declared `tools:` contract (each bucket de-duplicated). */
export interface EffectSurface {
  /** Built-in read-only tools in the contract (Read, Grep, Glob, …). */
  readonly readOnly: readonly string[];
  /** Built-in tools that produce side effects (Bash, Write, Edit, …). */
  readonly sideEffecting: readonly string[];
  /** MCP tools and names the dialect does not know: their effect cannot be determined statically. */
  readonly unknown: readonly string[];
  /** `pure`, `bounded` or `unrestricted`; a wildcard (`*` / `""`) is always `unrestricted`. */
  readonly purity: PurityLevel;
}

/** One tool in a declared contract that breaks the declared purity floor. */
export interface PureViolation {
  /** The base tool name (restriction suffix stripped). */
  readonly tool: string;
  readonly effect: ToolEffect;
  /** Names the tool, its effect class, and what to do. */
  readonly message: string;
}

function isWildcard(tool: string): boolean {
  const t = tool.trim();
  return t === "*" || t === "";
}

/** Classify one tool name by the dialect's catalogs; a `Tool(restriction)` suffix is stripped first. */
export function classifyToolEffect(tool: string, dialect: HarnessDialect): ToolEffect {
  requireString("classifyToolEffect", "tool", tool, 'a tool name such as "Bash"');
  requireObject("classifyToolEffect", "dialect", dialect, "a harness dialect (claudeCodeDialect or codexDialect)");
  const base = baseToolOf(tool);
  if (dialect.sideEffectingTools.includes(base)) return "side-effecting";
  if (dialect.builtinAgentTools.includes(base)) return "read-only";
  return "unknown"; // MCP tools (dialect.mcpToolPattern) and unrecognised names alike
}

/** Compute the static effect surface of a declared `tools:` contract. */
export function effectSurface(tools: readonly string[], dialect: HarnessDialect): EffectSurface {
  requireArray("effectSurface", "tools", tools, 'a list of tool names such as ["Read", "Bash(git:*)"]');
  requireObject("effectSurface", "dialect", dialect, "a harness dialect (claudeCodeDialect or codexDialect)");
  const buckets: Record<ToolEffect, Set<string>> = { "read-only": new Set(), "side-effecting": new Set(), unknown: new Set() };
  let wildcard = false;
  for (const tool of tools) {
    if (isWildcard(tool)) {
      wildcard = true;
      continue;
    }
    buckets[classifyToolEffect(tool, dialect)].add(baseToolOf(tool));
  }
  const sideEffecting = [...buckets["side-effecting"]];
  const unknown = [...buckets.unknown];
  const shell = sideEffecting.some((t) => dialect.shellTools.includes(t));
  const purity: PurityLevel =
    wildcard || unknown.length > 0 || shell ? "unrestricted" : sideEffecting.length > 0 ? "bounded" : "pure";
  return { readOnly: [...buckets["read-only"]], sideEffecting, unknown, purity };
}

function describeUnknown(tool: string, dialect: HarnessDialect): string {
  return dialect.mcpToolPattern.test(tool) ? "an MCP tool, whose effects cannot be known from its name" : `not a ${dialect.name} tool proctor knows (a plugin tool or a typo?)`;
}

/**
 * The tools that make a contract looser than its declared purity floor; empty when it holds.
 * `pure` admits only read-only tools; `bounded` admits every decidable side-effecting tool
 * (Bash too — the runtime gate refines it) but no unknown-effect tool or wildcard;
 * `unrestricted` admits everything.
 */
export function purityViolations(tools: readonly string[], dialect: HarnessDialect, declared: PurityLevel): PureViolation[] {
  requireArray("purityViolations", "tools", tools, 'a list of tool names such as ["Read", "Bash(git:*)"]');
  requireObject("purityViolations", "dialect", dialect, "a harness dialect (claudeCodeDialect or codexDialect)");
  requireString("purityViolations", "declared", declared, 'a purity level: "pure", "bounded" or "unrestricted"');
  if (declared === "unrestricted") return [];
  const out: PureViolation[] = [];
  const seen = new Set<string>();
  for (const tool of tools) {
    if (isWildcard(tool)) {
      if (seen.has("*")) continue;
      seen.add("*");
      out.push({
        tool: tool.trim(),
        effect: "unknown",
        message: `"${tool.trim()}" inherits every tool, side-effecting ones included, so the contract cannot be ${declared}; list the tools it needs instead`,
      });
      continue;
    }
    const base = baseToolOf(tool);
    if (seen.has(base)) continue;
    seen.add(base);
    const effect = classifyToolEffect(base, dialect);
    if (effect === "unknown") {
      out.push({ tool: base, effect, message: `${base} is ${describeUnknown(base, dialect)}; a ${declared} contract cannot include it — remove it, or declare the unit unrestricted` });
    } else if (effect === "side-effecting" && declared === "pure") {
      const how = dialect.shellTools.includes(base)
        ? "declare the unit bounded (read-only commands are then allowed per call) or move the command behind a marked boundary"
        : "declare the unit bounded, or move the change behind a marked boundary";
      out.push({ tool: base, effect, message: `${base} is side-effecting; a pure unit may only observe — ${how}` });
    }
  }
  return out;
}

/** The violations of a `purity: "pure"` contract (`purityViolations(…, "pure")`). */
export function pureContractViolations(tools: readonly string[], dialect: HarnessDialect): PureViolation[] {
  requireArray("pureContractViolations", "tools", tools, 'a list of tool names such as ["Read", "Bash(git:*)"]');
  requireObject("pureContractViolations", "dialect", dialect, "a harness dialect (claudeCodeDialect or codexDialect)");
  return purityViolations(tools, dialect, "pure");
}
