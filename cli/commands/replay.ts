import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { evaluateChecks } from "../../src/checks/check.js";
import { driftText, replayMatches } from "../../src/checks/replay.js";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import type { Divergence } from "../../src/trace/types.js";
import { parseCommandArgs } from "../args.js";
import type { Command } from "../command.js";
import { resolveTranscriptArg } from "../../src/trace/session-log.js";

const USAGE =
  "proctor replay RECORDING [--plugin DIR]… [--fixture DIR] [--settings FILE] [--allowed-tools T,…] [--prompt TEXT] [--ignore-result-text] [--ignore KIND,…] [--stop-at-first] [--allow-outside PATH]… [--json OUT] [--html OUT] [--verbose] [--no-sandbox REASON]";

const KINDS: readonly Divergence["kind"][] = ["result", "status", "hook", "call", "subagent", "turn", "outcome", "refused"];

/**
 * Replay a recorded run (stream-json from `claude -p`, or a Claude Code session log or its folder)
 * on the real claude binary with today's plugins, settings and fixture, and print the run as a
 * timeline with every divergence from the recording beside its call. Exit 0 when the replay
 * matched, 1 when it diverged, 2 on bad input.
 */
const replay: Command = async (argv) => {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      plugin: { type: "string", multiple: true },
      fixture: { type: "string" },
      settings: { type: "string" },
      "allowed-tools": { type: "string" },
      prompt: { type: "string" },
      "ignore-result-text": { type: "boolean" },
      ignore: { type: "string" },
      "stop-at-first": { type: "boolean" },
      "allow-outside": { type: "string", multiple: true },
      json: { type: "string" },
      html: { type: "string" },
      verbose: { type: "boolean", short: "v" },
      "no-sandbox": { type: "string" },
    },
    USAGE,
  );
  const [recording] = positionals;
  if (positionals.length !== 1 || recording === undefined) throw new InvalidInputError("INVALID_INPUT", `expected one recording (a transcript, session log or session folder)\nusage: ${USAGE}`);
  const sandboxOff = values["no-sandbox"];
  if (sandboxOff !== undefined && sandboxOff.trim() === "") throw new InvalidInputError("INVALID_INPUT", `--no-sandbox needs the reason, e.g. --no-sandbox "the recording ran docker"\nusage: ${USAGE}`);
  const ignore = (values.ignore ?? "").split(",").map((k) => k.trim()).filter(Boolean);
  const unknown = ignore.find((k) => !KINDS.includes(k as Divergence["kind"]));
  if (unknown) throw new InvalidInputError("INVALID_INPUT", `--ignore: unknown divergence kind ${JSON.stringify(unknown)}; the kinds are ${KINDS.join(", ")}`);
  let settings: Record<string, unknown> | undefined;
  if (values.settings) {
    const { readFileSync } = await import("node:fs");
    try {
      settings = JSON.parse(readFileSync(values.settings, "utf8")) as Record<string, unknown>;
    } catch (error) {
      throw new InvalidInputError("INVALID_INPUT", `cannot read --settings ${values.settings}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  const { runReplay } = await import("../../harness/replay/run-replay.js");
  const { trace, cleanup } = await runReplay({
    recording: resolveTranscriptArg(recording),
    ...(values.plugin ? { plugins: values.plugin } : {}),
    ...(values.fixture ? { fixture: values.fixture } : {}),
    ...(settings ? { settings } : {}),
    ...(values["allowed-tools"] ? { allowedTools: values["allowed-tools"].split(",").map((t) => t.trim()).filter(Boolean) } : {}),
    ...(values.prompt !== undefined ? { prompt: values.prompt } : {}),
    ...(values["ignore-result-text"] ? { ignoreResultText: true } : {}),
    ...(values["stop-at-first"] ? { stopAtFirstDivergence: true } : {}),
    ...(values["allow-outside"] ? { allowOutside: values["allow-outside"] } : {}),
    // Said before the run's calls, so a set-up difference is read as the cause it is.
    onPreflight: (w) => process.stderr.write(`proctor replay: warning: ${w.message}\n`),
    ...(sandboxOff !== undefined ? { sandbox: { off: sandboxOff } } : {}),
    reject: false,
  });
  await cleanup();
  const results = await evaluateChecks(trace, [replayMatches({ ignore: ignore as Divergence["kind"][] })]);
  for (const out of [values.json, values.html]) if (out) mkdirSync(dirname(out), { recursive: true });
  if (values.json) writeFileSync(values.json, `${JSON.stringify(trace, null, 2)}\n`);
  if (values.html) {
    const { renderTraceHtml } = await import("../../reporters/trace-view/html.js");
    writeFileSync(values.html, renderTraceHtml(trace, { results, title: `proctor replay — ${positionals[0]}` }));
  }
  const { renderTraceText } = await import("../../reporters/trace-view/terminal.js");
  process.stdout.write(renderTraceText(trace, { results, verbose: values.verbose }));
  const failed = results.some((r) => !r.pass);
  const count = trace.replay?.divergences.length ?? 0;
  process.stdout.write(failed ? `\nthe replay diverged from the recording (${count} divergence${count === 1 ? "" : "s"})\n` : "\nthe replay matched the recording\n");
  const drift = trace.replay ? driftText(trace.replay) : "";
  if (drift) process.stdout.write(`${drift.replace(/^; /, "")}\n`);
  return failed ? 1 : 0;
};
export default replay;
