/**
 * The checks every agent spec gets before anything spawns: only known fields, a prompt and a
 * script, and the fields all agents share — each failure naming the runner, the field, the bad
 * value and its type.
 */
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { isPlainObject } from "../../src/match/arg-match.js";
import { describeValue } from "../../src/checks/validate.js";

/** A test for one optional field and what it says when the value fails it. */
export type FieldRule = readonly [ok: (value: unknown) => boolean, problem: string];

/** An agent's spec: its runner, what it calls the spec, every field in order, and the rules of its own fields. */
export interface SpecShape {
  readonly runner: string;
  /** As in "is not a field of a harness spec". */
  readonly noun: string;
  /** Every field, in the order they are checked and listed. */
  readonly fields: readonly string[];
  /** Rules for the agent's own fields; the shared ones cover the rest. */
  readonly rules: Readonly<Record<string, FieldRule>>;
}

/** True for an object whose values are all strings. */
export const isStringMap = (v: unknown): boolean => isPlainObject(v) && Object.values(v).every((x) => typeof x === "string");
const nonEmpty = (v: unknown): boolean => typeof v === "string" && v !== "";
const isBoolean = (v: unknown): boolean => typeof v === "boolean";

/** The rules of the fields every agent spec has. */
const SHARED_RULES: Readonly<Record<string, FieldRule>> = {
  files: [isStringMap, "must map relative paths to file contents (strings)"],
  fixture: [nonEmpty, "must be a directory path"],
  mcpConfig: [(v) => typeof v === "string" || (isPlainObject(v) && isPlainObject(v.mcpServers)), 'must be {"mcpServers": {…}} or a config file path'],
  model: [nonEmpty, "must be a model name"],
  args: [(v) => Array.isArray(v) && v.every((x) => typeof x === "string"), "must be an array of strings"],
  env: [isStringMap, "must map variable names to string values"],
  timeoutMs: [(v) => typeof v === "number" && v > 0 && Number.isFinite(v), "must be a positive number of milliseconds"],
  maxRetries: [(v) => Number.isInteger(v) && (v as number) >= 0, "must be a non-negative integer"],
  keep: [isBoolean, "must be a boolean"],
  unsafeEnv: [isBoolean, "must be a boolean"],
  reject: [isBoolean, "must be a boolean"],
  cwd: [nonEmpty, "must be a directory path"],
  signal: [(v) => v instanceof AbortSignal, "must be an AbortSignal"],
};

/** Throw the INVALID_INPUT a bad field gets, so every agent's spec errors read alike. */
export function rejectField(runner: string, field: string, problem: string, value: unknown): never {
  throw new InvalidInputError("INVALID_INPUT", `${runner}: spec.${field} ${problem}; got ${describeValue(value)}`);
}

/** Reject a malformed agent spec, naming the field, the bad value and its type; the first bad field in `fields` order wins. */
export function checkAgentSpec(spec: unknown, shape: SpecShape): asserts spec is Record<string, unknown> {
  const bad: (field: string, problem: string, value: unknown) => never = (field, problem, value) => rejectField(shape.runner, field, problem, value);
  if (!isPlainObject(spec)) bad("", "must be an object like { prompt, script }", spec);
  const known = new Set(shape.fields);
  for (const key of Object.keys(spec)) if (!known.has(key)) bad(key, `is not a field of ${shape.noun} (fields: ${shape.fields.join(", ")})`, spec[key]);
  if (typeof spec.prompt !== "string" || spec.prompt.trim() === "") bad("prompt", "must be a non-empty string", spec.prompt);
  if (typeof spec.script !== "string" && !isPlainObject(spec.script)) bad("script", "must be a Script object or the path of a script file", spec.script);
  for (const field of shape.fields) {
    const rule = shape.rules[field] ?? SHARED_RULES[field];
    if (rule && spec[field] !== undefined && !rule[0](spec[field])) bad(field, rule[1], spec[field]);
  }
  for (const p of Object.keys((spec.files ?? {}) as object)) {
    if (p.startsWith("/") || p.split(/[\\/]/).includes("..")) bad(`files[${JSON.stringify(p)}]`, "must be a path inside the work dir (relative, no ..)", p);
  }
}
