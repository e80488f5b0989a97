import { readFileSync, writeFileSync } from "node:fs";
import { ProctorError } from "../../errors/proctor-error.js";
import { mergeReports, missingShards } from "../../measure/merge.js";
import { parseCheckReport } from "../../measure/schema.js";
import { evaluateThresholds, formatRate } from "../../measure/thresholds.js";
import type { CheckReport } from "../../measure/types.js";
import { parseCommandArgs } from "../args.js";
import type { Command } from "../command.js";

const USAGE = "proctor merge REPORT.json… [-o MERGED.json] [--check]";

function readReport(file: string): CheckReport {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ProctorError("INVALID_INPUT", `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return parseCheckReport(text, file);
}

/** One line per check: the merged rate with its interval. */
function summary(report: CheckReport, missing: readonly string[]): string {
  const t = report.trials;
  const lines = [
    `merged ${report.mergedFrom?.length ?? 1} report(s)${report.name ? ` of ${report.name}` : ""}: ${t.completed} trials evaluated, ${t.errored} errored, ${t.skipped} skipped, of ${t.requested} requested`,
    ...(missing.length ? [`  missing shards: ${missing.join(", ")} — the merge covers only part of the trials`] : []),
    ...report.checks.map((c) => `  ${c.label}: ${formatRate(c, report.confidence)}`),
    ...(report.stopped ? [`  cut short: ${report.stopped.message}`] : []),
  ];
  return `${lines.join("\n")}\n`;
}

/**
 * Combine shard reports (one per CI job) into the report an unsharded run would have written.
 * The merged JSON goes to -o or stdout, a summary to stderr; --check gates it on the thresholds
 * the reports recorded (exit 1 on a shortfall).
 */
const merge: Command = async (argv) => {
  const { values, positionals } = parseCommandArgs(argv, { output: { type: "string", short: "o" }, check: { type: "boolean" } }, USAGE);
  if (positionals.length === 0) throw new ProctorError("INVALID_INPUT", `expected at least one report file\nusage: ${USAGE}`);
  const reports = positionals.map(readReport);
  const merged = mergeReports(reports, positionals);
  const json = `${JSON.stringify(merged, null, 2)}\n`;
  if (values.output) writeFileSync(values.output, json);
  else process.stdout.write(json);
  process.stderr.write(summary(merged, missingShards(reports)));
  if (!values.check) return 0;
  const verdict = evaluateThresholds(merged);
  if (verdict.status === "passed") return 0;
  process.stderr.write(`${verdict.status === "skipped" ? "skipped" : "below thresholds"}:\n${verdict.shortfalls.map((s) => `  ✗ ${s}`).join("\n")}\n`);
  return 1;
};
export default merge;
