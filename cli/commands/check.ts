import { readTranscript, requireTranscriptEvents } from "../../src/trace/transcript.js";
import { readChecksFile } from "../../reporters/input/read-checks.js";
import { evaluateChecks, type CheckResult } from "../../src/checks/check.js";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { parseCommandArgs } from "../args.js";
import type { Command } from "../command.js";
import { installBuiltInJudge } from "../judge.js";
import { resolveTranscriptArg } from "../../src/trace/session-log.js";
import { observedLines } from "../../src/checks/observed.js";

const USAGE = "proctor check TRANSCRIPT… --checks CHECKS.json [--json] [--junit FILE]";

const brief = ({ kind, label, pass, score, message }: CheckResult) => ({ kind, label, pass, score, message });

/**
 * Evaluate a JSON array of checks against recorded transcripts: exit 0 when all hold, 1 when any
 * fails (every failure listed), 2 on bad input. Several transcripts are judged one by one.
 */
const check: Command = async (argv) => {
  const { values, positionals } = parseCommandArgs(argv, { checks: { type: "string" }, json: { type: "boolean" }, junit: { type: "string" } }, USAGE);
  if (positionals.length === 0 || !values.checks) throw new InvalidInputError("INVALID_INPUT", `expected a transcript and --checks FILE\nusage: ${USAGE}`);
  const checks = readChecksFile(values.checks);
  await installBuiltInJudge(checks);
  const runs = [];
  for (const file of positionals) {
    const trace = requireTranscriptEvents(readTranscript(resolveTranscriptArg(file)), file);
    for (const e of trace.errors.filter((e) => e.kind === "malformed-line")) process.stderr.write(`proctor check: ${file}: ${e.message}\n`);
    const results = await evaluateChecks(trace, checks);
    // Only what the output needs outlives the loop: a trace kept per file would be copied by the
    // garbage collector again and again while the rest are read.
    runs.push({ file, durationMs: trace.usage?.durationMs, results, pass: results.every((r) => r.pass), observed: observedLines(trace) });
  }
  const pass = runs.every((r) => r.pass);

  if (values.junit) {
    const [{ renderJunitResults }, { writeJunit }] = await Promise.all([import("../../reporters/junit/from-results.js"), import("../../reporters/junit/xml.js")]);
    const suites = runs.map((r) => ({ name: r.file, results: r.results, observed: r.observed, ...(r.durationMs !== undefined ? { timeSeconds: r.durationMs / 1000 } : {}) }));
    writeJunit(values.junit, renderJunitResults(suites, { name: "proctor check" }));
  }
  if (values.json) {
    const out = runs.length === 1 && runs[0] ? { pass, results: runs[0].results.map(brief) } : runs.map((r) => ({ file: r.file, pass: r.pass, results: r.results.map(brief) }));
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return pass ? 0 : 1;
  }
  for (const run of runs) {
    if (runs.length > 1) process.stdout.write(`${run.pass ? "✓" : "✗"} ${run.file}\n`);
    const indent = runs.length > 1 ? "  " : "";
    for (const r of run.results) process.stdout.write(`${indent}${r.pass ? "✓" : "✗"} ${r.label}${r.pass ? "" : `\n${indent}    ${r.message.replace(/\n/g, `\n${indent}    `)}`}\n`);
  }
  const results = runs.flatMap((r) => r.results);
  const failed = results.filter((r) => !r.pass).length;
  const across = runs.length > 1 ? ` across ${runs.length} transcripts` : "";
  process.stdout.write(failed ? `\n${failed} of ${results.length} checks failed${across}\n` : `\nall ${results.length} checks passed${across}\n`);
  return pass ? 0 : 1;
};
export default check;
