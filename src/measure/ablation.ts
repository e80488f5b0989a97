/**
 * Ablation: the same eval with and without one part of the setup — a plugin, a skill, a subagent,
 * a hook event, an MCP server — so a report says what that part is worth: per check the change in
 * rate with an interval, Fisher's exact two-sided p, an anytime-valid interval (safe to read after
 * every trial) and how many trials per arm it takes to see such a change.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, isAbsolute, join, resolve } from "node:path";
import { requireObject } from "../errors/arguments.js";
import { InvalidInputError } from "../errors/proctor-error.js";
import { compareProportions } from "../stats/compare.js";
import { trialsPerArm } from "../stats/power.js";
import { rate, type Interval } from "../stats/proportion.js";
import { differenceSequence } from "../stats/sequence.js";
import { pairedSequence, type PairedCounts } from "../stats/paired-sequence.js";
import type { AblationEarlyStop } from "./ablation-stop.js";
import type { RemovedParts } from "./ablation-parts.js";
import type { CheckReport, CheckStats } from "./types.js";

/** What an ablation removes: `plugin:NAME`, `skill:NAME`, `agent:NAME`, `hook:EVENT` or `mcp:SERVER`. */
export interface AblatedComponent {
  readonly kind: "plugin" | "skill" | "agent" | "hook" | "mcp";
  readonly name: string;
}

const KINDS = ["plugin", "skill", "agent", "hook", "mcp"] as const;

/** Parse `plugin:NAME` (and the other kinds) or refuse with the forms that exist. */
export function parseComponent(text: string): AblatedComponent {
  const match = typeof text === "string" ? /^([a-z]+):(.+)$/.exec(text.trim()) : null;
  const kind = match?.[1] as AblatedComponent["kind"] | undefined;
  if (!match || !kind || !KINDS.includes(kind)) {
    throw new InvalidInputError("INVALID_INPUT", `ablate: ${JSON.stringify(text)} is not a component to ablate; write ${KINDS.map((k) => `${k}:NAME`).join(", ")} (e.g. plugin:tidy, hook:PreToolUse, mcp:memory)`, { input: "ablate" });
  }
  return { kind, name: match[2] as string };
}

/** `plugin:tidy` back from its parts. */
export const componentText = (c: AblatedComponent) => `${c.kind}:${c.name}`;

/** The spec fields ablation touches (the harness's ClaudeRunSpec has them all). */
export interface AblatableSpec {
  readonly plugins?: readonly string[];
  readonly skills?: Readonly<Record<string, string>>;
  readonly agents?: Readonly<Record<string, string>>;
  readonly settings?: Readonly<Record<string, unknown>>;
  readonly mcpConfig?: unknown;
  readonly cwd?: string;
}

/** A plugin directory's names: its folder name and, when its manifest can be read, the manifest's `name`. */
function pluginNames(dir: string, cwd: string | undefined): string[] {
  const names = [basename(dir.replace(/[\\/]+$/, ""))];
  const root = isAbsolute(dir) ? dir : resolve(cwd ?? process.cwd(), dir);
  const manifest = join(root, ".claude-plugin", "plugin.json");
  if (existsSync(manifest)) {
    try {
      const name = (JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name;
      if (typeof name === "string") names.push(name);
    } catch {
      // An unreadable manifest: the harness's own spec check reports it; the folder name still matches.
    }
  }
  return names;
}

function missing(component: AblatedComponent, present: readonly string[], where: string): never {
  throw new InvalidInputError("INVALID_INPUT", `ablate ${componentText(component)}: the run has no ${component.kind} ${JSON.stringify(component.name)} to remove`, {
    input: "ablate",
    detail: `  ${where}: ${present.length ? present.map((p) => JSON.stringify(p)).join(", ") : "none"}`,
  });
}

/**
 * The spec without the component: a plugin directory dropped from `plugins`, a skill or agent
 * from `skills` / `agents`, every hook of one event from `settings.hooks`, a server from an
 * inline `mcpConfig`. A component the spec does not have is an error, never a no-op (a typo
 * would otherwise compare a run with itself and call the part worthless).
 */
export function ablateSpec<S extends AblatableSpec>(spec: S, component: AblatedComponent): S {
  requireObject("ablateSpec", "spec", spec, "a run spec (mock, replay or real)");
  requireObject("ablateSpec", "component", component, "what parseComponent returns, e.g. parseComponent(\"plugin:NAME\")");
  const { kind, name } = component;
  if (kind === "plugin") {
    const plugins = spec.plugins ?? [];
    const kept = plugins.filter((p) => !pluginNames(p, spec.cwd).includes(name));
    if (kept.length === plugins.length) missing(component, plugins.map((p) => basename(p)), "plugins");
    return { ...spec, plugins: kept };
  }
  if (kind === "skill" || kind === "agent") {
    const field = kind === "skill" ? "skills" : "agents";
    const table = spec[field] ?? {};
    if (!Object.hasOwn(table, name)) missing(component, Object.keys(table), field);
    const { [name]: _dropped, ...rest } = table;
    return { ...spec, [field]: rest };
  }
  if (kind === "hook") {
    const hooks = (spec.settings?.hooks ?? {}) as Record<string, unknown>;
    if (!Object.hasOwn(hooks, name)) missing(component, Object.keys(hooks), "settings.hooks");
    const { [name]: _dropped, ...rest } = hooks;
    return { ...spec, settings: { ...spec.settings, hooks: rest } };
  }
  const config = spec.mcpConfig;
  if (typeof config === "string") {
    throw new InvalidInputError("INVALID_INPUT", `ablate ${componentText(component)}: mcpConfig is a file (${config}); give it inline ({ mcpServers: { … } }) so one server can be left out`, { input: "ablate" });
  }
  const servers = ((config as { mcpServers?: Record<string, unknown> } | undefined)?.mcpServers ?? {}) as Record<string, unknown>;
  if (!Object.hasOwn(servers, name)) missing(component, Object.keys(servers), "mcpConfig.mcpServers");
  const { [name]: _dropped, ...rest } = servers;
  return { ...spec, mcpConfig: { ...(config as object), mcpServers: rest } };
}

/** One side's counts. */
export interface ArmCounts {
  readonly passes: number;
  readonly n: number;
}

/** One check with and without the component. */
export interface AblationCheck {
  readonly label: string;
  readonly with: ArmCounts;
  readonly without: ArmCounts;
  /** rate(with) − rate(without): what the component adds; null when an arm has no evaluated trial. */
  readonly delta: number | null;
  /** Newcombe's interval for the delta at the report's confidence (for this fixed n). */
  readonly interval: Interval | null;
  /** An anytime-valid interval for the delta (valid however often it was looked at; wider). */
  readonly sequence: Interval;
  /** Fisher's exact two-sided p-value. */
  readonly pValue: number;
  /** pValue ≤ alpha. */
  readonly significant: boolean;
  /** Trials per arm that would detect a delta of this size (the observed one, or `detect`) with probability `power`; null when there is none to detect. */
  readonly trialsPerArm: number | null;
  /**
   * The trials paired by index (trial i with, trial i without; both evaluated) and the paired
   * anytime-valid interval for the delta (`pairedSequence`, at the report's confidence) — what the
   * ablation's early stop reads. Absent in reports written before it was recorded.
   */
  readonly pairs?: PairedCounts & { readonly sequence: Interval };
  /**
   * The parts removed with the component that this check names (`skill tidy`): failing without
   * them is the component's effect, counted as a failed check there — never an error.
   */
  readonly namesRemoved?: readonly string[];
}

/** The ablation recorded on the report of the arm with the component (additive report field). */
export interface AblationInfo {
  /** What was removed, as `plugin:NAME`. */
  readonly component: string;
  /** The report name of the arm without it. */
  readonly withoutReport: string;
  readonly alpha: number;
  readonly power: number;
  /** The delta `trialsPerArm` plans for, when given; else each check's observed delta. */
  readonly detect?: number;
  readonly checks: readonly AblationCheck[];
  /** Present when the arms ran with early stopping: whether it stopped them, after how many pairs, and why. */
  readonly earlyStop?: AblationEarlyStop;
  /** What the component took away (its skills, agents, hook events, MCP servers): expected missing in the arm without it. */
  readonly removed?: RemovedParts;
}

/** Options of `compareAblation`. */
export interface AblationOptions {
  /** @default 0.05 */
  readonly alpha?: number;
  /** Power of the trials-per-arm plan. @default 0.8 */
  readonly power?: number;
  /** Plan for this delta instead of the observed one (e.g. 0.2: "would we see a 20-point effect?"). */
  readonly detect?: number;
}

/** The name of the without arm's report: `tidy [without plugin:tidy]`. */
export const withoutName = (evalName: string, component: string) => `${evalName} [without ${component}]`;

/**
 * One check's comparison from the arms' counts alone (and the paired counts, when known): what
 * compareAblation computes, and what a merge of shards recomputes from their summed counts.
 */
export function ablationCheck(
  label: string,
  withCounts: ArmCounts,
  withoutCounts: ArmCounts,
  pairs: PairedCounts | undefined,
  confidence: number,
  options: { readonly alpha: number; readonly power: number; readonly detect?: number },
): AblationCheck {
  const a = { passes: withoutCounts.passes, n: withoutCounts.n };
  const b = { passes: withCounts.passes, n: withCounts.n };
  const cmp = compareProportions(a, b, confidence);
  const base = rate(a.passes, a.n);
  const planned = options.detect ?? cmp.diff;
  const { alpha, power } = options;
  // Plan from the without arm's rate; a change that leaves [0, 1] from there is planned the other way.
  const plan = base === null || !planned ? undefined : (trialsPerArm(base, planned, { alpha, power }) ?? trialsPerArm(base, -planned, { alpha, power }));
  return {
    label,
    with: b,
    without: a,
    delta: cmp.diff,
    interval: cmp.diffInterval,
    sequence: differenceSequence(a, b, confidence),
    pValue: cmp.pValue,
    significant: cmp.pValue <= alpha,
    trialsPerArm: plan ?? null,
    ...(pairs ? { pairs: withSequence(pairs, confidence) } : {}),
  };
}

/** Compare the arm with the component against the arm without it, check by check (matched by label). */
export function compareAblation(withReport: CheckReport, withoutReport: CheckReport, component: string, options: AblationOptions = {}): AblationInfo {
  for (const [name, r] of [["withReport", withReport], ["withoutReport", withoutReport]] as const) {
    requireObject("compareAblation", name, r, "a check report from measure");
    if (!Array.isArray(r.checks)) throw new InvalidInputError("INVALID_INPUT", `compareAblation: ${name} is not a check report (it has no checks list); pass what measure returned`);
  }
  const alpha = options.alpha ?? 0.05;
  const power = options.power ?? 0.8;
  if (!(alpha > 0 && alpha < 1)) throw new InvalidInputError("INVALID_INPUT", `ablation: alpha must be within (0, 1), like 0.05; got ${JSON.stringify(alpha)}`, { input: "alpha" });
  if (!(power > 0 && power < 1)) throw new InvalidInputError("INVALID_INPUT", `ablation: power must be within (0, 1), like 0.8; got ${JSON.stringify(power)}`, { input: "power" });
  if (options.detect !== undefined && !(Math.abs(options.detect) > 0 && Math.abs(options.detect) <= 1)) {
    throw new InvalidInputError("INVALID_INPUT", `ablation: detect must be a change in rate within (0, 1], like 0.2; got ${JSON.stringify(options.detect)}`, { input: "detect" });
  }
  const without = new Map(withoutReport.checks.map((c) => [c.label, c]));
  const checks = withReport.checks.flatMap((c): AblationCheck[] => {
    const other = without.get(c.label);
    if (!other) return [];
    const pairs = pairTrials(withReport, c, withoutReport, other);
    return [ablationCheck(c.label, { passes: c.passes, n: c.n }, { passes: other.passes, n: other.n }, pairs, withReport.confidence, { alpha, power, ...(options.detect !== undefined ? { detect: options.detect } : {}) })];
  });
  return { component, withoutReport: withoutReport.name ?? "without", alpha, power, ...(options.detect !== undefined ? { detect: options.detect } : {}), checks };
}

/** Each evaluated trial's outcome by trial index, from a report's outcome string and its ranges. */
function byIndex(report: CheckReport, check: CheckStats): Map<number, string> {
  const out = new Map<number, string>();
  let at = 0;
  for (const [start, end] of report.trials.ranges) for (let i = start; i < end; i++) out.set(i, check.outcomes[at++] ?? "E");
  return out;
}

/** Trial i with against trial i without, for every index both arms evaluated. */
export function pairTrials(withReport: CheckReport, withCheck: CheckStats, withoutReport: CheckReport, withoutCheck: CheckStats): PairedCounts {
  const theirs = byIndex(withoutReport, withoutCheck);
  let n = 0;
  let up = 0;
  let down = 0;
  for (const [i, w] of byIndex(withReport, withCheck)) {
    const wo = theirs.get(i);
    if (w === "E" || wo === undefined || wo === "E") continue;
    n++;
    if (w === "1" && wo === "0") up++;
    else if (w === "0" && wo === "1") down++;
  }
  return { n, up, down };
}

const withSequence = (c: PairedCounts, confidence: number) => ({ ...c, sequence: pairedSequence(c, confidence) });

const signed = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(x * 100).toFixed(0)}`;

/** `+100 pts (3/3 with vs 0/3 without, 95% CI +21…+100, anytime-valid −… (paired −…+100 over 3 pairs), Fisher p = 0.100, not significant at 0.05; ~4 trials per arm …)`. */
export function formatAblationCheck(c: AblationCheck, info: Pick<AblationInfo, "alpha" | "power">, confidence = 0.95): string {
  requireObject("formatAblationCheck", "c", c, "one of compareAblation(...).checks");
  requireObject("formatAblationCheck", "info", info, "what compareAblation returned");
  if (c.delta === null) {
    const arms = [c.with.n === 0 ? "with" : "", c.without.n === 0 ? "without" : ""].filter(Boolean).join(" nor ");
    return `nothing to compare: no trial of the arm ${arms} it was evaluated (its errors are listed above)`;
  }
  const ci = c.interval ? `, ${Math.round(confidence * 100)}% CI ${signed(c.interval.low)}…${signed(c.interval.high)}` : "";
  // The fixed-n interval is right only if n was fixed in advance; the anytime-valid one holds however the run was stopped.
  // The paired one (trial i with against trial i without) is what the early stop reads: usually narrower.
  const paired = c.pairs && c.pairs.n > 0 ? ` (paired ${signed(c.pairs.sequence.low)}…${signed(c.pairs.sequence.high)} over ${c.pairs.n} pairs)` : "";
  const anytime = `, anytime-valid ${signed(c.sequence.low)}…${signed(c.sequence.high)}${paired}`;
  const verdict = c.significant ? "significant" : "not significant";
  const plan = c.trialsPerArm === null ? "" : `; ~${c.trialsPerArm} trials per arm to see it at ${Math.round(info.power * 100)}% power`;
  return `${signed(c.delta)} pts (${c.with.passes}/${c.with.n} with vs ${c.without.passes}/${c.without.n} without${ci}${anytime}, Fisher p = ${c.pValue.toFixed(c.pValue < 0.001 ? 4 : 3)}, ${verdict} at ${info.alpha}${plan})`;
}
