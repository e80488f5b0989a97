import { readFileSync } from "node:fs";
import { readTranscript } from "../../trace/transcript.js";
import { checksFromJSON } from "../../checks/from-json.js";
import { evalChecks } from "../../checks/check.js";
import { ProctorError } from "../../errors/proctor-error.js";
import { parseCommandArgs } from "../args.js";
import type { Command } from "../command.js";

const USAGE = "proctor check TRANSCRIPT --checks CHECKS.json [--json]";

function readChecksFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ProctorError("INVALID_INPUT", `cannot read checks file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ProctorError("INVALID_INPUT", `${file} is not JSON: ${(error as Error).message}\n  expected an array of checks like [{"kind":"notTool","name":"Bash"}]`);
  }
}

/** Evaluate a JSON array of checks against a recorded transcript: exit 0 all hold, 1 any fails, 2 bad input. */
const check: Command = async (argv) => {
  const { values, positionals } = parseCommandArgs(argv, { checks: { type: "string" }, json: { type: "boolean" } }, USAGE);
  if (positionals.length !== 1 || !values.checks) throw new ProctorError("INVALID_INPUT", `expected a transcript and --checks FILE\nusage: ${USAGE}`);
  const checks = checksFromJSON(readChecksFile(values.checks), values.checks);
  const trace = readTranscript(positionals[0]);
  for (const e of trace.errors.filter((e) => e.kind === "malformed-line")) process.stderr.write(`proctor check: ${positionals[0]}: ${e.message}\n`);
  const results = evalChecks(trace, checks);
  const pass = results.every((r) => r.pass);
  if (values.json) {
    const out = { pass, results: results.map(({ kind, label, pass, score, message }) => ({ kind, label, pass, score, message })) };
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  } else {
    for (const r of results) process.stdout.write(`${r.pass ? "✓" : "✗"} ${r.label}${r.pass ? "" : `\n    ${r.message.replace(/\n/g, "\n    ")}`}\n`);
    const failed = results.filter((r) => !r.pass);
    process.stdout.write(failed.length ? `\n${failed.length} of ${results.length} checks failed\n` : `\nall ${results.length} checks passed\n`);
  }
  return pass ? 0 : 1;
};
export default check;
