/**
 * proctor evals as a `claude plugin eval` suite: each eval a case (case.yaml) whose graders are
 * the checks that have an equivalent grader, with its mock script beside it as the case's
 * proctor.script.json (so the suite also runs on `proctor run` and `proctor mock serve`). Checks
 * without an equivalent are listed, never silently dropped.
 */
import type { CheckJSON } from "../checks/check.js";
import type { EvalDefinition, MockSpec } from "../eval/define.js";
import { InvalidInputError } from "../errors/proctor-error.js";
import type { Script, Turn } from "../eval/script-types.js";
import { DEFAULT_SCHEMA_VERSION } from "./case-schema.js";
import { UNGATED_TOOLS } from "./grant-notices.js";
import type { Grader } from "./types.js";

/** One exported case: its directory name, its case.yaml object, its script, and what was left out. */
export interface ExportedCase {
  readonly dir: string;
  readonly caseYaml: Record<string, unknown>;
  /** The mock script (an object), or the path of the eval's script file (relative to the eval file). */
  readonly script?: Script | string;
  /** Checks and settings with no equivalent in the format, one line each. */
  readonly notExported: readonly string[];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const isRegex = (v: unknown): v is { $regex: string; $flags?: string } => typeof v === "object" && v !== null && typeof (v as { $regex?: unknown }).$regex === "string";

/** A check's grader, or undefined when the format has none with the same meaning. */
export function graderOf(json: CheckJSON, name: string): Grader | undefined {
  const j = json as Record<string, unknown> & { kind: string };
  const str = (k: string) => (typeof j[k] === "string" ? (j[k] as string) : undefined);
  switch (j.kind) {
    case "tool":
      return str("name") ? { type: "tool_used", name, weight: 1, tool: str("name") as string, arm: "both" } : undefined;
    case "notTool":
      return str("name") && j.args === undefined ? { type: "tool_used", name, weight: 1, tool: str("name") as string, min: 0, max: 0, arm: "both" } : undefined;
    case "toolCount":
      return str("name") && j.name !== "*" ? { type: "tool_used", name, weight: 1, tool: str("name") as string, min: typeof j.min === "number" ? j.min : 0, ...(typeof j.max === "number" ? { max: j.max } : {}), arm: "both" } : undefined;
    case "output": {
      const m = j.matcher;
      if (typeof m === "string") return { type: "regex", name, weight: 1, target: "last_message", pattern: escapeRegExp(m), flags: "", match: "contains" };
      if (isRegex(m)) return { type: "regex", name, weight: 1, target: "last_message", pattern: m.$regex, flags: (m.$flags ?? "").replace(/g/g, ""), match: "contains" };
      return undefined;
    }
    case "skill":
      // Unmarked: under ablation it is the plugin-fired indicator, reported but not scored.
      return str("id") ? { type: "tool_used", name, weight: 1, tool: "Skill", input_match: `"skill":"(?:[^"]*:)?${escapeRegExp(str("id") as string)}"` } : undefined;
    case "judged":
      return str("rubric") ? { type: "llm", name, weight: 1, criteria: str("rubric") as string, focus: "last_message" } : undefined;
    default:
      return undefined;
  }
}

/** The tools a script's turns call (main agent and subagents), in first-call order; function turns are counted apart. */
export function scriptTools(script: Script): { tools: string[]; unknownTurns: number } {
  const tools: string[] = [];
  let unknownTurns = 0;
  const visit = (turns: readonly Turn[]) => {
    for (const turn of turns) {
      if (typeof turn === "function") {
        unknownTurns++;
        continue;
      }
      for (const t of turn.tools ?? []) tools.push(t.name);
      for (const b of turn.blocks ?? []) if (b.type === "tool_use") tools.push(b.name);
    }
  };
  visit(script.turns ?? []);
  for (const sub of script.subagents ?? []) visit(sub.turns ?? []);
  return { tools: [...new Set(tools)], unknownTurns };
}

/**
 * The case with the tools its script calls added to allowed_tools: a case that withholds a tool its
 * own script calls cannot run as the eval did (claude offers a withheld tool to no one). Returns the
 * case, the gated tools an operator must grant (`--allow-tools`), and a note for turns it cannot read.
 */
export function allowScriptTools(caseYaml: Record<string, unknown>, script: Script): { caseYaml: Record<string, unknown>; gated: string[]; note?: string } {
  const execution = caseYaml.execution as Record<string, unknown> & { allowed_tools: string[] };
  const { tools, unknownTurns } = scriptTools(script);
  const disallowed = new Set((execution.disallowed_tools as string[] | undefined) ?? []);
  const allowed = [...new Set([...execution.allowed_tools, ...tools.filter((t) => !disallowed.has(t))])];
  const gated = allowed.filter((t) => !UNGATED_TOOLS.has(t.replace(/\(.*\)$/s, "")));
  return {
    caseYaml: { ...caseYaml, execution: { ...execution, allowed_tools: allowed } },
    gated,
    ...(unknownTurns ? { note: `${unknownTurns} script turn(s) are functions: the tools they call are not known, so add them to allowed_tools yourself` } : {}),
  };
}

/** A case directory name from an eval's name. */
export const caseDirName = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "case";

/** Export one eval (its mock tier, else its real tier) as a case. */
export function exportEval(definition: EvalDefinition): ExportedCase {
  const spec = (definition.mock ?? definition.real) as MockSpec | ((...a: unknown[]) => unknown) | undefined;
  if (spec === undefined) throw new InvalidInputError("INVALID_INPUT", `eval ${JSON.stringify(definition.name)} has no mock or real tier to export (a run function or a replay cannot be a claude plugin eval case)`);
  if (typeof spec === "function") throw new InvalidInputError("INVALID_INPUT", `eval ${JSON.stringify(definition.name)} chooses its spec per trial (a function): a claude plugin eval case is one fixed prompt`, { hint: "export a fixed spec, or write the case by hand" });
  const notExported: string[] = [];
  const names = new Set<string>();
  const graders: Grader[] = [];
  for (const check of definition.checks) {
    let name = caseDirName(check.label ?? check.kind);
    for (let i = 2; names.has(name); i++) name = `${caseDirName(check.label ?? check.kind)}-${i}`;
    const grader = graderOf(check.toJSON(), name);
    if (!grader) {
      notExported.push(`check ${check.label}: no claude plugin eval grader has its meaning`);
      continue;
    }
    names.add(name);
    graders.push(grader);
  }
  if (graders.length === 0) throw new InvalidInputError("INVALID_INPUT", `eval ${JSON.stringify(definition.name)}: none of its checks has a claude plugin eval grader (${notExported.join("; ")})`, { hint: "tool, notTool, toolCount, output, skill and judged export; add one of them" });
  if (spec.files || spec.fixture) notExported.push("files/fixture: claude plugin eval starts each run in an empty git repository");
  if (spec.settings || spec.skills || spec.agents || spec.mcpConfig) notExported.push("settings, skills, agents and mcpConfig: a case runs with the plugin under test only");
  if (spec.permissionMode && spec.permissionMode !== "dontAsk") notExported.push(`permissionMode ${spec.permissionMode}: claude plugin eval runs every case in dontAsk mode`);
  const timeout = spec.timeoutMs === undefined ? undefined : Math.min(3600, Math.max(1, Math.ceil(spec.timeoutMs / 1000)));
  const caseYaml: Record<string, unknown> = {
    schema_version: DEFAULT_SCHEMA_VERSION,
    name: definition.name,
    ...(definition.description ? { description: definition.description } : {}),
    runs: Math.min(50, definition.trials),
    execution: {
      prompt: spec.prompt,
      ...(spec.maxTurns !== undefined ? { max_turns: Math.min(200, spec.maxTurns) } : {}),
      ...(timeout !== undefined ? { timeout_seconds: timeout } : {}),
      ...(spec.model ? { model: spec.model } : {}),
      allowed_tools: [...(spec.allowedTools ?? ["Skill"])],
      ...(spec.disallowedTools?.length ? { disallowed_tools: [...spec.disallowedTools] } : {}),
      ...(spec.env && Object.keys(spec.env).length ? { env: { ...spec.env } } : {}),
    },
    graders,
  };
  const script = definition.mock && typeof definition.mock !== "function" ? definition.mock.script : undefined;
  // A script given inline: its tools are allowed now (a script file is read, and allowed, by the caller).
  const allowed = typeof script === "object" ? allowScriptTools(caseYaml, script) : undefined;
  if (allowed?.note) notExported.push(allowed.note);
  return { dir: caseDirName(definition.name), caseYaml: allowed?.caseYaml ?? caseYaml, ...(script !== undefined ? { script } : {}), notExported };
}
