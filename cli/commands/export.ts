import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { stringify } from "yaml";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { evalFileOf, loadEvalFiles } from "../../src/eval/load.js";
import { buildPromptfooConfig } from "../../reporters/promptfoo/export-config.js";
import { parseCommandArgs } from "../args.js";
import { PROCTOR_ROOT } from "../../src/version.js";
import type { Command } from "../command.js";

const USAGE = "proctor export promptfoo EVAL_FILES… [-o promptfooconfig.yaml] [--real]\n       proctor export claude-plugin-eval EVAL_FILES… [-o EVAL_DIR]   (or --format claude-plugin-eval)";

/** Where this package's promptfoo modules (provider.mjs, assert.mjs) are: beside its package.json, wherever this code was bundled to. */
function promptfooModules(): string {
  if (PROCTOR_ROOT === undefined) {
    throw new InvalidInputError("INVALID_INPUT", "cannot find proctor's own package.json above its code, so not its promptfoo modules either", { hint: "reinstall proctor (npm install proctor); the package ships promptfoo/provider.mjs and promptfoo/assert.mjs beside its package.json" });
  }
  return join(PROCTOR_ROOT, "promptfoo");
}

/**
 * Turn eval files into a promptfoo config that runs the same evals through proctor's provider and
 * assertion (YAML on stdout, or -o FILE). Paths in it are relative to where the config is written.
 */
const exportCommand: Command = async (argv) => {
  const { values, positionals } = parseCommandArgs(argv, { output: { type: "string", short: "o" }, real: { type: "boolean" }, format: { type: "string" } }, USAGE);
  const [format, ...files] = values.format ? [values.format, ...positionals] : positionals;
  if (format === "claude-plugin-eval") {
    if (files.length === 0) throw new InvalidInputError("INVALID_INPUT", `expected eval files\nusage: ${USAGE}`);
    const { exportPluginEvalSuite } = await import("./export-suite.js");
    return exportPluginEvalSuite(files, values.output ?? "evals");
  }
  if (format !== "promptfoo") throw new InvalidInputError("INVALID_INPUT", `proctor export knows two formats, promptfoo and claude-plugin-eval; got ${JSON.stringify(format ?? "nothing")}\nusage: ${USAGE}`);
  if (files.length === 0) throw new InvalidInputError("INVALID_INPUT", `expected eval files\nusage: ${USAGE}`);
  const loaded = await loadEvalFiles(files);
  const configDir = values.output ? dirname(resolve(values.output)) : process.cwd();
  const evalDirs = new Map([...evalFileOf(loaded)].map(([e, file]) => [e, dirname(file)] as const));
  const config = buildPromptfooConfig(
    loaded.flatMap((l) => l.evals),
    { modulesDir: relative(configDir, promptfooModules()) || ".", configDir, evalDirs, tier: values.real ? "real" : "mock" },
  );
  const yaml = `# Written by \`proctor export promptfoo\`. Run: npx promptfoo eval -c ${values.output ? relative(configDir, resolve(values.output)) : "promptfooconfig.yaml"} --no-cache\n# Each case runs once; add --repeat N for trials (proctor run measures rates with intervals).\n${stringify(config, { lineWidth: 0 })}`;
  if (!values.output) {
    process.stdout.write(yaml);
    return 0;
  }
  try {
    mkdirSync(configDir, { recursive: true });
    writeFileSync(values.output, yaml);
  } catch (error) {
    throw new InvalidInputError("INVALID_INPUT", `cannot write ${values.output}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  process.stderr.write(`wrote ${values.output}: ${(config.tests as unknown[]).length} test case(s)\n`);
  return 0;
};
export default exportCommand;
