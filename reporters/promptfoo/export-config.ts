/**
 * `proctor export promptfoo`: proctor evals as a promptfoo config that uses proctor's provider and
 * assertion — the same prompts, scripts, workspaces and checks, for teams that live in promptfoo.
 */
import { isAbsolute, relative, resolve } from "node:path";
import type { EvalDefinition, MockSpec, RealSpec } from "../../src/eval/define.js";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { trialRandom } from "../../src/measure/random.js";
import { requireArray, requireObject } from "../../src/errors/arguments.js";

/** Options of `buildPromptfooConfig`. */
export interface PromptfooExportOptions {
  /** The directory holding provider.mjs and assert.mjs, as the config should reference it (relative to the config, or absolute). */
  readonly modulesDir: string;
  /** The directory the config will be written to: relative spec paths are rewritten relative to it. */
  readonly configDir: string;
  /** Each eval's file (relative spec paths in it are relative to that file's directory). */
  readonly evalDirs: ReadonlyMap<EvalDefinition, string>;
  /** Export the real-API tier instead of the mock one. @default "mock" */
  readonly tier?: "mock" | "real";
}

const PATH_FIELDS = ["fixture", "mcpConfig", "cwd"] as const;

/** Rewrite a spec's relative paths from the eval file's directory to the config's. */
function rebase(spec: Record<string, unknown>, from: string, to: string): Record<string, unknown> {
  const move = (p: string) => (isAbsolute(p) ? p : relative(to, resolve(from, p)) || ".");
  const out: Record<string, unknown> = { ...spec };
  for (const field of PATH_FIELDS) if (typeof out[field] === "string") out[field] = move(out[field] as string);
  if (Array.isArray(out.plugins)) out.plugins = (out.plugins as string[]).map(move);
  if (typeof out.script === "string") out.script = move(out.script);
  return out;
}

/** Refuse what a YAML config cannot carry (function turns, functions anywhere), naming where. */
function requireData(value: unknown, where: string): void {
  if (typeof value === "function") throw new InvalidInputError("INVALID_INPUT", `${where} is a function, which a promptfoo config cannot hold`, { detail: "  export evals whose scripts are data (function turns and custom checks stay in proctor run)" });
  if (Array.isArray(value)) for (const [i, v] of value.entries()) requireData(v, `${where}[${i}]`);
  else if (typeof value === "object" && value !== null && !(value instanceof RegExp)) for (const [k, v] of Object.entries(value)) requireData(v, `${where}.${k}`);
}

/** The promptfoo config (a plain object, ready for YAML) for `definitions`. */
export function buildPromptfooConfig(definitions: readonly EvalDefinition[], options: PromptfooExportOptions): Record<string, unknown> {
  requireArray("buildPromptfooConfig", "definitions", definitions, "a list of eval definitions (from defineEval)");
  requireObject("buildPromptfooConfig", "options", options, "options with modulesDir");
  const tier = options.tier ?? "mock";
  const module = (name: string) => `file://${options.modulesDir.replace(/\/$/, "")}/${name}`;
  const tests: Record<string, unknown>[] = [];
  const skipped: string[] = [];
  for (const definition of definitions) {
    const source = definition[tier] as MockSpec | RealSpec | ((c: unknown) => MockSpec | RealSpec) | undefined;
    if (source === undefined) {
      skipped.push(`${definition.name} (no ${tier} tier)`);
      continue;
    }
    const checks = definition.checks.map((c, i) => {
      const json = c.toJSON();
      if ((json as { $custom?: unknown }).$custom === true) throw new InvalidInputError("INVALID_INPUT", `eval ${JSON.stringify(definition.name)}: checks[${i}] (${c.label}) is a custom check; it holds a function and cannot be exported`);
      return json;
    });
    const assert = [{ type: "javascript", value: module("assert.mjs"), config: { checks } }];
    // A per-trial spec (a stochastic script) becomes one test case per trial, each with that trial's draw.
    const specs = typeof source === "function" ? Array.from({ length: definition.trials }, (_, trial) => source({ trial, seed: definition.seed, random: trialRandom(definition.seed, trial) })) : [source];
    specs.forEach((spec, i) => {
      const where = `eval ${JSON.stringify(definition.name)}${specs.length > 1 ? ` trial ${i}` : ""}`;
      requireData(spec, where);
      const { prompt, ...rest } = spec as MockSpec;
      const harness = { ...rebase(rest as Record<string, unknown>, options.evalDirs.get(definition) ?? options.configDir, options.configDir), tier };
      tests.push({ description: specs.length > 1 ? `${definition.name} #${i}` : definition.name, vars: { task: prompt, harness }, assert });
    });
  }
  if (tests.length === 0) throw new InvalidInputError("INVALID_INPUT", `nothing to export: ${skipped.join(", ")}`);
  return {
    description: `proctor evals: ${definitions.map((d) => d.name).join(", ")}`,
    prompts: ["{{task}}"],
    providers: [{ id: module("provider.mjs"), label: `claude (${tier === "mock" ? "proctor mock model" : "real API"})` }],
    tests,
  };
}
