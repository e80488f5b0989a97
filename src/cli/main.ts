#!/usr/bin/env node
/**
 * The `proctor` CLI. Each command lives in its own module, imported only when it runs, so a
 * per-tool-call command like `proctor gate` pays for nothing else at start-up.
 * Exit codes: 0 success, 1 a verdict failed, 2 bad input.
 */
import { isProctorError } from "../errors/proctor-error.js";
import type { Command } from "./command.js";

const COMMANDS: Record<string, { summary: string; load: () => Promise<{ default: Command }> }> = {
  trace: { summary: "trace FILE                      print a transcript as a Trace (JSON)", load: () => import("./commands/trace.js") },
  check: { summary: "check FILE --checks C.json [--json]  evaluate checks against a transcript", load: () => import("./commands/check.js") },
  show: { summary: "show FILE [--checks C.json] [--html OUT]  a run as a readable timeline (terminal or HTML)", load: () => import("./commands/show.js") },
  baseline: { summary: "baseline --update|--check BASELINE REPORT.json…  record or gate on measured rates", load: () => import("./commands/baseline.js") },
  merge: { summary: "merge REPORT.json… [-o OUT] [--check]  combine shard reports exactly (counts add, intervals recomputed)", load: () => import("./commands/merge.js") },
  run: { summary: "run [EVAL_FILES…] [--mock|--real] [--trials N] [--junit F] [--json F] [--baseline F]  measure evals and gate them", load: () => import("./commands/run.js") },
  export: { summary: "export promptfoo EVAL_FILES… [-o FILE] [--real]  eval files as a promptfoo config", load: () => import("./commands/export.js") },
  gate: { summary: "gate [--purity L] [--policy F] [--rule-of-two LEGS] [--rung R]  PreToolUse hook: allow/deny/ask one tool call", load: () => import("./commands/gate.js") },
  "bash-effect": { summary: "bash-effect COMMAND | --stdin [--explain] [--cwd DIR]  is a shell command read-only, side-effecting or undecidable?", load: () => import("./commands/bash-effect.js") },
};

function usage(): string {
  return ["usage: proctor <command> [options]", "", ...Object.values(COMMANDS).map((c) => `  proctor ${c.summary}`)].join("\n");
}

export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(`${usage()}\n`);
    return name ? 0 : 2;
  }
  if (name === "--version" || name === "-v") {
    const { PROCTOR_VERSION } = await import("../version.js");
    process.stdout.write(`${PROCTOR_VERSION}\n`);
    return 0;
  }
  const entry = COMMANDS[name];
  if (!entry) {
    process.stderr.write(`proctor: unknown command ${JSON.stringify(name)}\n\n${usage()}\n`);
    return 2;
  }
  try {
    const command = (await entry.load()).default;
    return await command(rest);
  } catch (error) {
    if (isProctorError(error)) {
      process.stderr.write(`proctor ${name}: ${error.message}\n`);
      return error.code === "CHECKS_FAILED" || error.code === "RATES_BELOW_THRESHOLD" ? 1 : 2;
    }
    throw error;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`proctor: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 2;
  },
);
