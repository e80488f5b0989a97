import { existsSync } from "node:fs";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { createBaseline, type Baseline } from "../../reporters/baseline/format.js";
import { readBaseline, writeBaseline } from "../../reporters/baseline/file.js";
import { diffBaseline, renderBaselineDiff } from "../../reporters/baseline/diff.js";
import { readReportFiles } from "../../reporters/input/read-reports.js";
import { renderJunitDiff } from "../../reporters/junit/from-reports.js";
import { writeJunit } from "../../reporters/junit/xml.js";
import { parseCommandArgs } from "../args.js";
import type { Command } from "../command.js";

const USAGE = `proctor baseline --update BASELINE.json REPORT.json… [--prune]
       proctor baseline --check  BASELINE.json REPORT.json… [--alpha 0.05] [--correction holm|none] [--junit FILE]`;

function parseAlpha(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const alpha = Number(text);
  if (!(alpha > 0 && alpha < 1)) throw new InvalidInputError("INVALID_INPUT", `--alpha must be a number within (0, 1), like 0.05; got ${JSON.stringify(text)}`);
  return alpha;
}

/**
 * Record measure reports as the baseline (--update), or hold reports to it (--check: exit 1 when
 * any check regressed, by measure's Fisher test with Holm's correction).
 */
const baseline: Command = async (argv) => {
  const { values, positionals } = parseCommandArgs(
    argv,
    { update: { type: "boolean" }, check: { type: "boolean" }, prune: { type: "boolean" }, alpha: { type: "string" }, correction: { type: "string" }, junit: { type: "string" } },
    USAGE,
  );
  if (values.update === values.check) throw new InvalidInputError("INVALID_INPUT", `give exactly one of --update or --check\nusage: ${USAGE}`);
  const [file, ...reportFiles] = positionals;
  if (file === undefined || reportFiles.length === 0) throw new InvalidInputError("INVALID_INPUT", `expected the baseline file and at least one report file\nusage: ${USAGE}`);
  const reports = readReportFiles(reportFiles);

  if (values.update) {
    const previous: Baseline | undefined = existsSync(file) && !values.prune ? readBaseline(file) : undefined;
    const written = writeBaseline(file, createBaseline(reports, previous));
    const kept = Object.keys(written.evals).filter((name) => !reports.some((r) => r.name === name));
    process.stdout.write(`wrote ${file}: ${reports.map((r) => r.name).join(", ")}${kept.length ? ` (kept from before: ${kept.join(", ")})` : ""}\n`);
    return 0;
  }

  const correction = values.correction;
  if (correction !== undefined && correction !== "holm" && correction !== "none") throw new InvalidInputError("INVALID_INPUT", `--correction must be holm or none; got ${JSON.stringify(correction)}`);
  const diff = diffBaseline(readBaseline(file), reports, { alpha: parseAlpha(values.alpha), correction });
  process.stdout.write(renderBaselineDiff(diff));
  if (values.junit) writeJunit(values.junit, renderJunitDiff(diff));
  return diff.regressed ? 1 : 0;
};
export default baseline;
