/**
 * Policy files: a Progent policy written as JSON or YAML, for `proctor gate --policy FILE`.
 * Rules match a tool glob and, in place of a JS predicate, an ArgMatcher over the call's
 * arguments and/or facts about the tool. Tool facts come from the dialect, overridable per tool.
 *
 * Validated by hand rather than with ajv: the gate loads this on every tool call, and ajv costs
 * ~85 ms per process to import and compile. Every problem is reported with the path of its field.
 */
import { requireString } from "../errors/arguments.js";
import { ConfigError, ProctorError } from "../errors/proctor-error.js";
import { parseDataText, readDataFile } from "../io/read-data-file.js";
import { isPlainObject, matchArgs, type ArgMatcher } from "../match/arg-match.js";
import { isRegexJSON } from "../match/codec.js";
import { regexFromData } from "../match/linear-regexp.js";
import { claudeCodeDialect, codexDialect, type HarnessDialect } from "../effects/dialect.js";
import { toolCallFacts, type ToolFactOverride } from "./tool-facts.js";
import type { PolicySideEffectClass, ToolArgumentPolicy, ToolArgumentRule, ToolCallFacts, ToolRuleEffect } from "./tool-argument-policy.js";
import { ownEntry } from "../util/narrow.js";

/** A loaded policy file: the compiled policy and the facts it decides over. */
export interface PolicyFile {
  /** Where it came from (a path, or the name given to `parsePolicy`). */
  readonly source: string;
  readonly dialect: HarnessDialect;
  readonly policy: ToolArgumentPolicy;
  readonly tools: Readonly<Record<string, ToolFactOverride>>;
  /** The facts of one call under this file's dialect and overrides. */
  factsFor(toolName: string, args: unknown): ToolCallFacts;
}

const EFFECTS: readonly ToolRuleEffect[] = ["allow", "deny", "ask", "defer", "forbid"];
const CLASSES: readonly PolicySideEffectClass[] = ["pure", "read-only", "side-effecting", "external-stateful"];
const DIALECTS: Record<string, HarnessDialect> = { "claude-code": claudeCodeDialect, codex: codexDialect };

const show = (v: unknown) => (v === undefined ? "nothing" : JSON.stringify(v));

class Problems {
  readonly list: string[] = [];
  add(path: string, problem: string, value: unknown): void {
    this.list.push(`${path}: ${problem}; got ${show(value)}`);
  }
  unknownKeys(path: string, value: Record<string, unknown>, known: readonly string[]): void {
    for (const key of Object.keys(value)) if (!known.includes(key)) this.add(`${path}${path ? "." : ""}${key}`, `is not a field here (fields: ${known.join(", ")})`, value[key]);
  }
}

/** JSON → ArgMatcher: `{"$regex","$flags"}` becomes a linear-time RegExp (RE2); other leaves must be JSON scalars, arrays or objects. */
function readMatcher(value: unknown, path: string, problems: Problems): unknown {
  if (isRegexJSON(value)) {
    try {
      return regexFromData(value.$regex, value.$flags ?? "");
    } catch (error) {
      problems.add(path, `is not a valid regular expression (${error instanceof ProctorError ? error.shortMessage : (error as Error).message})`, value);
      return undefined;
    }
  }
  if (value === null || ["string", "number", "boolean"].includes(typeof value)) return value;
  if (Array.isArray(value)) return value.map((v, i) => readMatcher(v, `${path}[${i}]`, problems));
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, readMatcher(v, `${path}.${k}`, problems)]));
  problems.add(path, "must be a string, number, boolean, null, array, object or {\"$regex\": …}", value);
  return undefined;
}

function readOverride(value: unknown, path: string, problems: Problems): ToolFactOverride {
  if (!isPlainObject(value)) {
    problems.add(path, "must be an object like { sensitive: true }", value);
    return {};
  }
  problems.unknownKeys(path, value, ["sideEffectClass", "sensitive", "untrustedSource"]);
  const out: { -readonly [K in keyof ToolFactOverride]: ToolFactOverride[K] } = {};
  if (value.sideEffectClass !== undefined) {
    if (CLASSES.includes(value.sideEffectClass as PolicySideEffectClass)) out.sideEffectClass = value.sideEffectClass as PolicySideEffectClass;
    else problems.add(`${path}.sideEffectClass`, `must be one of ${CLASSES.join(", ")}`, value.sideEffectClass);
  }
  for (const key of ["sensitive", "untrustedSource"] as const) {
    if (value[key] === undefined) continue;
    if (typeof value[key] === "boolean") out[key] = value[key] as boolean;
    else problems.add(`${path}.${key}`, "must be true or false", value[key]);
  }
  return out;
}

/** A `when` block: conditions on the call's facts, all of which must hold. */
function readWhen(value: unknown, path: string, problems: Problems): ((facts: ToolCallFacts) => boolean) | undefined {
  if (!isPlainObject(value)) {
    problems.add(path, "must be an object like { sideEffectClass: external-stateful }", value);
    return undefined;
  }
  problems.unknownKeys(path, value, ["sideEffectClass", "sensitive", "untrustedSource"]);
  const classes = value.sideEffectClass === undefined ? undefined : Array.isArray(value.sideEffectClass) ? value.sideEffectClass : [value.sideEffectClass];
  classes?.forEach((c, i) => {
    if (!CLASSES.includes(c as PolicySideEffectClass)) problems.add(`${path}.sideEffectClass${Array.isArray(value.sideEffectClass) ? `[${i}]` : ""}`, `must be one of ${CLASSES.join(", ")}`, c);
  });
  for (const key of ["sensitive", "untrustedSource"] as const) {
    if (value[key] !== undefined && typeof value[key] !== "boolean") problems.add(`${path}.${key}`, "must be true or false", value[key]);
  }
  return (facts) =>
    (classes === undefined || classes.includes(facts.sideEffectClass)) &&
    (value.sensitive === undefined || (facts.sensitive === true) === value.sensitive) &&
    (value.untrustedSource === undefined || (facts.untrustedSource === true) === value.untrustedSource);
}

function readRule(value: unknown, path: string, problems: Problems): ToolArgumentRule | undefined {
  if (!isPlainObject(value)) {
    problems.add(path, 'must be an object like { tool: "Bash", effect: "deny", args: { command: { $regex: "rm -rf" } } }', value);
    return undefined;
  }
  problems.unknownKeys(path, value, ["tool", "effect", "reason", "args", "when"]);
  const { tool, effect, reason } = value;
  if (typeof tool !== "string" || tool.trim() === "") problems.add(`${path}.tool`, 'must be a tool name, "*", or a prefix glob like "mcp__github__*"', tool);
  else if (tool.slice(0, -1).includes("*")) problems.add(`${path}.tool`, 'may use "*" only at the end', tool);
  if (!EFFECTS.includes(effect as ToolRuleEffect)) problems.add(`${path}.effect`, `must be one of ${EFFECTS.join(", ")}`, effect);
  if (reason !== undefined && typeof reason !== "string") problems.add(`${path}.reason`, "must be a string", reason);
  let args: ArgMatcher | undefined;
  if (value.args !== undefined) {
    if (!isPlainObject(value.args)) problems.add(`${path}.args`, "must be an object of argument → expected value", value.args);
    else args = readMatcher(value.args, `${path}.args`, problems) as ArgMatcher;
  }
  const facts = value.when === undefined ? undefined : readWhen(value.when, `${path}.when`, problems);
  const when =
    args || facts ? (f: ToolCallFacts) => (facts === undefined || facts(f)) && (args === undefined || matchArgs(f.args ?? {}, args)) : undefined;
  return {
    tool: String(tool),
    effect: effect as ToolRuleEffect,
    ...(typeof reason === "string" ? { reason } : {}),
    ...(when ? { when } : {}),
  };
}

/**
 * Build a policy from its parsed JSON/YAML form. Throws a POLICY_INVALID ProctorError listing
 * every bad field by path (`rules[2].effect: must be one of …`).
 */
export function parsePolicy(value: unknown, source = "policy"): PolicyFile {
  const problems = new Problems();
  if (!isPlainObject(value)) {
    throw new ConfigError("POLICY_INVALID", `${source}: a policy must be an object with a "rules" array; got ${show(value)}`);
  }
  problems.unknownKeys("", value, ["$schema", "dialect", "defaultDenySensitive", "rules", "tools"]);
  let dialect = claudeCodeDialect;
  if (value.dialect !== undefined) {
    const named = typeof value.dialect === "string" ? ownEntry(DIALECTS, value.dialect) : undefined;
    if (named) dialect = named;
    else problems.add("dialect", `must be one of ${Object.keys(DIALECTS).join(", ")}`, value.dialect);
  }
  if (value.defaultDenySensitive !== undefined && typeof value.defaultDenySensitive !== "boolean") {
    problems.add("defaultDenySensitive", "must be true or false", value.defaultDenySensitive);
  }
  const rules: ToolArgumentRule[] = [];
  if (value.rules !== undefined && !Array.isArray(value.rules)) problems.add("rules", "must be an array of rules", value.rules);
  else (value.rules ?? []).forEach((r: unknown, i: number) => {
    const rule = readRule(r, `rules[${i}]`, problems);
    if (rule) rules.push(rule);
  });
  // No prototype: a tool named `__proto__` is an entry like any other, not the object's prototype.
  const tools: Record<string, ToolFactOverride> = Object.create(null) as Record<string, ToolFactOverride>;
  if (value.tools !== undefined) {
    if (!isPlainObject(value.tools)) problems.add("tools", "must be an object of tool name → facts", value.tools);
    else for (const [name, o] of Object.entries(value.tools)) tools[name] = readOverride(o, `tools.${name}`, problems);
  }
  if (problems.list.length > 0) {
    throw new ConfigError("POLICY_INVALID", `${source}: ${problems.list.length} problem${problems.list.length === 1 ? "" : "s"} in the policy\n  ${problems.list.join("\n  ")}`);
  }
  const policy: ToolArgumentPolicy = { rules, defaultDenySensitive: value.defaultDenySensitive === true };
  return { source, dialect, policy, tools, factsFor: (toolName, args) => toolCallFacts(toolName, args, dialect, tools) };
}

/** Parse policy text: JSON when it looks like JSON (or `format` says so), else YAML (loaded only then). */
export async function parsePolicyText(text: string, source = "policy", format?: "json" | "yaml"): Promise<PolicyFile> {
  requireString("parsePolicyText", "text", text, "the policy text (JSON or YAML)");
  return parsePolicy(parseDataText(text, source, { format: format ?? "auto", code: "POLICY_INVALID" }), source);
}

/** Read and validate a policy file (`.json`, `.yaml` or `.yml`). */
export async function readPolicyFile(path: string): Promise<PolicyFile> {
  return parsePolicy(readDataFile(path, { what: "policy file", code: "POLICY_INVALID" }), path);
}
