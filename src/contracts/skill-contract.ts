/**
 * skillContract: turn a skill's own SKILL.md frontmatter into checks over a trace — the skill ran,
 * it used only its `allowed-tools` while active, and it kept its declared `purity`.
 */
import { readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { createRequire } from "node:module";
import type { Trace } from "../trace/types.js";
import type { Check } from "../checks/check.js";
import { skill as skillRan } from "../checks/run.js";
import { claudeCodeDialect } from "../effects/dialect.js";
import { PURITY_LEVELS, purityViolations, type PurityLevel } from "../effects/effects.js";
import { skillContractProblem, skillPurity, skillTools } from "./skill-scope.js";
import { requireString } from "../errors/arguments.js";

const require = createRequire(import.meta.url);
/** yaml is loaded when a SKILL.md is read, not when proctor is imported. */
const parseYaml = (text: string): unknown => (require("yaml") as typeof import("yaml")).parse(text);

/** The contract a SKILL.md declares. */
export interface SkillDeclaration {
  readonly name: string;
  readonly allowedTools?: readonly string[];
  readonly purity?: PurityLevel;
}

export { splitAllowedTools } from "./frontmatter.js";
import { splitAllowedTools } from "./frontmatter.js";

/** Read SKILL.md's frontmatter: the declaration, or the problem that stops it being checked. */
export function readSkillDeclaration(skillDir: string): { declaration: SkillDeclaration; problems: string[] } {
  requireString("readSkillDeclaration", "skillDir", skillDir, "the path of a skill directory (the folder holding SKILL.md)");
  const dir = resolve(skillDir);
  const fallback = basename(dir);
  const file = join(dir, "SKILL.md");
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    return { declaration: { name: fallback }, problems: [`cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); pass the skill's directory`] };
  }
  const m = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\s*(?:\r?\n|$)/.exec(text);
  if (!m) return { declaration: { name: fallback }, problems: [`${file} has no frontmatter; start it with a --- block declaring name, description and allowed-tools`] };
  let front: unknown;
  try {
    front = parseYaml(m[1] ?? "");
  } catch (error) {
    return { declaration: { name: fallback }, problems: [`${file}: the frontmatter is not valid YAML (${(error as Error).message.split("\n")[0]})`] };
  }
  if (typeof front !== "object" || front === null || Array.isArray(front)) {
    return { declaration: { name: fallback }, problems: [`${file}: the frontmatter must be a mapping of keys to values`] };
  }
  const fm = front as Record<string, unknown>;
  const problems: string[] = [];
  let name = fallback;
  if (fm.name !== undefined) {
    if (typeof fm.name === "string" && fm.name.trim()) name = fm.name.trim();
    else problems.push(`${file}: name must be a non-empty string; got ${JSON.stringify(fm.name)}`);
  }
  let allowedTools: string[] | undefined;
  const raw = fm["allowed-tools"];
  if (raw === undefined || raw === null) {
    problems.push(`${file} declares no allowed-tools, so there is nothing to hold the skill to; list the tools it may use (e.g. allowed-tools: Read, Grep, Bash(git:*))`);
  } else if (typeof raw === "string") {
    allowedTools = splitAllowedTools(raw);
  } else if (Array.isArray(raw) && raw.every((t) => typeof t === "string")) {
    allowedTools = raw.flatMap((t: string) => splitAllowedTools(t));
  } else {
    problems.push(`${file}: allowed-tools must be a string ("Read, Grep") or a list of tool names; got ${JSON.stringify(raw)}`);
  }
  if (allowedTools?.length === 0) problems.push(`${file}: allowed-tools is empty`);
  let purity: PurityLevel | undefined;
  if (fm.purity !== undefined) {
    if (PURITY_LEVELS.includes(fm.purity as PurityLevel)) purity = fm.purity as PurityLevel;
    else problems.push(`${file}: purity must be one of ${PURITY_LEVELS.join(", ")}; got ${JSON.stringify(fm.purity)}`);
  }
  if (purity && allowedTools) {
    for (const v of purityViolations(allowedTools, claudeCodeDialect, purity)) problems.push(`${file} declares purity: ${purity}, but ${v.message}`);
  }
  return { declaration: { name, ...(allowedTools ? { allowedTools } : {}), ...(purity ? { purity } : {}) }, problems };
}

/**
 * The checks a skill's SKILL.md declares: the skill ran; while it was active (its activation to
 * the next skill or the end of the run) only `allowed-tools` were used — `Bash(git:*)` and
 * `Bash(git *)` restrictions included; and a declared `purity: pure|bounded` held per call, as
 * the runtime gate decides it (a `bounded` skill may run read-only Bash, not `rm`). Missing or
 * malformed frontmatter gives a failing check that says what is wrong — never a throw.
 */
export function skillContract(skillDir: string): Check<Trace>[] {
  requireString("skillContract", "skillDir", skillDir, "the path of a skill directory (the folder holding SKILL.md)");
  const { declaration, problems } = readSkillDeclaration(skillDir);
  const checks: Check<Trace>[] = [skillRan(declaration.name)];
  if (declaration.allowedTools) checks.push(skillTools(declaration.name, declaration.allowedTools));
  if (declaration.purity && declaration.purity !== "unrestricted") checks.push(skillPurity(declaration.name, declaration.purity));
  for (const problem of problems) checks.push(skillContractProblem(declaration.name, problem));
  return checks;
}
