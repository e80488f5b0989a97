/**
 * The run-health gate that `measure`, `proctor run` and the test-runner matchers share: judge a
 * trial's health with what its checks name, and turn an unhealthy trial into an error — never a
 * failed check, never a pass.
 */
import type { Check } from "../checks/check.js";
import { InvalidInputError, RunError } from "../errors/proctor-error.js";
import type { Trace } from "../trace/types.js";
import { answersTo } from "../checks/names.js";
import { assessHealth, describeHealth, HEALTH_ITEMS, type HealthExpectations, type HealthItemName, type HealthSwitches, type RunHealth } from "./run-health.js";

/** Thrown (or recorded as the trial's error) for a run that did not happen as designed; `health` says which items failed. */
export class RunUnhealthyError extends RunError {
  declare readonly code: "RUN_UNHEALTHY";
  readonly health: RunHealth;
  constructor(health: RunHealth) {
    const failed = health.items.filter((i) => i.status === "failed").map((i) => i.name);
    super("RUN_UNHEALTHY", `the run did not happen as designed (${failed.join(", ")}), so its checks prove nothing`, { detail: describeHealth(health) });
    this.name = "RunUnhealthyError";
    this.health = health;
  }
}

const ITEMS = new Set<string>(HEALTH_ITEMS);

/** Refuse switches that are not `{ item: "reason" }` with a known item and a non-empty reason. */
export function validateHealthSwitches(value: unknown, where: string): asserts value is HealthSwitches {
  if (value === undefined) return;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InvalidInputError("INVALID_INPUT", `${where} must be an object of health items switched off, each with its reason, e.g. { "script-consumed": "the agent may stop early" }; got ${JSON.stringify(value)}`);
  }
  for (const [name, reason] of Object.entries(value)) {
    if (!ITEMS.has(name)) throw new InvalidInputError("INVALID_INPUT", `${where}.${name} is not a health item (items: ${HEALTH_ITEMS.join(", ")})`, { input: `${where}.${name}` });
    if (typeof reason !== "string" || reason.trim() === "") {
      throw new InvalidInputError("INVALID_INPUT", `${where}.${name} needs a reason: say why the run may legitimately fail "${name}" (a string); got ${JSON.stringify(reason)}`, {
        input: `${where}.${name}`,
        hint: `e.g. { "${name}": "the agent may stop early" }`,
      });
    }
  }
}

/** The skills and subagents a list of checks names (nested checks included), from their JSON form. */
export function namedByChecks(checks: readonly Check<never>[]): { skills: string[]; agents: string[] } {
  const skills = new Set<string>();
  const agents = new Set<string>();
  const walk = (json: unknown): void => {
    if (Array.isArray(json)) {
      for (const item of json) walk(item);
      return;
    }
    if (typeof json !== "object" || json === null) return;
    const j = json as Record<string, unknown>;
    if (j.kind === "skill" && typeof j.id === "string") skills.add(j.id);
    if (typeof j.kind === "string" && /^skill[A-Z]/.test(j.kind) && typeof j.skill === "string") skills.add(j.skill);
    if (j.kind === "subagent" && typeof j.name === "string") agents.add(j.name);
    for (const v of Object.values(j)) if (typeof v === "object") walk(v);
  };
  for (const c of checks) {
    try {
      walk(c.toJSON());
    } catch {
      // A check that does not serialise names nothing the gate can read.
    }
  }
  return { skills: [...skills], agents: [...agents] };
}

const isTrace = (value: unknown): value is Trace => {
  const v = value as Partial<Trace> | null;
  return typeof v === "object" && v !== null && v.version === 1 && Array.isArray(v.toolCalls) && Array.isArray(v.errors) && typeof v.source === "object";
};

const union = (a: readonly string[] | undefined, b: readonly string[]) => [...new Set([...(a ?? []), ...b])];

/**
 * Parts removed from the run on purpose (an ablation's arm without them): their skills, agents
 * and MCP servers are expected to be missing, so their absence is not unhealthy.
 */
export interface AbsentParts {
  readonly skills?: readonly string[];
  readonly agents?: readonly string[];
  readonly mcpServers?: readonly string[];
}

/** Options of the gate: the checks (what they name is expected), the eval's switches, the parts removed on purpose. */
export interface HealthGateOptions {
  readonly checks?: readonly Check<never>[];
  readonly switches?: HealthSwitches;
  readonly absent?: AbsentParts;
}

/** `wanted` without the names that answer to a part removed on purpose. */
const present = (wanted: readonly string[] | undefined, absent: readonly string[] | undefined) =>
  wanted && absent?.length ? wanted.filter((w) => !absent.some((a) => a === w || answersTo(w, a))) : wanted;

/**
 * The health of one trial as the gate sees it: what the harness recorded on the Trace, plus the
 * skills and agents its checks name, with the eval's switches. `undefined` when the target is not
 * a Trace (a hook run, a custom target): there is no run to judge.
 */
export function trialHealth(target: unknown, options: HealthGateOptions = {}): RunHealth | undefined {
  if (!isTrace(target)) return undefined;
  const recorded = target.health;
  const named = namedByChecks(options.checks ?? []);
  const base: HealthExpectations = recorded?.expected ?? {};
  const expected: HealthExpectations = {
    ...base,
    ...(named.skills.length || base.skills ? { skills: union(base.skills, named.skills) } : {}),
    ...(named.agents.length || base.agents ? { agents: union(base.agents, named.agents) } : {}),
  };
  const absent = options.absent;
  if (absent) {
    const skills = present(expected.skills, absent.skills);
    const agents = present(expected.agents, absent.agents);
    const mcpServers = present(expected.mcpServers, absent.mcpServers);
    Object.assign(expected, { ...(skills ? { skills } : {}), ...(agents ? { agents } : {}), ...(mcpServers ? { mcpServers } : {}) });
  }
  const switches: Partial<Record<HealthItemName, string>> = {};
  for (const item of recorded?.items ?? []) if (item.status === "off" && item.reason) switches[item.name] = item.reason;
  Object.assign(switches, options.switches);
  return assessHealth(target, expected, switches);
}

/** `undefined` for a healthy trial (or a target that is not a Trace), else the error that stands for it. */
export function healthError(target: unknown, options: HealthGateOptions = {}): RunUnhealthyError | undefined {
  const health = trialHealth(target, options);
  return health && !health.ok ? new RunUnhealthyError(health) : undefined;
}

/** Throw the RunUnhealthyError of an unhealthy trial (the matchers' gate); a healthy one, or a target that is not a Trace, passes through. */
export function assertHealthy(target: unknown, checks: readonly Check<never>[]): void {
  const error = healthError(target, { checks });
  if (error) throw error;
}
