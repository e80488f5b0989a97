/**
 * Validating a case the way claude 2.1.332 does (its schema, its defaults, its messages): a suite
 * that `claude plugin eval` refuses is refused here with the same words, and one it accepts runs.
 */
import type { Grader, GraderTarget, PluginEvalCase, ToolRef } from "./types.js";

/** The newest schema major this reader supports, and what a prose-only case gets. */
export const SCHEMA_MAJOR = 1;
export const DEFAULT_SCHEMA_VERSION = "1.1";
/** The `init` template's placeholders: a case still holding one is refused. */
export const PROMPT_TODO = "TODO: describe what the agent should do";
export const CRITERIA_TODO = "TODO: describe what a successful response looks like";

type Issue = { path: (string | number)[]; message: string };
type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const kindOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v === "number" && Number.isNaN(v) ? "nan" : typeof v);
const quoted = (xs: readonly string[]) => xs.map((x) => `'${x}'`).join(" | ");

/** A tiny validator with the English messages of the schema library claude 2.1.332 validates cases with. */
class Checker {
  readonly issues: Issue[] = [];
  constructor(private readonly root: Obj) {}
  fail(path: (string | number)[], message: string): undefined {
    this.issues.push({ path, message });
    return undefined;
  }
  type(path: (string | number)[], expected: string, value: unknown): undefined {
    return this.fail(path, value === undefined ? "Required" : `Expected ${expected}, received ${kindOf(value)}`);
  }
  at(path: (string | number)[]): unknown {
    let v: unknown = this.root;
    for (const p of path) v = isObj(v) || Array.isArray(v) ? (v as Obj)[p as string] : undefined;
    return v;
  }
  strict(path: (string | number)[], value: Obj, keys: readonly string[]): void {
    const extra = Object.keys(value).filter((k) => !keys.includes(k));
    if (extra.length) this.fail(path, `Unrecognized key(s) in object: ${extra.map((k) => `'${k}'`).join(", ")}`);
  }
  string(path: (string | number)[], value: unknown, opts: { optional?: boolean; min?: number; regex?: [RegExp, string] } = {}): string | undefined {
    if (value === undefined && opts.optional) return undefined;
    if (typeof value !== "string") return this.type(path, "string", value);
    if (opts.min !== undefined && value.length < opts.min) return this.fail(path, `String must contain at least ${opts.min} character(s)`);
    if (opts.regex && !opts.regex[0].test(value)) return this.fail(path, opts.regex[1]);
    return value;
  }
  number(path: (string | number)[], value: unknown, opts: { int?: boolean; positive?: boolean; nonnegative?: boolean; max?: number; def?: number; optional?: boolean }): number | undefined {
    if (value === undefined && opts.def !== undefined) return opts.def;
    if (value === undefined && opts.optional) return undefined;
    if (typeof value !== "number" || Number.isNaN(value)) return this.type(path, "number", value);
    if (opts.int && !Number.isInteger(value)) return this.fail(path, "Expected integer, received float");
    if (opts.positive && !(value > 0)) return this.fail(path, "Number must be greater than 0");
    if (opts.nonnegative && !(value >= 0)) return this.fail(path, "Number must be greater than or equal to 0");
    if (opts.max !== undefined && value > opts.max) return this.fail(path, `Number must be less than or equal to ${opts.max}`);
    return value;
  }
  strings(path: (string | number)[], value: unknown, def?: readonly string[]): readonly string[] | undefined {
    if (value === undefined) return def;
    if (!Array.isArray(value)) return this.type(path, "array", value);
    for (const [i, v] of value.entries()) this.string([...path, i], v);
    return value as string[];
  }
  boolean(path: (string | number)[], value: unknown, def?: boolean): boolean | undefined {
    if (value === undefined) return def;
    return typeof value === "boolean" ? value : this.type(path, "boolean", value);
  }
  record(path: (string | number)[], value: unknown, ok: (v: unknown) => boolean, expected: string): Obj | undefined {
    if (value === undefined) return undefined;
    if (!isObj(value)) return this.type(path, "object", value);
    for (const [k, v] of Object.entries(value)) if (!ok(v)) this.type([...path, k], expected, v);
    return value;
  }
}

const ARM = ["with-only", "both"];
const TARGETS = ["trace", "last_message", "files", "mock_calls"];

function target(c: Checker, path: (string | number)[], value: unknown): GraderTarget | undefined {
  if (value === undefined) return "last_message";
  if (typeof value === "string" && TARGETS.includes(value)) return value as GraderTarget;
  // A union: an object that fails on a missing or mistyped field is "Invalid input"; one with only extra keys names them.
  if (isObj(value) && value.source === "file" && typeof value.path === "string") {
    c.strict(path, value, ["source", "path"]);
    return { source: "file", path: value.path };
  }
  return c.fail(path, "Invalid input");
}

function toolRef(c: Checker, path: (string | number)[], value: unknown): ToolRef | undefined {
  if (typeof value === "string") return { tool: value, input_match: undefined };
  if (!isObj(value) || typeof value.tool !== "string" || (value.input_match !== undefined && typeof value.input_match !== "string")) return c.fail(path, "Invalid input");
  c.strict(path, value, ["tool", "input_match"]);
  return { tool: value.tool, input_match: value.input_match as string | undefined };
}

const GRADER_KEYS: Record<string, readonly string[]> = {
  regex: ["target", "pattern", "flags", "match"],
  tool_order: ["before", "after"],
  tool_used: ["tool", "input_match", "min", "max"],
  file_exists: ["path", "exists"],
  llm: ["criteria", "focus"],
  baseline: ["baseline_file", "criteria"],
};

function grader(c: Checker, path: (string | number)[], g: unknown): Grader | undefined {
  if (!isObj(g)) return c.type(path, "object", g);
  const type = g.type;
  if (typeof type !== "string" || !(type in GRADER_KEYS)) return c.fail([...path, "type"], `Invalid discriminator value. Expected ${quoted(Object.keys(GRADER_KEYS))}`);
  const parsed = graderFields(c, path, g, type);
  c.strict(path, g, ["type", "name", "weight", "arm", ...(GRADER_KEYS[type] ?? [])]);
  return parsed;
}

function graderFields(c: Checker, path: (string | number)[], g: Obj, type: string): Grader | undefined {
  // Fields are checked in the schema's order (name, the type's own, weight, arm), so issues list in the binary's order.
  const name = c.string([...path, "name"], g.name);
  const own = typeFields(c, path, g, type);
  const weight = c.number([...path, "weight"], g.weight, { positive: true, def: 1 });
  let arm: Grader["arm"];
  if (g.arm !== undefined) {
    if (typeof g.arm === "string" && ARM.includes(g.arm)) arm = g.arm as Grader["arm"];
    else c.fail([...path, "arm"], typeof g.arm === "string" ? `Invalid enum value. Expected ${quoted(ARM)}, received '${g.arm}'` : `Expected ${quoted(ARM)}, received ${kindOf(g.arm)}`);
  }
  return { ...own, name: name ?? "", weight: weight ?? 1, ...(arm ? { arm } : {}) } as Grader;
}

type OwnFields = Grader extends infer G ? (G extends Grader ? Omit<G, "name" | "weight" | "arm"> : never) : never;

function typeFields(c: Checker, path: (string | number)[], g: Obj, type: string): OwnFields {
  const p = (k: string) => [...path, k];
  switch (type) {
    case "regex": {
      const t = target(c, p("target"), g.target) ?? "last_message";
      const pattern = c.string(p("pattern"), g.pattern) ?? "";
      const flags = g.flags === undefined ? "" : c.string(p("flags"), g.flags, { regex: [/^[dgimsuvy]*$/, "must be JS RegExp flags (d g i m s u v y)"] });
      const match = g.match === undefined ? "contains" : c.string(p("match"), g.match, { regex: [/^(contains|not_contains|count:\d+)$/, "must be contains | not_contains | count:N"] });
      return { type, target: t, pattern, flags: flags ?? "", match: match ?? "contains" };
    }
    case "tool_order": {
      const before = toolRef(c, p("before"), g.before);
      const after = toolRef(c, p("after"), g.after);
      return { type, before: before ?? { tool: "" }, after: after ?? { tool: "" } };
    }
    case "tool_used":
      return {
        type,
        tool: c.string(p("tool"), g.tool) ?? "",
        input_match: c.string(p("input_match"), g.input_match, { optional: true }),
        min: c.number(p("min"), g.min, { int: true, nonnegative: true, optional: true }),
        max: c.number(p("max"), g.max, { int: true, nonnegative: true, optional: true }),
      };
    case "file_exists":
      return { type, path: c.string(p("path"), g.path) ?? "", exists: c.boolean(p("exists"), g.exists, true) ?? true };
    case "llm":
      return { type, criteria: c.string(p("criteria"), g.criteria) ?? "", focus: target(c, p("focus"), g.focus) ?? "last_message" };
    default:
      return { type: "baseline", baseline_file: c.string(p("baseline_file"), g.baseline_file) ?? "", criteria: c.string(p("criteria"), g.criteria) ?? "" };
  }
}

/** The result of validating a raw case: the case, or the binary's error text. */
export type CaseValidation = { readonly ok: true; readonly case: PluginEvalCase } | { readonly ok: false; readonly error: string };

/** Validate a raw case object (case.yaml merged with prompt.md and graders/*.md). */
export function validateCase(raw: unknown): CaseValidation {
  if (!isObj(raw)) return { ok: false, error: "case.yaml must be a YAML object" };
  const version = raw.schema_version;
  if (typeof version !== "string") return { ok: false, error: 'missing required field schema_version (e.g. "1.0")' };
  const major = Number.parseInt(version.split(".")[0] ?? "", 10);
  if (Number.isNaN(major)) return { ok: false, error: `schema_version "${version}" is not a valid version string` };
  if (major > SCHEMA_MAJOR) return { ok: false, error: `schema_version "${version}" requires a newer Claude Code (this binary supports up to ${SCHEMA_MAJOR}.x)` };
  const c = new Checker(raw);
  // The case, its context and its execution are not strict (unknown keys are dropped); graders and targets are.
  const name = c.string(["name"], raw.name, { min: 1 });
  const description = c.string(["description"], raw.description, { optional: true });
  const tags = c.strings(["tags"], raw.tags, []);
  const plugins = c.strings(["plugins"], raw.plugins);
  let context: PluginEvalCase["context"] = { add_dirs: [] };
  if (raw.context !== undefined) {
    if (!isObj(raw.context)) c.type(["context"], "object", raw.context);
    else {
      context = {
        scaffold_script: c.string(["context", "scaffold_script"], raw.context.scaffold_script, { optional: true }),
        history_file: c.string(["context", "history_file"], raw.context.history_file, { optional: true }),
        add_dirs: c.strings(["context", "add_dirs"], raw.context.add_dirs, []) ?? [],
      };
    }
  }
  const ex = raw.execution;
  let execution: Obj = {};
  if (!isObj(ex)) c.type(["execution"], "object", ex);
  else {
    const e = (k: string) => ["execution", k];
    execution = {
      prompt: c.string(e("prompt"), ex.prompt, { optional: true }),
      max_turns: c.number(e("max_turns"), ex.max_turns, { int: true, positive: true, max: 200, def: 10 }),
      timeout_seconds: c.number(e("timeout_seconds"), ex.timeout_seconds, { int: true, positive: true, max: 3600, def: 300 }),
      model: c.string(e("model"), ex.model, { optional: true }),
      allowed_tools: c.strings(e("allowed_tools"), ex.allowed_tools, []),
      disallowed_tools: c.strings(e("disallowed_tools"), ex.disallowed_tools),
      artifact_publish: c.boolean(e("artifact_publish"), ex.artifact_publish),
      growthbook_overrides: c.record(e("growthbook_overrides"), ex.growthbook_overrides, (v) => ["boolean", "string", "number"].includes(typeof v) || v === null, "boolean | string | number | null"),
      append_system_prompt: c.string(e("append_system_prompt"), ex.append_system_prompt, { optional: true }),
      env: c.record(e("env"), ex.env, (v) => typeof v === "string", "string") ?? {},
    };
  }
  const runs = c.number(["runs"], raw.runs, { int: true, positive: true, max: 50, def: 3 });
  let graders: Grader[] = [];
  if (!Array.isArray(raw.graders)) c.type(["graders"], "array", raw.graders);
  else if (raw.graders.length < 1) c.fail(["graders"], "Array must contain at least 1 element(s)");
  else {
    const before = c.issues.length;
    graders = raw.graders.map((g, i) => grader(c, ["graders", i], g)).filter((g): g is Grader => g !== undefined);
    // Refinements run only on a list whose elements all parsed.
    const seen = new Set<string>();
    for (const g of c.issues.length === before ? graders : []) {
      if (seen.has(g.name)) c.fail(["graders"], `duplicate grader name "${g.name}"`);
      seen.add(g.name);
    }
  }
  const expected_outcome = c.string(["expected_outcome"], raw.expected_outcome, { optional: true });
  if (c.issues.length > 0) return { ok: false, error: `invalid case.yaml:\n${c.issues.map((i) => `  ${i.path.join(".") || "(root)"}: ${i.message}`).join("\n")}` };
  const prompt = execution.prompt as string | undefined;
  if (!prompt?.trim()) return { ok: false, error: context.history_file ? "context.history_file requires execution.prompt (the resumed session needs a next turn)" : "execution.prompt is required (a prompt.md body, or execution.prompt in case.yaml)" };
  if (prompt.includes(PROMPT_TODO)) return { ok: false, error: `the prompt is still the blank \`init\` template — replace the "${PROMPT_TODO}" line with the user prompt to test (in prompt.md, or in execution.prompt if the case is written in case.yaml)` };
  for (const g of graders) {
    const text = "criteria" in g ? g.criteria : "pattern" in g ? g.pattern : "";
    if (text.includes(CRITERIA_TODO)) return { ok: false, error: `grader "${g.name}" is still the blank \`init\` template — replace the "${CRITERIA_TODO}" line with concrete pass criteria` };
  }
  const defined = <T extends Obj>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
  return {
    ok: true,
    case: defined({
      schema_version: version,
      name: name ?? "",
      description,
      tags: tags ?? [],
      plugins,
      context: defined({ ...context }),
      execution: defined(execution) as unknown as PluginEvalCase["execution"],
      runs: runs ?? 3,
      graders: graders.map((g) => defined({ ...g }) as Grader),
      expected_outcome,
    }) as PluginEvalCase,
  };
}

/** Whether a raw value is a plain object (for the reader). */
export { isObj as isPlainObject };
