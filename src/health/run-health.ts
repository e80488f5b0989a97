/**
 * Run health: did the run the eval asked for actually happen? A trial whose plugin claude refused,
 * whose MCP server never connected, whose model was never asked, whose script went unused, whose
 * hook crashed or that ran out of turns proves nothing about the agent — it is an errored trial,
 * never a pass (least of all of a check that says something did *not* happen).
 *
 * Pure: judged from the Trace and what the run was asked to load (`HealthExpectations`, which the
 * harness records on the Trace as `trace.health.expected`), so a saved Trace is judged the same.
 */
import type { Trace } from "../trace/types.js";
import { answersTo } from "../checks/names.js";
import { requireArray, requireObject } from "../errors/arguments.js";
import { describeHookProblem, hookFix, hookProblem } from "./hook-health.js";

/** The items, in the order they are reported. Each name is stable: it keys the per-eval switches. */
export const HEALTH_ITEMS = ["claude-ran", "plugins-loaded", "mcp-servers-connected", "skills-loaded", "agents-loaded", "model-asked", "script-consumed", "hooks-ok", "within-limits"] as const;

export type HealthItemName = (typeof HEALTH_ITEMS)[number];

/**
 * Items switched off for one eval, each with the reason why the run may legitimately fail it.
 * @example { "script-consumed": "the agent may stop early once the tests pass" }
 */
export type HealthSwitches = Readonly<Partial<Record<HealthItemName, string>>>;

/** One item's verdict. `off`: switched off with `reason`; `failed`: `message` says what went wrong, `fix` what to do. */
export interface HealthItem {
  readonly name: HealthItemName;
  readonly status: "ok" | "failed" | "off";
  readonly message?: string;
  readonly fix?: string;
  /** Why the eval switched this item off. */
  readonly reason?: string;
}

/** What the run was asked to load and how it was bounded: what the items hold the Trace to. */
export interface HealthExpectations {
  /** MCP servers the run's config names. */
  readonly mcpServers?: readonly string[];
  /** Skills the eval names (its spec's skills, its checks' skill names). */
  readonly skills?: readonly string[];
  /** Subagents the eval names (its spec's agents, its checks' subagent names). */
  readonly agents?: readonly string[];
  /** Scripted turns no request asked for and not marked optional, per conversation. */
  readonly unusedTurns?: readonly { readonly agent: string; readonly remaining: number }[];
  /** The run's limits as its spec set them. */
  readonly limits?: { readonly maxTurns?: number; readonly timeoutMs?: number; readonly maxBudgetUsd?: number };
}

/** The health of one run: `ok` unless an item that is on failed. */
export interface RunHealth {
  readonly ok: boolean;
  readonly items: readonly HealthItem[];
  /** What the run was held to (kept so a saved Trace is re-judged the same). */
  readonly expected?: HealthExpectations;
}

type Verdict = { message: string; fix: string } | undefined;

const SWITCH_HINT = (name: HealthItemName) => `or, if the run may legitimately do this, switch the item off with a reason: health: { "${name}": "why" }`;

/** Kinds of trace errors that mean claude did not run to a normal end. */
const ENDED_BADLY = new Set(["incomplete", "not-a-transcript", "killed", "crashed", "no-answer", "unknown-event", "error_during_execution", "script-overrun", "no-subagent-script", "turn-failed"]);

function claudeRan(trace: Trace): Verdict {
  // A model never asked never answered either: that run is model-asked's to report.
  const neverAsked = trace.errors.some((e) => e.kind === "no-model-request");
  const bad = trace.errors.find((e) => ENDED_BADLY.has(e.kind) && !(neverAsked && e.kind === "no-answer"));
  if (!trace.complete || bad) {
    const why = bad?.message ?? trace.errors.find((e) => e.kind !== "malformed-line")?.message ?? "the run ended without its final result line";
    return { message: `claude did not start and end normally: ${why}`, fix: "rerun with keep: true and read the stderr tail; a killed or cut-off run says nothing about the agent" };
  }
  return undefined;
}

function pluginsLoaded(trace: Trace): Verdict {
  const missing = trace.errors.filter((e) => e.kind === "plugin-not-loaded");
  if (missing.length === 0) return undefined;
  return { message: missing.map((e) => e.message).join("; "), fix: "run `claude plugin validate DIR` on the plugin and fix what it reports (.claude-plugin/plugin.json: name, version, paths)" };
}

function mcpConnected(trace: Trace, expected: HealthExpectations): Verdict {
  const listed = trace.source.mcpServers;
  const names = new Set([...(expected.mcpServers ?? []), ...(listed ?? []).filter((s) => s.status === "failed").map((s) => s.name)]);
  const bad: string[] = [];
  for (const name of names) {
    const server = listed?.find((s) => s.name === name);
    if (!server) bad.push(`"${name}" is not in claude's init line${listed ? "" : " (the run has no init line)"}`);
    else if (server.status !== "connected") bad.push(`"${name}" is ${server.status}`);
  }
  if (bad.length === 0) return undefined;
  return {
    message: `MCP server ${bad.join(", ")}: none of its tools were there to call`,
    fix: "run the server's command by hand to see why it does not start; give absolute paths (command, args, state files) in the MCP config",
  };
}

/**
 * What the run shows loaded: the init line's list, plus what it ran to completion — a skill that
 * launched or a subagent that answered was loaded, whatever the trace's init line (or its absence) says.
 */
function seenLoaded(listed: readonly string[] | undefined, ran: readonly string[]): readonly string[] | undefined {
  return listed === undefined && ran.length === 0 ? undefined : [...new Set([...(listed ?? []), ...ran])];
}

function namesLoaded(kind: "skill" | "agent", wanted: readonly string[] | undefined, listed: readonly string[] | undefined): Verdict {
  if (!wanted?.length) return undefined;
  const missing = wanted.filter((w) => !(listed ?? []).some((n) => answersTo(w, n)));
  if (missing.length === 0) return undefined;
  const plural = missing.length === 1 ? "" : "s";
  const list = listed === undefined ? "the run recorded no init line listing them" : `init lists ${listed.length ? listed.slice(0, 15).join(", ") + (listed.length > 15 ? ", …" : "") : "none"}`;
  return {
    message: `the ${kind}${plural} ${missing.map((m) => JSON.stringify(m)).join(", ")} the eval names ${missing.length === 1 ? "was" : "were"} not loaded (${list})`,
    fix:
      kind === "skill"
        ? "check the skill's folder and SKILL.md frontmatter (name, description), that its plugin loaded, and the spelling the eval uses"
        : "check the agent's .md frontmatter (name, description), that its plugin loaded, and the spelling the eval uses",
  };
}

function modelAsked(trace: Trace): Verdict {
  const never = trace.errors.find((e) => e.kind === "no-model-request");
  if (!never && !(trace.complete && trace.modelRequests !== undefined && trace.modelRequests.length === 0)) return undefined;
  return {
    message: `the model was never asked: ${never?.message ?? "the mock model received no request"}`,
    fix: "find what ended the run before the first request: a slash command's ! preamble that failed, a SessionStart or UserPromptSubmit hook that stopped it",
  };
}

function scriptConsumed(expected: HealthExpectations): Verdict {
  const unused = (expected.unusedTurns ?? []).filter((u) => u.remaining > 0);
  if (unused.length === 0) return undefined;
  const parts = unused.map((u) => `${u.agent === "main" ? "the main agent" : `subagent ${u.agent}`}: ${u.remaining} scripted turn${u.remaining === 1 ? "" : "s"} never asked for`);
  return {
    message: `the mock script was not used up (${parts.join("; ")}): the run ended before it did what the script scripted`,
    fix: "find why the agent stopped early (a denied call, a hook, max turns), or mark turns the agent may skip with optional: true",
  };
}

/** Hooks that did not run as designed (hook-health.ts): a background hook claude cancelled at session end is not one. */
function hooksOk(trace: Trace): Verdict {
  const problems = trace.hooks.flatMap((hook) => {
    const problem = hookProblem(hook, trace.complete);
    return problem ? [{ hook, problem }] : [];
  });
  if (problems.length === 0) return undefined;
  const describe = problems.slice(0, 3).map(({ hook, problem }) => describeHookProblem(hook, problem));
  const n = problems.length;
  return {
    message: `${n} hook run${n === 1 ? "" : "s"} did not run as designed: ${describe.join("; ")}${n > 3 ? "; …" : ""}`,
    fix: hookFix(problems.map((p) => p.problem)),
  };
}

function withinLimits(trace: Trace, expected: HealthExpectations): Verdict {
  const limits = expected.limits ?? {};
  const subtype = trace.outcome?.subtype ?? "";
  const problems: string[] = [];
  if (subtype === "error_max_turns" || (limits.maxTurns !== undefined && trace.turns !== undefined && trace.turns > limits.maxTurns)) {
    problems.push(`it ran out of turns${limits.maxTurns !== undefined ? ` (maxTurns ${limits.maxTurns})` : ""}`);
  }
  if (trace.errors.some((e) => e.kind === "timeout")) problems.push(`it was killed at its time limit${limits.timeoutMs !== undefined ? ` (timeoutMs ${limits.timeoutMs})` : ""}`);
  if (/budget/i.test(subtype)) problems.push(`it hit its cost cap${limits.maxBudgetUsd !== undefined ? ` (maxBudgetUsd ${limits.maxBudgetUsd})` : ""}`);
  if (problems.length === 0) return undefined;
  return { message: `the run did not stay inside its limits: ${problems.join("; ")}`, fix: "raise the limit in the spec (maxTurns, timeoutMs, maxBudgetUsd), or find why the agent needed more" };
}

/**
 * Judge one run's health. Items switched off in `switches` are reported `off` with their reason.
 * Evidence decides: a trace that does not record something (no mock requests, no hooks) fails
 * only the items it has evidence against.
 */
export function assessHealth(trace: Trace, expected: HealthExpectations = {}, switches: HealthSwitches = {}): RunHealth {
  requireObject("assessHealth", "trace", trace, "a Trace");
  requireArray("assessHealth", "trace.errors", trace.errors, "the Trace's errors (an array): pass a Trace");
  requireObject("assessHealth", "expected", expected, "what the run was held to ({ mcpServers, skills, agents, unusedTurns, limits })");
  requireObject("assessHealth", "switches", switches, 'health items switched off, e.g. { "script-consumed": "why" }');
  const verdicts: Record<HealthItemName, () => Verdict> = {
    "claude-ran": () => claudeRan(trace),
    "plugins-loaded": () => pluginsLoaded(trace),
    "mcp-servers-connected": () => mcpConnected(trace, expected),
    "skills-loaded": () => namesLoaded("skill", expected.skills, seenLoaded(trace.source.skills, (trace.skills ?? []).filter((k) => k.status === "success").map((k) => k.name))),
    "agents-loaded": () => namesLoaded("agent", expected.agents, seenLoaded(trace.source.agents, (trace.subagents ?? []).filter((a) => a.status === "success").map((a) => a.type))),
    "model-asked": () => modelAsked(trace),
    "script-consumed": () => scriptConsumed(expected),
    "hooks-ok": () => hooksOk(trace),
    "within-limits": () => withinLimits(trace, expected),
  };
  const items = HEALTH_ITEMS.map((name): HealthItem => {
    const reason = switches[name];
    if (reason !== undefined) return { name, status: "off", reason };
    const verdict = verdicts[name]();
    return verdict ? { name, status: "failed", message: verdict.message, fix: `${verdict.fix}; ${SWITCH_HINT(name)}` } : { name, status: "ok" };
  });
  const hasExpected = Object.keys(expected).length > 0;
  return { ok: items.every((i) => i.status !== "failed"), items, ...(hasExpected ? { expected } : {}) };
}

/** The failed items, one per line with what to do: the body of an unhealthy trial's error. */
export function describeHealth(health: RunHealth): string {
  requireObject("describeHealth", "health", health, "a RunHealth ({ ok, items })");
  requireArray("describeHealth", "health.items", health.items, "the items (an array)");
  return health.items
    .filter((i) => i.status === "failed")
    .map((i) => `  ✗ ${i.name}: ${i.message}\n      fix: ${i.fix}`)
    .join("\n");
}
