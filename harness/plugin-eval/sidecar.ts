/**
 * A case's script sidecar, `<case>/proctor.script.json` (or `.yaml`): what the mock model says in
 * the case's runs, plus `judge` (how the mock judge answers the case's llm graders) and, optionally,
 * `without` (the script of the without-plugin arm; the same script when absent).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "../../src/errors/proctor-error.js";
import { readDataFile } from "../../src/io/read-data-file.js";
import { checkJudgeRules, type JudgeRules } from "../../src/plugin-eval/scripted-judge.js";
import type { SuiteCase } from "../../src/plugin-eval/types.js";
import { validateScript } from "../../mock-model/script/schema.js";
import type { Script } from "../../src/eval/script-types.js";

export const SIDECAR_NAMES = ["proctor.script.json", "proctor.script.yaml", "proctor.script.yml"];

/** A case's sidecar, read and checked. */
export interface CaseSidecar {
  readonly file: string;
  readonly script: Script;
  readonly without?: Script;
  readonly judge: JudgeRules;
}

/** The sidecar file of a case dir, if it has one. */
export function sidecarFile(dir: string): string | undefined {
  return SIDECAR_NAMES.map((n) => join(dir, n)).find((f) => existsSync(f));
}

/** Read a case's sidecar; undefined when the case has none. */
export function readSidecar(c: SuiteCase): CaseSidecar | undefined {
  const file = sidecarFile(c.dir);
  if (!file) return undefined;
  const raw = readDataFile(file, { what: "script sidecar", code: "SCRIPT_INVALID", format: /\.ya?ml$/.test(file) ? "yaml" : "json" });
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new ConfigError("SCRIPT_INVALID", `${file}: a script sidecar is an object { turns, judge?, without? }`);
  const { judge, without, ...script } = raw as Record<string, unknown>;
  return {
    file,
    script: validateScript(script, file),
    ...(without !== undefined ? { without: validateScript(without, `${file} (without)`) } : {}),
    judge: checkJudgeRules(judge, file),
  };
}
