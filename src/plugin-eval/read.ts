/**
 * Reading a `claude plugin eval` suite from disk: each case directory under the eval dir holds a
 * `case.yaml`, or a `prompt.md` (frontmatter + the prompt) and `graders/*.md` (frontmatter with
 * `type:` + the criteria or pattern), merged the way claude 2.1.332 merges them.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { ConfigError } from "../errors/proctor-error.js";
import { DEFAULT_SCHEMA_VERSION, isPlainObject, validateCase } from "./case-schema.js";
import type { PluginEvalSuite, SuiteCase } from "./types.js";

const TOP_KEYS = ["schema_version", "name", "description", "tags", "plugins", "runs", "expected_outcome"];
const EXECUTION_KEYS = ["model", "max_turns", "timeout_seconds", "allowed_tools", "disallowed_tools", "artifact_publish", "growthbook_overrides", "append_system_prompt", "env"];
/** Which field a grader file's body fills when its frontmatter leaves it out. */
const BODY_FIELD: Record<string, string> = { llm: "criteria", baseline: "criteria", regex: "pattern" };
/** The binary's caps: bytes per .md file, grader files per case. */
const MAX_MD_BYTES = 1_048_576;
const MAX_GRADER_FILES = 256;
/** Directories under the eval dir that are never cases. */
const NOT_CASES = new Set(["results", "mocks", "graders", "node_modules"]);
const FRONTMATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

const invalid = (message: string, input: string, hint?: string): ConfigError =>
  new ConfigError("SUITE_INVALID", message, { input, hint: hint ?? "fix the case as the message says; docs/plugin-eval.md describes the format" });

function readMd(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  const size = statSync(file).size;
  if (size > MAX_MD_BYTES) throw invalid(`${basename(file)} is ${size} bytes (cap: ${MAX_MD_BYTES})`, file);
  return readFileSync(file, "utf8").replace(/^\uFEFF/, "");
}

/** Split a .md file into its YAML frontmatter and body, with the binary's messages. */
export function splitFrontmatter(text: string, file: string): { fm: Record<string, unknown>; body: string; hadFrontmatter: boolean } {
  const m = FRONTMATTER.exec(text);
  if (!m) {
    if (/^---\s*\n/.test(text)) throw invalid(`${basename(file)}: unterminated frontmatter (opening "---" with no closing "---")`, file);
    return { fm: {}, body: text, hadFrontmatter: false };
  }
  let fm: unknown;
  try {
    fm = parseYaml(m[1] ?? "");
  } catch (error) {
    throw invalid(`${basename(file)}: invalid YAML frontmatter: ${(error as Error).message}`, file);
  }
  const body = text.slice(m[0].length);
  if (fm === null || fm === undefined) return { fm: {}, body, hadFrontmatter: true };
  if (!isPlainObject(fm)) throw invalid(`${basename(file)}: frontmatter must be a YAML object`, file);
  return { fm, body, hadFrontmatter: true };
}

/** prompt.md and graders/*.md of a case dir, as the parts they add to case.yaml; undefined when it has neither. */
function readProse(dir: string): { top: Record<string, unknown>; execution: Record<string, unknown>; prompt?: string; graders: Record<string, unknown>[] } | undefined {
  const promptFile = join(dir, "prompt.md");
  const prompt = readMd(promptFile);
  const gradersDir = join(dir, "graders");
  const graderFiles = existsSync(gradersDir) && statSync(gradersDir).isDirectory() ? readdirSync(gradersDir).filter((f) => f.endsWith(".md")).sort() : [];
  if (prompt === undefined && graderFiles.length === 0) return undefined;
  if (graderFiles.length > MAX_GRADER_FILES) throw invalid(`graders/ has ${graderFiles.length} .md entries (cap: ${MAX_GRADER_FILES})`, gradersDir);
  const out: { top: Record<string, unknown>; execution: Record<string, unknown>; prompt?: string; graders: Record<string, unknown>[] } = { top: {}, execution: {}, graders: [] };
  if (prompt !== undefined) {
    const { fm, body } = splitFrontmatter(prompt, promptFile);
    if (body.trim()) out.prompt = body.trim();
    for (const [key, value] of Object.entries(fm)) {
      if (TOP_KEYS.includes(key)) out.top[key] = value;
      else if (EXECUTION_KEYS.includes(key)) out.execution[key] = value;
      else throw invalid(`prompt.md: unknown frontmatter key "${key}" (expected one of: ${[...TOP_KEYS, ...EXECUTION_KEYS].join(", ")})`, promptFile);
    }
  }
  for (const name of graderFiles) {
    const file = join(gradersDir, name);
    const { fm, body, hadFrontmatter } = splitFrontmatter(readMd(file) ?? "", file);
    if (!hadFrontmatter) continue;
    if (typeof fm.type !== "string") throw invalid(`${relative(dir, file)}: frontmatter must include "type:" (regex | tool_order | tool_used | file_exists | llm | baseline)`, file);
    const grader: Record<string, unknown> = { name: basename(name, ".md"), ...fm };
    const field = BODY_FIELD[fm.type];
    if (field && grader[field] === undefined && body.trim().length > 0) grader[field] = body.trim();
    out.graders.push(grader);
  }
  return out;
}

/** Read one case directory (case.yaml and/or prompt.md + graders/), validated with its defaults filled in. */
export function readCase(dir: string, suiteRoot: string): SuiteCase {
  const yamlFile = join(dir, "case.yaml");
  let base: Record<string, unknown> | undefined;
  if (existsSync(yamlFile)) {
    let raw: unknown;
    try {
      raw = parseYaml(readFileSync(yamlFile, "utf8"));
    } catch (error) {
      throw invalid(`${relative(suiteRoot, yamlFile)}: invalid YAML: ${(error as Error).message}`, yamlFile);
    }
    const checked = validateRaw(raw, yamlFile, suiteRoot);
    base = checked;
  }
  const prose = readProse(dir);
  if (!base && !prose) throw invalid(`${relative(suiteRoot, dir) || "."} has no case.yaml and no prompt.md or graders/*.md`, dir);
  const seed: Record<string, unknown> = base ?? { schema_version: DEFAULT_SCHEMA_VERSION, name: basename(dir) };
  const merged: Record<string, unknown> = { ...seed, ...(prose?.top ?? {}) };
  if (prose) {
    const baseExec = isPlainObject(seed.execution) ? seed.execution : {};
    const a = baseExec.disallowed_tools;
    const b = prose.execution.disallowed_tools;
    merged.execution = {
      ...baseExec,
      ...prose.execution,
      ...(a !== undefined || b !== undefined ? { disallowed_tools: Array.isArray(a) && Array.isArray(b) ? [...a, ...b] : (b ?? a) } : {}),
      ...(prose.prompt !== undefined ? { prompt: prose.prompt } : {}),
    };
    if (prose.graders.length > 0) merged.graders = [...(Array.isArray(seed.graders) ? seed.graders : []), ...prose.graders];
  } else if (merged.execution === undefined) merged.execution = {};
  const result = validateCase(merged);
  if (!result.ok) throw invalid(`${relative(suiteRoot, dir) || basename(dir)}: ${result.error}`, dir);
  return { case: result.case, dir, relDir: relative(dirname(suiteRoot), dir), source: base ? "yaml" : "prose" };
}

/** case.yaml as parsed: an object (its own validation runs on the merged case). */
function validateRaw(raw: unknown, file: string, suiteRoot: string): Record<string, unknown> {
  if (!isPlainObject(raw)) throw invalid(`${relative(suiteRoot, file)}: case.yaml must be a YAML object`, file);
  return raw;
}

const isCaseDir = (dir: string) => existsSync(join(dir, "case.yaml")) || existsSync(join(dir, "prompt.md")) || existsSync(join(dir, "graders"));

function findCaseDirs(dir: string, depth: number, out: string[]): void {
  if (depth > 8) return;
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (!entry.isDirectory() || entry.name.startsWith(".") || NOT_CASES.has(entry.name)) continue;
    const sub = join(dir, entry.name);
    if (isCaseDir(sub)) out.push(sub);
    else findCaseDirs(sub, depth + 1, out);
  }
}

/** Whether a directory is a `claude plugin eval` suite (an eval dir with at least one case dir). */
export function isPluginEvalSuite(dir: string): boolean {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return false;
  const found: string[] = [];
  findCaseDirs(resolve(dir), 0, found);
  return found.length > 0;
}

/** Read a suite: every case under `dir`, sorted by path. Throws ConfigError SUITE_INVALID naming the case. */
export function readPluginEvalSuite(dir: string): PluginEvalSuite {
  const root = resolve(dir);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw invalid(`${dir} is not a directory`, dir, "pass the eval dir, e.g. evals/ (a directory of case directories)");
  const dirs: string[] = [];
  findCaseDirs(root, 0, dirs);
  if (dirs.length === 0) throw invalid(`${dir} holds no cases (no <case>/case.yaml or <case>/prompt.md)`, dir, "claude plugin eval init --bare NAME writes a first case");
  const cases = dirs.map((d) => readCase(d, root));
  const names = new Map<string, string>();
  for (const c of cases) {
    const seen = names.get(c.case.name);
    if (seen) throw invalid(`two cases are named ${JSON.stringify(c.case.name)} (${seen} and ${c.relDir}): names key the results`, c.dir);
    names.set(c.case.name, c.relDir);
  }
  const parent = dirname(root);
  const pluginDir = existsSync(join(parent, ".claude-plugin", "plugin.json")) ? parent : undefined;
  return { root, ...(pluginDir ? { pluginDir } : {}), cases };
}
