/** The runtime half of the purity contract, bound to the shell classifier. */
import { explainBash } from "./bash/classify.js";
import type { HarnessDialect } from "./dialect.js";
import type { PurityLevel } from "./effects.js";
import { decidePurity, type PurityGateDecision } from "./purity-decision.js";
import { optional, requireObject, requireString } from "../errors/arguments.js";

export type { PurityGateDecision } from "./purity-decision.js";

/**
 * Decide whether one live tool call is allowed under the active unit's declared purity floor.
 * Unlike `purityViolations` it sees the actual call, so it refines Bash by command: read-only
 * commands are observations and pass; a mutating or undecidable command is denied at `pure` and
 * `bounded` alike. Other side-effecting tools pass at `bounded`, not at `pure`; unknown-effect
 * tools (MCP, unrecognised) are denied at both; `unrestricted` allows everything.
 */
export function decidePurityGate(declared: PurityLevel, tool: string, command: string | undefined, dialect: HarnessDialect): PurityGateDecision {
  requireString("decidePurityGate", "declared", declared, 'a purity level: "pure", "bounded" or "unrestricted"');
  requireString("decidePurityGate", "tool", tool, 'a tool name such as "Bash"');
  optional(requireString, "decidePurityGate", "command", command, "the shell command the call runs, or undefined");
  requireObject("decidePurityGate", "dialect", dialect, "a harness dialect (claudeCodeDialect or codexDialect)");
  return decidePurity(declared, tool, command, dialect, explainBash);
}
