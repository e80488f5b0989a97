#!/usr/bin/env node
/**
 * The `proctor` CLI. Each command lives in its own module, imported only when it runs, so a
 * per-tool-call command like `proctor gate` pays for nothing else at start-up.
 * Exit codes: 0 success, 1 a verdict failed, 2 bad input; `proctor run` stopped by a signal exits
 * 128 + its number (130 SIGINT, 143 SIGTERM). Errors are one line naming the input and what to
 * do; `--debug` (or PROCTOR_DEBUG=1) adds the stack.
 */
import { isProctorError } from "../src/errors/proctor-error.js";
import { HelpRequested } from "./args.js";
import type { Command } from "./command.js";
import { debugText, describeProctorError, describeUnexpected } from "./errors.js";
import { renderHelp } from "./help.js";

const COMMANDS: Record<string, { summary: string; load: () => Promise<{ default: Command }> }> = {
  init: { summary: "init [DIR] [--js] [--force]       write a starter eval and fixture (./evals) that runs green on the mock", load: () => import("./commands/init.js") },
  trace: { summary: "trace FILE                      print a transcript as a Trace (JSON)", load: () => import("./commands/trace.js") },
  check: { summary: "check FILE --checks C.json [--json]  evaluate checks against a transcript", load: () => import("./commands/check.js") },
  show: { summary: "show FILE [--checks C.json] [--html OUT]  a run as a readable timeline (terminal or HTML)", load: () => import("./commands/show.js") },
  baseline: { summary: "baseline --update|--check BASELINE REPORT.json…  record or gate on measured rates", load: () => import("./commands/baseline.js") },
  merge: { summary: "merge REPORT.json… [-o OUT] [--check]  combine shard reports exactly (counts add, intervals recomputed)", load: () => import("./commands/merge.js") },
  run: { summary: "run [EVAL_FILES…] [--mock|--real] [--trials N] [--junit F] [--json F] [--baseline F]  measure evals and gate them", load: () => import("./commands/run.js") },
  export: { summary: "export promptfoo EVAL_FILES… [-o FILE] [--real]  eval files as a promptfoo config", load: () => import("./commands/export.js") },
  replay: { summary: "replay RECORDING [--plugin DIR] [--fixture DIR] [--stop-at-first]  replay a recorded run on the real binary; show where it diverges", load: () => import("./commands/replay.js") },
  sessions: { summary: "sessions [DIR]                  list Claude Code sessions (~/.claude/projects) to check, show or replay", load: () => import("./commands/sessions.js") },
  gate: { summary: "gate [--purity L] [--policy F] [--rule-of-two LEGS] [--rung R]  PreToolUse hook: allow/deny/ask one tool call", load: () => import("./commands/gate.js") },
  "bash-effect": { summary: "bash-effect COMMAND | --stdin [--explain] [--cwd DIR]  is a shell command read-only, side-effecting or undecidable?", load: () => import("./commands/bash-effect.js") },
};

function usage(): string {
  return ["usage: proctor <command> [options] [--debug]", "", ...Object.values(COMMANDS).map((c) => `  proctor ${c.summary}`)].join("\n");
}

/** Take `--debug` out of argv wherever it is: it asks for stack traces with errors. */
function takeDebugFlag(argv: readonly string[]): { argv: string[]; debug: boolean } {
  const rest = argv.filter((a) => a !== "--debug");
  return { argv: rest, debug: rest.length !== argv.length || process.env.PROCTOR_DEBUG === "1" };
}

export async function main(argvIn: readonly string[]): Promise<number> {
  const { argv, debug } = takeDebugFlag(argvIn);
  const [first, ...afterFirst] = argv;
  // `proctor help run` is `proctor run --help`.
  const [name, ...rest] = first === "help" && afterFirst[0] && COMMANDS[afterFirst[0]] ? [afterFirst[0], "--help"] : argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(`${usage()}\n\nproctor <command> --help (or proctor help <command>) explains a command: every option, its default, examples, exit codes.\n`);
    return name ? 0 : 2;
  }
  if (name === "--version" || name === "-v") {
    const { PROCTOR_VERSION } = await import("../src/version.js");
    process.stdout.write(`${PROCTOR_VERSION}\n`);
    return 0;
  }
  const entry = COMMANDS[name];
  if (!entry) {
    process.stderr.write(`proctor: error [INVALID_INPUT] unknown command ${JSON.stringify(name)}\n  hint: run one of the commands below\n\n${usage()}\n`);
    return 2;
  }
  try {
    const command = (await entry.load()).default;
    return await command(rest);
  } catch (error) {
    if (error instanceof HelpRequested) {
      process.stdout.write(renderHelp(name, error.usage, error.options));
      return 0;
    }
    if (isProctorError(error)) {
      process.stderr.write(`${describeProctorError(error, name)}\n${debug ? `${debugText(error)}\n` : ""}`);
      return error.code === "CHECKS_FAILED" || error.code === "RATES_BELOW_THRESHOLD" ? 1 : 2;
    }
    process.stderr.write(`${describeUnexpected(error, name)}\n${debug ? `${debugText(error)}\n` : ""}`);
    return 2;
  }
}

// A reader that closed the pipe (`proctor trace x | head`) is not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  process.stderr.write(`proctor: cannot write the output: ${error.code ?? error.message}\n`);
  process.exit(2);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${describeUnexpected(error, "")}\n`);
    process.exitCode = 2;
  },
);
