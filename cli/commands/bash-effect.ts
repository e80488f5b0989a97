import { resolve } from "node:path";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { parseCommandArgs } from "../args.js";
import type { Command } from "../command.js";
import { useOneShotWasmFlags } from "../one-shot.js";

const USAGE = "proctor bash-effect COMMAND… [--explain] [--cwd DIR] | proctor bash-effect --stdin [--explain] [--cwd DIR]";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Print a shell command's effect: `read-only`, `side-effecting` or `undecidable` (with
 * `--explain`, a tab and the reason). With `--stdin`, one command per line, printed as
 * `verdict<TAB>command`. With `--cwd DIR`, judged where it would run: in DIR, with this
 * process's environment (as `proctor gate` judges a hook event). The exit code is the verdict, so
 * a script can gate on it: 0 read-only (every command, with --stdin), 1 side-effecting or
 * undecidable, 2 bad input (no command, an empty one).
 */
const bashEffect: Command = async (argv) => {
  const { values, positionals } = parseCommandArgs(argv, { stdin: { type: "boolean" }, explain: { type: "boolean" }, cwd: { type: "string" } }, USAGE);
  useOneShotWasmFlags();
  const [{ explainBash }, { loadShellParser }] = await Promise.all([import("../../src/effects/bash/classify.js"), import("../../src/effects/bash/parser.js")]);
  await loadShellParser();
  const context = values.cwd === undefined ? undefined : { cwd: resolve(values.cwd), env: process.env };
  if (values.stdin) {
    if (positionals.length > 0) throw new InvalidInputError("INVALID_INPUT", `give commands either as arguments or on stdin, not both\nusage: ${USAGE}`);
    const lines = (await readStdin()).split(/\r?\n/).filter((l) => l.trim() !== "");
    if (lines.length === 0) throw new InvalidInputError("INVALID_INPUT", `--stdin: no command on stdin (one command per line)\nusage: ${USAGE}`);
    const verdicts = lines.map((line) => ({ line, v: explainBash(line, context) }));
    process.stdout.write(`${verdicts.map(({ line, v }) => `${v.effect}\t${line}${values.explain ? `\t${v.reason}` : ""}`).join("\n")}\n`);
    return verdicts.every(({ v }) => v.effect === "read-only") ? 0 : 1;
  }
  const command = positionals.join(" ");
  if (command.trim() === "") throw new InvalidInputError("INVALID_INPUT", `expected a command to classify${positionals.length ? "; got an empty one" : ""}\nusage: ${USAGE}`);
  const v = explainBash(command, context);
  process.stdout.write(values.explain ? `${v.effect}\t${v.reason}\n` : `${v.effect}\n`);
  return v.effect === "read-only" ? 0 : 1;
};
export default bashEffect;
