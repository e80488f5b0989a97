/** The frontmatter of a skill's SKILL.md or a slash command's .md file, read as Claude Code reads it. */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
/** yaml loads when a frontmatter is read, not when proctor is imported. */
const parseYaml = (text: string): unknown => (require("yaml") as typeof import("yaml")).parse(text);

/** `Read, Grep Bash(git *)` → `["Read", "Grep", "Bash(git *)"]`: split on commas and blanks outside parentheses. */
export function splitAllowedTools(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = "";
  for (const c of text) {
    if (c === "(") depth++;
    if (c === ")") depth = Math.max(0, depth - 1);
    if (depth === 0 && (c === "," || /\s/.test(c))) {
      if (current.trim()) out.push(current.trim());
      current = "";
    } else current += c;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/**
 * The `---` block at the top of `text` as a mapping, `undefined` when there is none, or the
 * problem that stops it being read (invalid YAML, not a mapping).
 */
export function readFrontmatter(text: string): { fields?: Record<string, unknown>; problem?: string } {
  const m = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\s*(?:\r?\n|$)/.exec(text);
  if (!m) return {};
  let front: unknown;
  try {
    front = parseYaml(m[1] ?? "");
  } catch (error) {
    return { problem: `the frontmatter is not valid YAML (${(error as Error).message.split("\n")[0]})` };
  }
  if (front === null || front === undefined) return { fields: {} };
  if (typeof front !== "object" || Array.isArray(front)) return { problem: "the frontmatter must be a mapping of keys to values" };
  return { fields: front as Record<string, unknown> };
}

/**
 * `allowed-tools` as a list of rule strings: a comma- or blank-separated string (`Read, Bash(git add:*)`)
 * or a YAML list (each item may itself hold several); `undefined` when absent; a problem otherwise.
 */
export function readAllowedTools(fields: Record<string, unknown>): { rules?: string[]; problem?: string } {
  const raw = fields["allowed-tools"];
  if (raw === undefined || raw === null) return {};
  if (typeof raw === "string") return { rules: splitAllowedTools(raw) };
  if (Array.isArray(raw) && raw.every((t) => typeof t === "string")) return { rules: raw.flatMap((t: string) => splitAllowedTools(t)) };
  return { problem: `allowed-tools must be a string ("Read, Grep") or a list of rules; got ${JSON.stringify(raw)}` };
}
