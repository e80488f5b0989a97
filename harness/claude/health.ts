/**
 * What a claude run is held to by the run-health gate: the MCP servers, skills and agents its spec
 * names, the scripted turns it left unused and its limits — recorded on the Trace as
 * `trace.health`, so `measure`, `proctor run` and the matchers refuse a run that did not happen as designed.
 */
import type { ClaudeRunSpec } from "../../src/eval/spec-types.js";
import { assessHealth, type HealthExpectations, type RunHealth } from "../../src/health/run-health.js";
import type { Trace } from "../../src/trace/types.js";
import type { MockRun } from "../../mock-model/run/mock-run.js";
import type { RunDirs } from "../workdir/prepare.js";

/** The `name:` of an agent's frontmatter (claude names it so), else the key it was given under. */
function declaredName(key: string, text: string): string {
  const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? "";
  const name = /^name:\s*["']?([^"'\r\n]+?)["']?\s*$/m.exec(front)?.[1];
  return name?.trim() || key;
}

/** What the spec asks the run to load, and how it bounds it. */
export function specExpectations(spec: Pick<ClaudeRunSpec, "skills" | "agents" | "maxTurns" | "timeoutMs">, dirs: Pick<RunDirs, "mcpServers">, extra: { readonly maxBudgetUsd?: number } = {}): HealthExpectations {
  // claude lists a user skill by its folder name, and a subagent by its frontmatter name.
  const skills = Object.keys(spec.skills ?? {});
  const agents = Object.entries(spec.agents ?? {}).map(([k, t]) => declaredName(k, t));
  const limits = {
    ...(spec.maxTurns !== undefined ? { maxTurns: spec.maxTurns } : {}),
    ...(spec.timeoutMs !== undefined ? { timeoutMs: spec.timeoutMs } : {}),
    ...(extra.maxBudgetUsd !== undefined ? { maxBudgetUsd: extra.maxBudgetUsd } : {}),
  };
  return {
    ...(dirs.mcpServers.length ? { mcpServers: [...dirs.mcpServers] } : {}),
    ...(skills.length ? { skills } : {}),
    ...(agents.length ? { agents } : {}),
    ...(Object.keys(limits).length ? { limits } : {}),
  };
}

/** The scripted turns no request asked for and not marked optional, per conversation. */
export function unusedScriptTurns(mockRun: Pick<MockRun, "unusedTurns"> | undefined): HealthExpectations["unusedTurns"] {
  return (mockRun?.unusedTurns() ?? []).filter((u) => u.required > 0).map((u) => ({ agent: u.agent, remaining: u.required }));
}

/** The Trace with its health judged against the spec (and the mock's script, when one answered). */
export function withHealth(trace: Trace, spec: ClaudeRunSpec | Omit<ClaudeRunSpec, "script">, dirs: Pick<RunDirs, "mcpServers">, mockRun?: Pick<MockRun, "unusedTurns">, extra: { readonly maxBudgetUsd?: number } = {}): Trace {
  const unused = mockRun ? unusedScriptTurns(mockRun) : undefined;
  const expected: HealthExpectations = { ...specExpectations(spec, dirs, extra), ...(unused?.length ? { unusedTurns: unused } : {}) };
  const health: RunHealth = assessHealth(trace, expected, spec.health ?? {});
  return { ...trace, health };
}
