#!/usr/bin/env node
/**
 * The `proctor` CLI. Each command lives in its own module, imported only when it runs, so a
 * per-tool-call command like `proctor gate` pays for nothing else at start-up.
 * Exit codes: 0 success, 1 a verdict failed, 2 bad input; `proctor run` stopped by a signal exits
 * 128 + its number (130 SIGINT, 143 SIGTERM). Errors are one line naming the input and what to
 * do; `--debug` (or PROCTOR_DEBUG=1) adds the stack.
 */
import { type CommandTable, runMain } from "./dispatch.js";

const COMMANDS: CommandTable = {
  init: { summary: "init [DIR] [--js] [--force]       write a starter eval and fixture (./evals) that runs green on the mock", load: () => import("./commands/init.js") },
  trace: { summary: "trace FILE                      print a transcript as a Trace (JSON)", load: () => import("./commands/trace.js") },
  check: { summary: "check FILE --checks C.json [--json]  evaluate checks against a transcript", load: () => import("./commands/check.js") },
  show: { summary: "show FILE [--checks C.json] [--html OUT]  a run as a readable timeline (terminal or HTML)", load: () => import("./commands/show.js") },
  baseline: { summary: "baseline --update|--check BASELINE REPORT.json…  record or gate on measured rates", load: () => import("./commands/baseline.js") },
  merge: { summary: "merge REPORT.json… [-o OUT] [--check]  combine shard reports exactly (counts add, intervals recomputed)", load: () => import("./commands/merge.js") },
  run: { summary: "run [EVAL_FILES…] [--mock|--real] [--trials N] [--junit F] [--json F] [--baseline F]  measure evals and gate them", load: () => import("./commands/run.js") },
  bisect: { summary: "bisect EVAL_FILE --from V --to V|latest [--check LABEL] [--trials N]  the first claude version where an eval's rate changed", load: () => import("./commands/bisect.js") },
  export: { summary: "export promptfoo EVAL_FILES… [-o FILE] [--real]  eval files as a promptfoo config", load: () => import("./commands/export.js") },
  mock: { summary: "mock serve [--suite EVAL_DIR] [--script F] [--port N]  the mock model as a server any claude can use (claude plugin eval offline)", load: () => import("./commands/mock.js") },
  replay: { summary: "replay RECORDING [--plugin DIR] [--fixture DIR] [--stop-at-first]  replay a recorded run on the real binary; show where it diverges", load: () => import("./commands/replay.js") },
  sessions: { summary: "sessions [DIR]                  list Claude Code sessions (~/.claude/projects) to check, show or replay", load: () => import("./commands/sessions.js") },
  gate: { summary: "gate [--purity L] [--policy F] [--rule-of-two LEGS] [--rung R]  PreToolUse hook: allow/deny/ask one tool call", load: () => import("./commands/gate.js") },
  "bash-effect": { summary: "bash-effect COMMAND | --stdin [--explain] [--cwd DIR]  is a shell command read-only, side-effecting or undecidable?", load: () => import("./commands/bash-effect.js") },
};

runMain(COMMANDS);
