/**
 * The runtime purity decision, with the shell test passed in. `decidePurityGate` binds it to the
 * shell classifier; `proctor gate` calls this directly so that only a shell call loads the parser.
 */
import { classifyToolEffect, type PurityLevel } from "./effects.js";
import { baseToolOf, type HarnessDialect } from "./dialect.js";
import type { BashVerdict } from "./bash/verdict.js";

/** A runtime allow/deny decision for the PreToolUse purity gate. */
export interface PurityGateDecision {
  readonly allow: boolean;
  /** Reason fed back to the model on a deny; empty on allow. */
  readonly message: string;
}

const ALLOW: PurityGateDecision = Object.freeze({ allow: true, message: "" });

/** Decide one live call under a purity floor; `judgeCommand` classifies shell commands. */
export function decidePurity(
  declared: PurityLevel,
  tool: string,
  command: string | undefined,
  dialect: HarnessDialect,
  judgeCommand: (command: string) => BashVerdict,
): PurityGateDecision {
  if (declared === "unrestricted") return ALLOW;
  const base = baseToolOf(tool);
  const effect = classifyToolEffect(base, dialect);
  if (effect === "read-only") return ALLOW;
  if (dialect.shellTools.includes(base)) {
    if (typeof command !== "string") {
      return { allow: false, message: `${base} call has no command to check, and this unit is declared ${declared}: only provably read-only commands may run here.` };
    }
    const verdict = judgeCommand(command);
    if (verdict.effect === "read-only") return ALLOW;
    return {
      allow: false,
      message: `${base} command is ${verdict.effect} (${verdict.reason}), and this unit is declared ${declared}: only commands that provably just observe may run here. Use a read-only command, or move the change to a step allowed to make it.`,
    };
  }
  if (effect === "side-effecting") {
    if (declared === "bounded") return ALLOW;
    return { allow: false, message: `${base} is side-effecting, and this unit is declared pure: it may only observe. Read instead, or move the change to a step allowed to make it.` };
  }
  return {
    allow: false,
    message: `${base} has an unknown effect (${dialect.mcpToolPattern.test(base) ? "an MCP tool" : "a tool proctor does not know"}), and this unit is declared ${declared}: only tools with known effects may run here.`,
  };
}
