/**
 * The lethal trifecta: a unit that can read private data, take in untrusted content and send
 * data out can be turned against its user by injected text alone. The Rule of Two: hold at most
 * two of the three legs.
 */
import { baseToolOf, restrictionOf, type HarnessDialect } from "./dialect.js";
import { requireArray, requireObject } from "../errors/arguments.js";

/** The tools supplying each leg (base names, de-duplicated). */
export interface TrifectaLegs {
  /** Tools that can read private data (files, secrets). */
  readonly privateData: readonly string[];
  /** Tools that bring in untrusted, attacker-controllable content. */
  readonly untrustedInput: readonly string[];
  /** Tools that can send data off the machine. */
  readonly exfiltration: readonly string[];
}

/** Programs that read no file and open no socket under any arguments — the only narrowed shell grants that drop the shell's legs. */
const EFFECT_FREE = new Set(["echo", "printf", "true", "false", ":", "pwd", "sleep", "date", "uname", "whoami", "id", "basename", "dirname"]);

/** Does a `Bash(…)` grant still read files and reach the network? Unless pinned to an effect-free program, yes. */
function shellGrantKeepsLegs(declaration: string): boolean {
  const r = restrictionOf(declaration)?.replace(/^["']|["']$/g, "").trim();
  if (r === undefined || r === "" || r === "*" || r === ":*") return true;
  const head = r.replace(/:\*$/, "").replace(/\s*\*$/, "").trim().split(/\s+/)[0] ?? "";
  return !EFFECT_FREE.has(head);
}

/**
 * Sort a declared tool list into the trifecta legs. A tool can supply several (`Bash` reads and
 * sends; `WebFetch` takes in and sends). MCP tools supply untrusted input and exfiltration: their
 * effects are unknown, so they are assumed to do both. A wildcard (`*`) supplies every leg.
 */
export function classifyTrifectaLegs(tools: readonly string[], dialect: HarnessDialect): TrifectaLegs {
  requireArray("classifyTrifectaLegs", "tools", tools, 'a list of tool names such as ["Read", "Bash(git:*)"]');
  requireObject("classifyTrifectaLegs", "dialect", dialect, "a harness dialect (claudeCodeDialect or codexDialect)");
  const legs = { privateData: new Set<string>(), untrustedInput: new Set<string>(), exfiltration: new Set<string>() };
  for (const declaration of tools) {
    const base = baseToolOf(declaration);
    if (base === "*" || base === "") {
      legs.privateData.add("*");
      legs.untrustedInput.add("*");
      legs.exfiltration.add("*");
      continue;
    }
    if (dialect.shellTools.includes(base) && !shellGrantKeepsLegs(declaration)) continue;
    if (dialect.privateDataTools.includes(base)) legs.privateData.add(base);
    if (dialect.untrustedInputTools.includes(base) || dialect.mcpToolPattern.test(base)) legs.untrustedInput.add(base);
    if (dialect.exfiltrationTools.includes(base) || dialect.mcpToolPattern.test(base)) legs.exfiltration.add(base);
  }
  return { privateData: [...legs.privateData], untrustedInput: [...legs.untrustedInput], exfiltration: [...legs.exfiltration] };
}

/** True when every leg is supplied. */
export function holdsLethalTrifecta(legs: TrifectaLegs): boolean {
  requireObject("holdsLethalTrifecta", "legs", legs, "the legs classifyTrifectaLegs returns");
  return legs.privateData.length > 0 && legs.untrustedInput.length > 0 && legs.exfiltration.length > 0;
}
