import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { refuseDeepJson } from "../../src/io/json-depth.js";
import { JSON_FILE_LIMITS, readTextWithin } from "../../src/io/read-bounded.js";
import { mergeReports, missingShards } from "../../src/measure/merge.js";
import { parseCheckReports } from "../../src/measure/schema.js";
import { evaluateThresholds, formatRate } from "../../src/measure/thresholds.js";
import { evalVerdict } from "../../src/measure/ablation-verdict.js";
import type { CheckReport } from "../../src/measure/types.js";
import { parseCommandArgs } from "../args.js";
import type { Command } from "../command.js";

const USAGE = "proctor merge REPORT.json… [-o MERGED.json] [--junit FILE] [--check [--allow-partial]]";

/** Every report in a file (one report, or the array `proctor run --json` writes), each named by its place. */
function readReports(file: string): { report: CheckReport; source: string; inArray: boolean }[] {
  let text: string;
  try {
    text = readTextWithin(file, JSON_FILE_LIMITS);
  } catch (error) {
    throw new InvalidInputError("INVALID_INPUT", `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  refuseDeepJson(text, `the report ${file}`);
  const inArray = text.trimStart().startsWith("[");
  return parseCheckReports(text, file).map((report, i) => ({ report, source: inArray ? `${file}[${i}]` : file, inArray }));
}

/** One line per check: the merged rate with its interval. */
function summary(report: CheckReport, missing: readonly string[]): string {
  const t = report.trials;
  const lines = [
    `merged ${report.mergedFrom?.length ?? 1} report(s)${report.name ? ` of ${report.name}` : ""}: ${t.completed} trials evaluated, ${t.errored} errored, ${t.skipped} skipped, of ${t.requested} requested`,
    ...(missing.length ? [`  partial: missing shards ${missing.join(", ")} — the merge covers only part of the trials`] : []),
    ...(report.incomplete && report.incomplete.reason !== "missing-shards" ? [`  incomplete: ${report.incomplete.message}`] : []),
    ...report.checks.map((c) => `  ${c.label}: ${formatRate(c, report.confidence)}`),
    ...(report.stopped ? [`  cut short: ${report.stopped.message}`] : []),
    ...(report.skipped ? [`  skipped: ${report.skipped.reason}`] : []),
  ];
  return `${lines.join("\n")}\n`;
}

/**
 * Combine shard reports (one file per CI job) into the reports an unsharded run would have
 * written, eval by eval (reports are grouped by name). The merged JSON goes to -o or stdout — one
 * report, or an array when there are several evals — and a summary to stderr; --check gates each
 * merged report on the thresholds it recorded (exit 1 on a shortfall, a skipped or an incomplete
 * eval). --check refuses a shard set with shards missing (exit 2, naming them) unless
 * --allow-partial, which gates what is there and reports it as partial.
 */
const merge: Command = async (argv) => {
  const { values, positionals } = parseCommandArgs(argv, { output: { type: "string", short: "o" }, junit: { type: "string" }, check: { type: "boolean" }, "allow-partial": { type: "boolean" } }, USAGE);
  if (positionals.length === 0) throw new InvalidInputError("INVALID_INPUT", `expected at least one report file\nusage: ${USAGE}`);
  if (values["allow-partial"] && !values.check) throw new InvalidInputError("INVALID_INPUT", `--allow-partial only changes what --check does\nusage: ${USAGE}`);
  const inputs = positionals.flatMap(readReports);
  if (inputs.length === 0) {
    throw new InvalidInputError("INVALID_INPUT", `${positionals.join(", ")} ${positionals.length === 1 ? "holds" : "hold"} no reports (an empty array); pass the files \`proctor run --json\` wrote for runs where at least one eval ran`);
  }
  const groups = new Map<string | undefined, typeof inputs>();
  for (const input of inputs) groups.set(input.report.name, [...(groups.get(input.report.name) ?? []), input]);
  const merged = [...groups.values()].map((group) => {
    const reports = group.map((g) => g.report);
    return { report: mergeReports(reports, group.map((g) => g.source)), missing: missingShards(reports), inputs: reports };
  });
  const severalEvals = merged.length > 1 || inputs.some((i) => i.inArray);
  const out = severalEvals || !merged[0] ? merged.map((m) => m.report) : merged[0].report;
  const json = `${JSON.stringify(out, null, 2)}\n`;
  if (values.output) {
    try {
      mkdirSync(dirname(values.output), { recursive: true });
      writeFileSync(values.output, json);
    } catch (error) {
      throw new InvalidInputError("INVALID_INPUT", `cannot write ${values.output}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  } else process.stdout.write(json);
  for (const m of merged) process.stderr.write(summary(m.report, m.missing));
  if (values.junit) {
    // The merged run as the test report a CI system shows: a testcase per check, as `proctor run --junit` writes.
    const [{ reportSuites }, { buildJunitXml, writeJunit }] = await Promise.all([import("../../reporters/junit/from-reports.js"), import("../../reporters/junit/xml.js")]);
    writeJunit(values.junit, buildJunitXml(reportSuites(merged.map((m) => m.report)), "proctor merge"));
  }
  if (!values.check) return 0;
  const lacking = merged.filter((m) => m.missing.length > 0);
  if (lacking.length > 0 && !values["allow-partial"]) {
    throw new InvalidInputError("INVALID_INPUT", `cannot --check an incomplete shard set: ${lacking.map((m) => `${m.report.name ? `${m.report.name}: ` : ""}missing ${m.missing.join(", ")}`).join("; ")}`, {
      detail: "  merge every shard's report, or pass --allow-partial to gate the shards there are and report the result as partial",
    });
  }
  let failed = false;
  // An ablated eval's arm without the part is judged with the arm with it (evalVerdict), as `proctor run` judges it.
  // --allow-partial: the shards there are are gated; the written report still says what is missing.
  const gatedOf = (m: (typeof merged)[number]) => (m.missing.length > 0 ? withoutMissingShards(m.report, m.inputs) : m.report);
  const byName = new Map(merged.map((m) => [m.report.name, gatedOf(m)]));
  const arms = new Set(merged.flatMap((m) => (m.report.ablation ? [m.report.ablation.withoutReport] : [])));
  for (const m of merged) {
    const { report, missing } = m;
    if (!report.ablation && !report.thresholds && arms.has(report.name ?? "")) continue;
    const gated = gatedOf(m);
    const verdict = report.ablation ? evalVerdict(gated, byName.get(report.ablation.withoutReport)) : evaluateThresholds(gated);
    if (missing.length > 0) process.stderr.write(`${report.name ? `${report.name}: ` : ""}partial: gated on the shards given; missing ${missing.join(", ")}\n`);
    if (verdict.status === "passed") continue;
    failed = true;
    const what = { skipped: "skipped", incomplete: "incomplete", failed: "below thresholds", passed: "" }[verdict.status];
    process.stderr.write(`${report.name ? `${report.name}: ` : ""}${what}:\n${verdict.shortfalls.map((s) => `  ✗ ${s}`).join("\n")}\n`);
  }
  return failed ? 1 : 0;
};
/** The report as the gate sees it under --allow-partial: missing shards set aside, a shard cut short still incomplete. */
function withoutMissingShards(report: CheckReport, inputs: readonly CheckReport[]): CheckReport {
  const { incomplete: _missing, ...rest } = report;
  const cut = inputs.flatMap((r) => (r.incomplete && r.incomplete.reason !== "missing-shards" ? [r.incomplete] : []));
  const [first] = cut;
  return first ? { ...rest, incomplete: { reason: first.reason, message: cut.map((c) => c.message).join("; ") } } : rest;
}

export default merge;
