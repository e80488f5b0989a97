/**
 * `proctor export claude-plugin-eval EVAL_FILES… -o EVAL_DIR`: each eval a case directory with its
 * case.yaml and its mock script (proctor.script.json), a suite `claude plugin eval` runs.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { stringify } from "yaml";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { evalFileOf, loadEvalFiles } from "../../src/eval/load.js";
import { allowScriptTools, exportEval } from "../../src/plugin-eval/export.js";
import { readPluginEvalSuite } from "../../src/plugin-eval/read.js";

export async function exportPluginEvalSuite(files: readonly string[], outDir: string): Promise<number> {
  const loaded = await loadEvalFiles(files);
  const { loadScript } = await import("../../mock-model/script/schema.js");
  const fileOf = evalFileOf(loaded);
  const cases = loaded.flatMap((l) => l.evals.map((e) => ({ exported: exportEval(e), evalDir: dirname(fileOf.get(e) ?? l.file) })));
  const dirs = new Set<string>();
  for (const { exported } of cases) {
    if (dirs.has(exported.dir)) throw new InvalidInputError("INVALID_INPUT", `two evals become the case directory ${exported.dir}: rename one`);
    dirs.add(exported.dir);
    if (existsSync(join(outDir, exported.dir, "case.yaml"))) throw new InvalidInputError("INVALID_INPUT", `${join(outDir, exported.dir, "case.yaml")} exists; export into an empty directory (nothing was written)`);
  }
  const grants = new Set<string>();
  for (const { exported, evalDir } of cases) {
    const dir = join(outDir, exported.dir);
    mkdirSync(dir, { recursive: true });
    const script = exported.script === undefined ? undefined : typeof exported.script === "string" ? loadScript(resolve(evalDir, exported.script)) : exported.script;
    // The tools the case's own script calls are allowed (an inline script's already are).
    const allowed = script ? allowScriptTools(exported.caseYaml, script) : undefined;
    for (const t of allowed?.gated ?? []) grants.add(t);
    const notes = [...exported.notExported, ...(allowed?.note && typeof exported.script === "string" ? [allowed.note] : [])];
    writeFileSync(join(dir, "case.yaml"), `# Written by \`proctor export claude-plugin-eval\`.\n${stringify(allowed?.caseYaml ?? exported.caseYaml, { lineWidth: 0 })}`);
    if (script !== undefined) {
      const text = JSON.stringify(
        script,
        (key, value: unknown) => {
          if (typeof value === "function" || value instanceof RegExp) throw new InvalidInputError("INVALID_INPUT", `eval ${JSON.stringify(exported.caseYaml.name)}: its script holds a ${typeof value === "function" ? "function" : "RegExp"} (at ${key}), which a script file cannot`, { hint: "give that eval a data-only script to export it" });
          return value;
        },
        2,
      );
      writeFileSync(join(dir, "proctor.script.json"), `${text}\n`);
    }
    for (const line of notes) process.stderr.write(`${exported.caseYaml.name}: not exported: ${line}\n`);
  }
  // What was written must read back as claude reads it.
  readPluginEvalSuite(outDir);
  const grant = grants.size ? ` --allow-tools ${[...grants].sort().join(" ")}` : "";
  process.stdout.write(`wrote ${cases.length} case(s) to ${outDir}: run them with claude plugin eval PLUGIN_DIR${grant} (the suite in its evals/), or proctor run ${outDir}${grant}\n`);
  return 0;
}
