/**
 * Loading eval files: `*.eval.mjs` / `.js` with Node's own import, `*.eval.ts` / `.mts` through
 * tsx (Node 20 cannot run TypeScript itself). Every exported eval is collected — the default
 * export, named exports, and arrays of evals.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { extname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { InvalidInputError, isProctorError, restate } from "../errors/proctor-error.js";
import { definedIn, isEvalDefinition, type EvalDefinition } from "./define.js";

/** The evals one file declared. */
export interface LoadedEvalFile {
  readonly file: string;
  readonly evals: readonly EvalDefinition[];
}

const JS = new Set([".mjs", ".js", ".cjs"]);
const TS = new Set([".ts", ".mts", ".cts"]);
const EVAL_FILE = /\.eval\.(m?[jt]s|c[jt]s)$/;

/** `*.eval.{ts,mts,mjs,js}` files directly under `dir`, sorted (for `proctor run DIR`). */
export function findEvalFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => EVAL_FILE.test(f))
    .sort()
    .map((f) => join(dir, f));
}

async function importTypeScript(file: string): Promise<Record<string, unknown>> {
  let api: { tsImport: (specifier: string, parentURL: string) => Promise<Record<string, unknown>> };
  try {
    api = (await import("tsx/esm/api")) as typeof api;
  } catch (error) {
    throw new InvalidInputError("INVALID_INPUT", `${file} is TypeScript, and loading it needs tsx, which is not installed`, {
      detail: "  npm install -D tsx   (or write the eval file as .mjs)",
      cause: error,
    });
  }
  return api.tsImport(pathToFileURL(file).href, import.meta.url);
}

/** The evals a module exports (default, named, arrays), each once. */
export function evalsOfModule(module: Record<string, unknown>): EvalDefinition[] {
  const found: EvalDefinition[] = [];
  const take = (value: unknown) => {
    if (isEvalDefinition(value) && !found.includes(value)) found.push(value);
    else if (Array.isArray(value)) value.forEach(take);
  };
  // A TypeScript file compiled to CommonJS (tsx in a project without "type": "module") arrives as
  // `{ default: module.exports }`: its own `export default` is then `default.default`.
  const inner = module.default;
  if (typeof inner === "object" && inner !== null && !Array.isArray(inner) && !isEvalDefinition(inner)) {
    for (const value of Object.values(inner as Record<string, unknown>)) take(value);
  }
  take(module.default);
  for (const [key, value] of Object.entries(module)) if (key !== "default") take(value);
  return found;
}

/** Import one eval file and collect its evals; errors name the file. */
export async function loadEvalFile(path: string): Promise<LoadedEvalFile> {
  const file = resolve(path);
  if (!existsSync(file)) throw new InvalidInputError("INVALID_INPUT", `eval file ${path} does not exist`);
  if (statSync(file).isDirectory()) throw new InvalidInputError("INVALID_INPUT", `${path} is a directory; pass eval files (*.eval.ts, *.eval.mjs)`);
  const ext = extname(file);
  if (!JS.has(ext) && !TS.has(ext)) throw new InvalidInputError("INVALID_INPUT", `${path}: an eval file must be .ts, .mts, .mjs or .js; got ${ext || "no extension"}`);
  let module: Record<string, unknown>;
  try {
    module = TS.has(ext) ? await importTypeScript(file) : ((await import(pathToFileURL(file).href)) as Record<string, unknown>);
  } catch (error) {
    if (isProctorError(error)) {
      throw restate(error, `${path}: `);
    }
    throw new InvalidInputError("INVALID_INPUT", `cannot load eval file ${path}: ${(error as Error)?.message ?? String(error)}`, { cause: error });
  }
  const evals = evalsOfModule(module);
  if (evals.length === 0) throw new InvalidInputError("INVALID_INPUT", `${path} declares no evals: export them, e.g. \`export default defineEval({ name, mock, checks })\``);
  return { file, evals };
}

/** Load several eval files (directories are searched for *.eval.* files); eval names must be unique across them. */
export async function loadEvalFiles(paths: readonly string[]): Promise<LoadedEvalFile[]> {
  const files = paths.flatMap((p) => (existsSync(p) && statSync(p).isDirectory() ? findEvalFiles(p) : [p]));
  if (files.length === 0) throw new InvalidInputError("INVALID_INPUT", `no eval files found in ${paths.join(", ")} (looked for *.eval.ts, *.eval.mjs)`);
  const loaded: LoadedEvalFile[] = [];
  const where = new Map<string, string>();
  for (const file of files) {
    const result = await loadEvalFile(file);
    for (const e of result.evals) {
      const seen = where.get(e.name);
      if (seen) throw new InvalidInputError("INVALID_INPUT", `two evals are named ${JSON.stringify(e.name)} (${seen} and ${file}): names key reports and baselines, so they must be unique`);
      where.set(e.name, file);
    }
    loaded.push(result);
  }
  return loaded;
}

/**
 * Each eval's file for its relative paths: the module that declared it (called defineEval), else
 * the eval file that exported it — so an eval re-exported from another module keeps its paths.
 */
export function evalFileOf(loaded: readonly LoadedEvalFile[]): Map<EvalDefinition, string> {
  return new Map(loaded.flatMap((l) => l.evals.map((e) => [e, definedIn(e) ?? l.file] as const)));
}
