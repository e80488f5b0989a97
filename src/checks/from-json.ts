/**
 * Checks are data both ways: `checkFromJSON` rebuilds any serialisable check from its JSON form,
 * rejecting unknown kinds, unknown fields and bad values with the path of the bad field.
 */
import type { Trace } from "../trace/types.js";
import { InvalidInputError, isProctorError } from "../errors/proctor-error.js";
import { isPlainObject } from "../match/arg-match.js";
import { isRegexJSON } from "../match/codec.js";
import { regexFromData } from "../match/linear-regexp.js";
import { defineTraceCheck, type Check, type CheckJSON } from "./check.js";
import { InvalidCheckError, describeValue, requireName, requireNames } from "./validate.js";
import { mcp, notTool, onlyTools, tool, toolCount, toolWith } from "./tools.js";
import { denied } from "./denied.js";
import { eachReply, replyCount, output, received, turns } from "./text.js";
import { hookFired, skill } from "./run.js";
import { deleted, didNotWrite, wrote, wroteOnly } from "./files.js";
import { subagent } from "./subagent.js";
import { cacheTokens, cost, inputTokens, latency, outputTokens, tokens } from "./resources.js";
import { judged } from "./judged.js";
import { trajectory, type TrajectoryOptions } from "./trajectory.js";
import { allowed, blocked } from "./hook-result.js";
import { advertised } from "./advertised.js";
import { replayMatches } from "./replay.js";
import { toolStatus } from "./tool-status.js";
import { VOCABULARY_BUILDERS } from "./from-json-vocabulary.js";
import { requirePurity } from "./purity-level.js";
import { loadSafetyChecks, loadedSafetyChecks, type SafetyFactories } from "./safety-loader.js";

/** Reads one check's fields, tracking which were used so unknown ones are refused. */
export class FieldReader {
  private readonly used = new Set<string>(["kind"]);
  constructor(
    readonly json: Record<string, unknown>,
    readonly kind: string,
    readonly path: string,
  ) {}

  raw(field: string): unknown {
    return decode(this.undecoded(field));
  }
  /** The field as it is in the JSON (nested checks decode themselves). */
  undecoded(field: string): unknown {
    this.used.add(field);
    return this.json[field];
  }
  string(field: string): string {
    const v = this.raw(field);
    if (typeof v !== "string") throw new InvalidCheckError(this.kind, field, "must be a string", v);
    return v;
  }
  optional<T>(field: string, read: (f: string) => T): T | undefined {
    if (this.json[field] !== undefined) return read.call(this, field);
    this.used.add(field);
    return undefined;
  }
  text(field: string): string | RegExp {
    const v = this.raw(field);
    if (typeof v !== "string" && !(v instanceof RegExp)) throw new InvalidCheckError(this.kind, field, 'must be a string or {"$regex": …}', v);
    return v;
  }
  number(field: string): number {
    const v = this.raw(field);
    if (typeof v !== "number") throw new InvalidCheckError(this.kind, field, "must be a number", v);
    return v;
  }
  strings(field: string): string[] {
    const v = this.raw(field);
    if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) throw new InvalidCheckError(this.kind, field, "must be an array of strings", v);
    return v as string[];
  }
  /** Refuse fields the kind does not have. */
  done(): void {
    const extra = Object.keys(this.json).find((k) => !this.used.has(k));
    if (extra !== undefined) {
      throw new InvalidCheckError(this.kind, extra, `is not a field of ${this.kind} (fields: ${[...this.used].filter((k) => k !== "kind").join(", ") || "none"})`, this.json[extra]);
    }
  }
}

/** JSON → values: `{"$regex","$flags"}` back to a (linear-time) RegExp, recursively. */
function decode(value: unknown): unknown {
  if (isRegexJSON(value)) {
    try {
      return regexFromData(value.$regex, value.$flags ?? "");
    } catch (error) {
      throw new InvalidCheckError("INVALID_CHECK", `bad RegExp ${JSON.stringify(value)}: ${isProctorError(error) ? error.shortMessage : (error as Error).message}`, { cause: error });
    }
  }
  if (Array.isArray(value)) return value.map(decode);
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decode(v)]));
  return value;
}

export type Builder = (r: FieldReader, path: string) => Check<never>;

/**
 * The safety kinds, read without the safety layer. `purity`, `lethalTrifecta` and the skill
 * contracts reach the shell classifier and the effect classes — the largest part of proctor's
 * code — which `import("proctor")` must not pay for when no such check runs. So `checkFromJSON`
 * validates their fields here, synchronously, in the order and with the errors of the factories
 * themselves (a test holds the two equal), and hands out a check whose `prepare` loads the
 * safety layer and which then evaluates as the factory's check does. `evaluateChecks`, `measure`,
 * the CLI and the vitest plugin load it before they evaluate; a synchronous `evalChecks`/`expect`
 * before anything has loaded it is refused (`lazySafetyCheck`), never answered.
 */
interface SafetyRead {
  /** The factory's parameters, as its check records them (same JSON, same label). */
  readonly params: Record<string, unknown>;
  readonly label?: string;
  /** The factory's check, from the loaded safety layer. */
  readonly build: (factories: SafetyFactories) => Check<Trace>;
}

const SAFETY_KINDS: Record<string, (r: FieldReader) => SafetyRead> = {
  purity: (r) => {
    const level = r.string("level");
    requirePurity("purity", "level", level);
    return { params: { level }, build: (f) => f.purity(level) };
  },
  lethalTrifecta: (r) => {
    const tools = r.optional("tools", r.strings);
    if (tools !== undefined) requireNames("lethalTrifecta", "tools", tools);
    return { params: { tools: tools ? [...tools] : undefined }, build: (f) => f.lethalTrifecta(tools) };
  },
  skillTools: (r) => {
    const skill = r.string("skill");
    const allowed = r.strings("allowed");
    requireName("skillTools", "skill", skill);
    requireNames("skillTools", "allowed", allowed);
    return { params: { skill, allowed: [...allowed] }, build: (f) => f.skillTools(skill, allowed) };
  },
  skillPurity: (r) => {
    const skill = r.string("skill");
    const level = r.string("level");
    requireName("skillPurity", "skill", skill);
    requirePurity("skillPurity", "level", level);
    return { params: { skill, level }, build: (f) => f.skillPurity(skill, level) };
  },
  skillContract: (r) => {
    const skill = r.string("skill");
    const problem = r.string("problem");
    requireName("skillContract", "skill", skill);
    requireName("skillContract", "problem", problem);
    return { params: { skill, problem }, label: `skillContract(${skill})`, build: (f) => f.skillContractProblem(skill, problem) };
  },
};

/**
 * A safety check rebuilt from JSON: the factory's JSON and label now, the factory's check (and so
 * its verdicts) once the safety layer has loaded. Unloaded, evaluating throws
 * `SHELL_PARSER_NOT_LOADED` — the code async callers already answer by loading what shell
 * classification needs (`evaluateChecks` loads the parser and this layer, then evaluates again).
 */
function lazySafetyCheck(kind: string, { params, label, build }: SafetyRead): Check<Trace> {
  let real: Check<Trace> | undefined;
  const check = defineTraceCheck(
    kind,
    params,
    (trace) => {
      if (real === undefined) {
        const factories = loadedSafetyChecks();
        if (factories === undefined) {
          throw new InvalidInputError("SHELL_PARSER_NOT_LOADED", `${check.label} was rebuilt from JSON, and its code (the safety layer: shell classifier, effect classes) loads on first use, which has not happened yet`, {
            hint: "evaluate it with `await evaluateChecks(trace, checks)` (measure, proctor check and the vitest plugin do this for you), or build it in code with the factory from proctor/safety and `await loadShellParser()` first",
          });
        }
        real = build(factories);
      }
      return real.eval(trace);
    },
    { ...(label !== undefined ? { label } : {}), prepare: () => loadSafetyChecks() },
  );
  return check;
}

const bounds = (r: FieldReader) => ({ min: r.optional("min", r.number), max: r.optional("max", r.number) });

/** Every kind `checkFromJSON` can rebuild. Extend with `registerCheckKind`. */
const BUILDERS = new Map<string, Builder>([
  ["tool", (r) => tool(r.string("name"))],
  ["toolWith", (r) => toolWith(r.string("name"), r.raw("args") as never)],
  ["notTool", (r) => notTool(r.string("name"), r.optional("args", r.raw) as never)],
  ["onlyTools", (r) => onlyTools(r.strings("allowed"))],
  ["toolCount", (r) => toolCount(r.string("name"), bounds(r))],
  ["denied", (r) => denied(r.string("name"), r.optional("args", r.raw) as never, { by: r.optional("by", r.raw) as never })],
  ["mcp", (r) => mcp(r.string("server"), r.string("toolName"))],
  ["skill", (r) => skill(r.string("id"))],
  ["output", (r) => output(r.text("matcher"))],
  ["eachReply", (r) => eachReply(r.text("matcher"))],
  ["replyCount", (r) => replyCount(r.text("matcher"), bounds(r))],
  ["received", (r) => received(r.text("matcher"), { from: r.optional("from", r.string) as "outside" | "anywhere" | undefined })],
  ["hookFired", (r) => hookFired(r.string("event"))],
  ["turns", (r) => turns(bounds(r))],
  ["wrote", (r) => wrote(r.string("path"))],
  ["didNotWrite", (r) => didNotWrite(r.string("path"))],
  ["deleted", (r) => deleted(r.string("path"))],
  ["wroteOnly", (r) => wroteOnly(r.strings("paths"))],
  [
    "subagent",
    (r, path) => {
      const name = r.string("name");
      const nested = r.undecoded("checks");
      if (!Array.isArray(nested)) throw new InvalidCheckError("subagent", "checks", "must be an array of checks", nested);
      return subagent(name, nested.map((c, i) => checkFromJSON(c, `${path}.checks[${i}]`) as Check<Trace>));
    },
  ],
  ["cost", (r) => cost({ maxUsd: r.number("maxUsd") })],
  ["latency", (r) => latency({ maxMs: r.number("maxMs") })],
  ["tokens", (r) => tokens({ max: r.number("max") })],
  ["inputTokens", (r) => inputTokens({ max: r.number("max") })],
  ["outputTokens", (r) => outputTokens({ max: r.number("max") })],
  ["cacheTokens", (r) => cacheTokens({ maxCreation: r.optional("maxCreation", r.number), maxRead: r.optional("maxRead", r.number) })],
  [
    "judged",
    (r) => {
      if (r.json.judge !== undefined) {
        throw new InvalidCheckError("INVALID_CHECK", "judged with a custom judge cannot be rebuilt from JSON: the judge function does not travel; build it in code with judged(rubric, { judge })");
      }
      return judged(r.string("rubric"), { min: r.optional("min", r.number) });
    },
  ],
  [
    "trajectory",
    (r) =>
      trajectory(r.raw("expected") as never, {
        mode: r.optional("mode", r.string),
        args: r.optional("args", r.string),
        toolArgs: r.optional("toolArgs", r.raw),
      } as TrajectoryOptions),
  ],
  ["blocked", () => blocked()],
  ["allowed", () => allowed()],
  ["advertised", (r) => advertised(r.string("name"))],
  ["replayMatches", (r) => replayMatches({ ignore: (r.optional("ignore", r.strings) ?? []) as never })],
  ["toolStatus", (r) => toolStatus(r.string("name"), r.string("status") as never)],
  ...VOCABULARY_BUILDERS,
  ...Object.entries(SAFETY_KINDS).map(([kind, read]): [string, Builder] => [kind, (r) => lazySafetyCheck(kind, read(r))]),
]);

/** Teach `checkFromJSON` a new kind (e.g. a plugin's own checks). */
export function registerCheckKind(kind: string, build: (json: CheckJSON) => Check<never>): void {
  requireName("registerCheckKind", "kind", kind);
  if (typeof build !== "function") throw new InvalidCheckError(kind, "build", "must be a function (json) => Check", build);
  BUILDERS.set(kind, (r) => {
    const check = build(r.json as CheckJSON);
    for (const key of Object.keys(r.json)) r.undecoded(key);
    return check;
  });
}

/** The kinds `checkFromJSON` knows, sorted. */
export function knownCheckKinds(): string[] {
  return [...BUILDERS.keys()].sort();
}

/**
 * Rebuild a check from its JSON form. Throws a ProctorError naming `path` and the bad field for
 * unknown kinds, unknown fields, bad values, and checks that hold a function.
 */
export function checkFromJSON<T = Trace>(json: unknown, path = "check"): Check<T> {
  if (!isPlainObject(json)) throw new InvalidCheckError("INVALID_CHECK", `${path}: a check must be an object like {"kind": "tool", "name": "Bash"}; got ${describeValue(json)}`);
  const kind = json.kind;
  if (typeof kind !== "string") throw new InvalidCheckError("INVALID_CHECK", `${path}.kind: must be a string naming the check; got ${describeValue(kind)}`);
  if (json.$custom === true) {
    throw new InvalidCheckError("INVALID_CHECK", `${path}: "${kind}" is a custom check; it holds a function and cannot be rebuilt from JSON — build it in code with custom(kind, fn)`);
  }
  const build = BUILDERS.get(kind);
  if (!build) {
    throw new InvalidCheckError("INVALID_CHECK", `${path}.kind: unknown check kind ${JSON.stringify(kind)}; known kinds: ${knownCheckKinds().join(", ")}`);
  }
  try {
    const reader = new FieldReader(json, kind, path);
    const check = build(reader, path);
    reader.done();
    return check as Check<T>;
  } catch (error) {
    // A nested check's error (subagent's `checks`) already names its full path.
    if (error instanceof InvalidCheckError && error.field.startsWith(`${path}.`)) throw error;
    if (error instanceof InvalidCheckError) {
      throw new InvalidCheckError("INVALID_CHECK", `${path}.${error.field}: ${error.message}`, { cause: error, input: `${path}.${error.field}`, kind: error.kind });
    }
    throw error;
  }
}

/** Rebuild an array of checks; errors name the element (`checks[2].args`). */
export function checksFromJSON<T = Trace>(json: unknown, path = "checks"): Check<T>[] {
  if (!Array.isArray(json)) throw new InvalidCheckError("INVALID_CHECK", `${path}: must be an array of checks; got ${describeValue(json)}`);
  return json.map((c, i) => checkFromJSON<T>(c, `${path}[${i}]`));
}
