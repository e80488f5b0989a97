import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { evaluateChecks, type CheckResult } from "../../src/checks/check.js";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { readChecksFile } from "../../reporters/input/read-checks.js";
import { readTraceFile } from "../../reporters/input/read-trace.js";
import { renderTraceHtml } from "../../reporters/trace-view/html.js";
import { renderTraceText } from "../../reporters/trace-view/terminal.js";
import { parseCommandArgs } from "../args.js";
import type { Command } from "../command.js";
import { resolveTranscriptArg } from "../../src/trace/session-log.js";

const USAGE = "proctor show TRACE_OR_TRANSCRIPT [--checks C.json] [--html OUT.html] [--verbose]";

/**
 * Show one run as a timeline: coloured text on a terminal (NO_COLOR / FORCE_COLOR respected), or
 * a self-contained HTML page with --html. With --checks, failed checks sit next to their call
 * and the exit code is the verdict (0 all hold, 1 any fails).
 */
const show: Command = async (argv) => {
  const { values, positionals } = parseCommandArgs(
    argv,
    { checks: { type: "string" }, html: { type: "string" }, verbose: { type: "boolean", short: "v" }, title: { type: "string" } },
    USAGE,
  );
  const [file] = positionals;
  if (positionals.length !== 1 || file === undefined) throw new InvalidInputError("INVALID_INPUT", `expected one trace or transcript file\nusage: ${USAGE}`);
  const checks = values.checks ? readChecksFile(values.checks) : undefined;
  const trace = readTraceFile(resolveTranscriptArg(file));
  const results: CheckResult[] | undefined = checks ? await evaluateChecks(trace, checks) : undefined;
  if (values.html) {
    const html = renderTraceHtml(trace, { results, title: values.title ?? `proctor trace — ${file}` });
    try {
      mkdirSync(dirname(values.html), { recursive: true });
      writeFileSync(values.html, html);
    } catch (error) {
      throw new InvalidInputError("INVALID_INPUT", `cannot write ${values.html}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    const failed = results?.filter((r) => !r.pass).length ?? 0;
    process.stdout.write(`wrote ${values.html} (${trace.toolCalls.length} calls${results ? `, ${failed} of ${results.length} checks failed` : ""})\n`);
  } else {
    process.stdout.write(renderTraceText(trace, { results, verbose: values.verbose }));
  }
  return results?.some((r) => !r.pass) ? 1 : 0;
};
export default show;
