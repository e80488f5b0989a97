import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { constants as osConstants } from "node:os";
import { dirname } from "node:path";
import type { HarnessSpec } from "../../harness/claude/spec.js";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import type { EvalDefinition, MockSpec, RealSpec, ReplayTierSpec } from "../../src/eval/define.js";
import { evalFileOf, findEvalFiles, loadEvalFiles } from "../../src/eval/load.js";
import { chooseTier, runEvals, tracesDirOf, type EvalOutcome, type EvalTiers, type TierChoice } from "../../src/eval/run-evals.js";
import type { TrialContext } from "../../src/measure/measure.js";
import type { Trace } from "../../src/trace/types.js";
import type { Baseline } from "../../reporters/baseline/format.js";
import type { BaselineDiff } from "../../reporters/baseline/diff.js";
import { renderRunSummary, renderTraceHints } from "../../reporters/summary/run-summary.js";
import { looksLikeToolName, parseCommandArgs, spreadVariadic } from "../args.js";
import type { Command } from "../command.js";
import { installBuiltInJudge } from "../judge.js";
import { driftText } from "../../src/checks/replay.js";
import type { AblationOptions } from "../../src/measure/ablation.js";

const USAGE = `proctor run [FILES_OR_DIRS…] [--eval NAME…] [--mock|--replay|--real] [--trials N] [--concurrency C] [--shard i/n]
            [--junit FILE] [--json FILE] [--traces DIR [--all-traces]] [--baseline FILE [--update-baseline] [--alpha A]] [--budget-usd X] [--list]
            [--claude VERSION,VERSION…] [--no-sandbox REASON]
            [--ablate plugin:NAME|skill:NAME|agent:NAME|hook:EVENT|mcp:SERVER [--detect DELTA] [--power P]] [--early-stop] [--forecast] [--html FILE]
       proctor run EVAL_DIR [--eval CASE…] [--mock|--replay|--real] [--trials N] [--ablation with-without|none] [--threshold T]
            [--output-dir DIR] [--json FILE] [--junit FILE] [--judge-model M] [--allow-tools T…] [--allow-real-servers] [--mocks on|off] [--write-scripts]   (a claude plugin eval suite)`;

/**
 * Where `proctor run` looks when given no files: ./evals when it holds eval files or is a claude
 * plugin eval suite (case directories), else ./examples (this repo's default).
 */
const DEFAULT_DIRS = ["evals", "examples"] as const;

function positive(text: string | undefined, flag: string, integer: boolean): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!(n > 0) || (integer && !Number.isInteger(n))) throw new InvalidInputError("INVALID_INPUT", `${flag} must be a positive ${integer ? "integer" : "number"}; got ${JSON.stringify(text)}`);
  return n;
}

// Writers and the harness are imported only when a run needs them: a run over recorded
// transcripts starts in a fraction of the time.
const baselineModules = async () => ({ ...(await import("../../reporters/baseline/format.js")), ...(await import("../../reporters/baseline/file.js")), ...(await import("../../reporters/baseline/diff.js")) });

/** How the tiers meet claude versions: the binary every trial runs (the version matrix), and where replays' version drift is noted. */
export interface TierVersions {
  /** Run every mock, replay and real trial on this claude, whatever the eval's spec names. */
  readonly claudePath?: string;
  /** Run every trial without claude's sandbox, for this reason (`--no-sandbox REASON`). */
  readonly sandboxOff?: string;
  /** Eval name → version-drift notes of its replays (known rewordings between claude versions). */
  readonly drift?: Map<string, Set<string>>;
}

/** The tiers, wired to the harness: imported only now, so `proctor run --list` spawns nothing. */
export async function loadTiers(fileOf: Map<EvalDefinition, string>, signal: AbortSignal, needed: ReadonlySet<string>, versions: TierVersions = {}): Promise<EvalTiers> {
  if (!needed.has("mock") && !needed.has("real") && !needed.has("replay")) return {};
  const harness = await import("../../harness/index.js");
  const { validateSpec } = await import("../../harness/claude/spec.js");
  // Relative paths in a spec (fixture, plugins, script files) are relative to the eval file.
  const withCwd = <S extends { cwd?: string }>(spec: S, definition: EvalDefinition): S => ({ ...spec, cwd: spec.cwd ?? dirname(fileOf.get(definition) ?? process.cwd()) });
  const pin = <S>(spec: S): S => ({
    ...spec,
    ...(versions.claudePath ? { claudePath: versions.claudePath } : {}),
    ...(versions.sandboxOff !== undefined ? { sandbox: { off: versions.sandboxOff } } : {}),
  });
  const { sandboxPreflight, sandboxState } = await import("../../harness/claude/sandbox.js");
  // Preflight: a sandbox that cannot run here is one clear error before any trial, not an error per trial.
  const preflightSandbox = (spec: { sandbox?: HarnessSpec["sandbox"] } | string) => {
    if (sandboxState(typeof spec === "string" ? undefined : pin(spec).sandbox, true).on) sandboxPreflight("proctor run");
  };
  const noteDrift = (definition: EvalDefinition, trace: Trace) => {
    const note = trace.replay ? driftText(trace.replay).replace(/^; /, "") : "";
    if (note && versions.drift) versions.drift.set(definition.name, (versions.drift.get(definition.name) ?? new Set()).add(note));
    return trace;
  };
  const collect = async (result: { trace: Trace; cleanup(): Promise<void> }) => {
    try {
      return result.trace;
    } finally {
      await result.cleanup();
    }
  };
  return {
    mock: {
      run: async (spec: MockSpec, _context: TrialContext, definition: EvalDefinition) => collect(await harness.runHarness({ ...withCwd(pin(spec) as HarnessSpec, definition), signal })),
      validate: (spec, definition) => {
        // Validated as it will run: relative paths (plugins, fixture) against the eval file.
        (validateSpec as (spec: unknown) => void)(withCwd(spec as HarnessSpec, definition));
        // Preflight: a missing binary is one clear error before any trial, not an error per trial.
        harness.resolveClaudeBinary({ claudePath: pin(spec).claudePath, cwd: spec.cwd ?? process.cwd() });
        preflightSandbox(spec as HarnessSpec);
      },
    },
    replay: {
      run: async (spec: ReplayTierSpec, _context: TrialContext, definition: EvalDefinition) =>
        noteDrift(definition, await collect(await harness.runReplay({ ...withCwd(pin(typeof spec === "string" ? { recording: spec } : spec), definition), signal }))),
      validate: (spec) => {
        if (typeof spec !== "string" && typeof spec?.recording !== "string") throw new InvalidInputError("INVALID_INPUT", "replay: needs a recording path (replay: \"recordings/run.jsonl\" or { recording, plugins, … })");
        harness.resolveClaudeBinary({ claudePath: versions.claudePath ?? (typeof spec === "string" ? undefined : spec.claudePath), cwd: process.cwd() });
        preflightSandbox(versions.sandboxOff !== undefined ? { sandbox: { off: versions.sandboxOff } } : spec);
      },
    },
    real: {
      run: async (spec: RealSpec, _context: TrialContext, definition: EvalDefinition) => collect(await harness.runEval({ ...withCwd(pin(spec), definition), signal })),
      validate: (spec, definition) => harness.validateEvalSpec(withCwd(spec, definition)),
      unavailable: () =>
        harness.apiKeyMissing(process.env, undefined) ? "ANTHROPIC_API_KEY is not set: the real tier calls the real API and costs money — set the key, or run with --mock" : undefined,
    },
  };
}

async function writeJson(file: string, value: unknown): Promise<void> {
  const { stringifySorted } = await import("../../reporters/baseline/file.js");
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, stringifySorted(value));
  } catch (error) {
    throw new InvalidInputError("INVALID_INPUT", `cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/**
 * With no paths: `./evals` as a claude plugin eval suite (as `claude plugin eval` reads its default
 * dir) when it holds case directories and no eval files; else [] and the eval-file defaults apply.
 */
async function defaultSuite(quiet: boolean): Promise<string[]> {
  const suite = await pluginEvalSuites([DEFAULT_DIRS[0]]);
  if (suite && !quiet) process.stderr.write(`proctor run: no eval files given — running the claude plugin eval suite in ./${DEFAULT_DIRS[0]}\n`);
  return suite ?? [];
}

/**
 * The positionals when every one is a `claude plugin eval` suite (a directory of case directories
 * and no eval files); undefined when none is. A mix is refused: the two kinds report differently.
 */
async function pluginEvalSuites(paths: readonly string[]): Promise<string[] | undefined> {
  const dirs = paths.filter((p) => existsSync(p) && statSync(p).isDirectory() && findEvalFiles(p).length === 0);
  if (dirs.length === 0) return undefined;
  const { isPluginEvalSuite } = await import("../../src/plugin-eval/read.js");
  const suites = dirs.filter(isPluginEvalSuite);
  if (suites.length === 0) return undefined;
  if (suites.length !== paths.length) throw new InvalidInputError("INVALID_INPUT", `${suites.join(", ")} ${suites.length === 1 ? "is a claude plugin eval suite" : "are claude plugin eval suites"}; run ${suites.length === 1 ? "it" : "them"} apart from eval files (${paths.filter((p) => !suites.includes(p)).join(", ")})`);
  return suites;
}

/** --mocks on|off of a suite run, refused when it is neither. */
function mocksSwitch(value: string | undefined): "on" | "off" | undefined {
  if (value === undefined || value === "on" || value === "off") return value;
  throw new InvalidInputError("INVALID_INPUT", `--mocks is on or off; got ${JSON.stringify(value)}\nusage: ${USAGE}`);
}

/** --detect, --power and --alpha of the ablation comparison, refused when malformed. */
function ablationOptions(values: { detect?: string | undefined; power?: string | undefined }, alpha: number | undefined): AblationOptions {
  const detect = values.detect === undefined ? undefined : Number(values.detect);
  if (detect !== undefined && !(Math.abs(detect) > 0 && Math.abs(detect) <= 1)) throw new InvalidInputError("INVALID_INPUT", `--detect must be a change in rate within (0, 1], like 0.2; got ${JSON.stringify(values.detect)}`);
  const power = values.power === undefined ? undefined : Number(values.power);
  if (power !== undefined && !(power > 0 && power < 1)) throw new InvalidInputError("INVALID_INPUT", `--power must be within (0, 1), like 0.8; got ${JSON.stringify(values.power)}`);
  return { ...(alpha !== undefined ? { alpha } : {}), ...(power !== undefined ? { power } : {}), ...(detect !== undefined ? { detect } : {}) };
}

/**
 * The exit code of a finished run: 1 when an eval did not pass (failed, skipped, incomplete, or
 * not run though its tier was chosen) or a check regressed against the baseline, else 0. The
 * statuses come from the same verdict the summary, the JUnit file and a reader of the JSON apply
 * (evalVerdict), so all four agree.
 */
export function runExitCode(outcomes: readonly EvalOutcome[], regressed = false): 0 | 1 {
  const failed = outcomes.some((o) => o.status === "failed" || o.status === "skipped" || o.status === "incomplete" || (o.status === "not-run" && o.tier !== undefined));
  return failed || regressed ? 1 : 0;
}

/** The signals that stop a run: Ctrl-C, a polite kill, a closed terminal. */
const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** The conventional exit code of a process ended by `signal`: 128 + its number (SIGINT 130, SIGTERM 143, SIGHUP 129). */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (osConstants.signals[signal] ?? 0);
}

/**
 * Abort the runs on the first stop signal and let them clean up (their processes are killed,
 * their temp dirs removed); on a second, exit at once — the exit hook kills what is left.
 */
export function interruptOn(controller: AbortController): { readonly signal: NodeJS.Signals | undefined; release(): void } {
  let received: NodeJS.Signals | undefined;
  const handlers = STOP_SIGNALS.map((signal) => {
    const handler = () => {
      if (received) {
        process.stderr.write(`proctor run: ${signal} again: killing every run now\n`);
        process.exit(signalExitCode(signal));
      }
      received = signal;
      process.stderr.write(`proctor run: ${signal}: stopping the runs and cleaning up (send it again to stop at once)\n`);
      controller.abort();
    };
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  return {
    get signal() {
      return received;
    },
    release() {
      for (const [signal, handler] of handlers) process.off(signal, handler);
    },
  };
}

/** Which evals the signal cut short (and which never started), for stderr. */
function describeInterruption(signal: NodeJS.Signals, outcomes: readonly EvalOutcome[]): string {
  const lines = outcomes.flatMap((o) => {
    const report = o.report;
    if (report?.stopped?.reason !== "aborted") return [];
    const ran = report.trials.completed + report.trials.errored;
    return [`  ${o.definition.name}: ${ran === 0 ? "not started" : `cut short after ${ran} of ${report.trials.requested} trials`}`];
  });
  return [
    `proctor run: interrupted by ${signal}; every run it started was stopped and its temp dirs removed. No gate was applied and no report or baseline written.`,
    ...(lines.length ? ["cut short:", ...lines] : []),
    "",
  ].join("\n");
}

/**
 * Run eval files: measure each eval on its tier, print the summary, write JUnit / JSON, hold the
 * reports to a baseline. Exit 0 all gates held, 1 a gate failed / an eval was skipped / a check
 * regressed, 2 bad input (including a real run without a key), 128 + the signal's number when
 * stopped by SIGINT (130), SIGTERM (143) or SIGHUP (129) after every run was cleaned up.
 */
const run: Command = async (argv) => {
  const { values, positionals } = parseCommandArgs(
    // `--allow-tools Bash Write`: space-separated tools, as claude plugin eval takes them.
    spreadVariadic(argv, "--allow-tools", looksLikeToolName),
    {
      eval: { type: "string", multiple: true },
      mock: { type: "boolean" },
      real: { type: "boolean" },
      replay: { type: "boolean" },
      trials: { type: "string" },
      concurrency: { type: "string" },
      shard: { type: "string" },
      junit: { type: "string" },
      json: { type: "string" },
      baseline: { type: "string" },
      "update-baseline": { type: "boolean" },
      alpha: { type: "string" },
      "budget-usd": { type: "string" },
      list: { type: "boolean" },
      quiet: { type: "boolean", short: "q" },
      traces: { type: "string" },
      "all-traces": { type: "boolean" },
      claude: { type: "string" },
      // A `claude plugin eval` suite (run-suite.ts).
      ablation: { type: "string" },
      threshold: { type: "string" },
      "output-dir": { type: "string" },
      "judge-model": { type: "string" },
      "write-scripts": { type: "boolean" },
      "allow-tools": { type: "string", multiple: true },
      "allow-real-servers": { type: "boolean" },
      mocks: { type: "string" },
      "no-sandbox": { type: "string" },
      ablate: { type: "string" },
      detect: { type: "string" },
      power: { type: "string" },
      forecast: { type: "boolean" },
      html: { type: "string" },
      "early-stop": { type: "boolean" },
    },
    USAGE,
  );
  if ([values.mock, values.real, values.replay].filter(Boolean).length > 1) throw new InvalidInputError("INVALID_INPUT", `--mock, --replay and --real exclude each other\nusage: ${USAGE}`);
  const tier: TierChoice = values.mock ? "mock" : values.real ? "real" : values.replay ? "replay" : "auto";
  const sandboxOff = values["no-sandbox"];
  if (sandboxOff !== undefined && sandboxOff.trim() === "") throw new InvalidInputError("INVALID_INPUT", `--no-sandbox needs the reason, e.g. --no-sandbox "the skill under test runs docker"\nusage: ${USAGE}`);
  const trials = positive(values.trials, "--trials", true);
  const concurrency = positive(values.concurrency, "--concurrency", true);
  const budgetUsd = positive(values["budget-usd"], "--budget-usd", false);
  const alpha = values.alpha === undefined ? undefined : Number(values.alpha);
  if (alpha !== undefined && !(alpha > 0 && alpha < 1)) throw new InvalidInputError("INVALID_INPUT", `--alpha must be within (0, 1), like 0.05; got ${JSON.stringify(values.alpha)}`);
  const ablation = ablationOptions(values, alpha);
  if (values["update-baseline"] && !values.baseline) throw new InvalidInputError("INVALID_INPUT", "--update-baseline needs --baseline FILE");
  if (values.shard && values.baseline) throw new InvalidInputError("INVALID_INPUT", "--baseline with --shard: a shard's report is partial — merge the shards (proctor merge), then `proctor baseline --check`");
  const baselineFile = values.baseline;
  let baseline: Baseline | undefined;
  if (baselineFile && !values["update-baseline"]) {
    if (!existsSync(baselineFile)) throw new InvalidInputError("INVALID_INPUT", `baseline ${baselineFile} does not exist`, { detail: "  record one first: proctor run … --baseline FILE --update-baseline" });
    baseline = (await baselineModules()).readBaseline(baselineFile);
  }

  const suiteDirs = await pluginEvalSuites(positionals.length > 0 ? positionals : await defaultSuite(values.quiet === true));
  if (suiteDirs) {
    if (values.list) {
      // Like --list on eval files: what would run, and nothing runs.
      const { readPluginEvalSuite } = await import("../../src/plugin-eval/read.js");
      const { selectByName } = await import("./select-evals.js");
      for (const dir of suiteDirs) for (const c of selectByName(readPluginEvalSuite(dir).cases, (c) => c.case.name, values.eval, dir)) process.stdout.write(`${c.case.name}  (claude plugin eval case · ${c.case.runs} runs · ${c.case.graders.length} graders)  ${c.relDir}\n`);
      return 0;
    }
    const { runSuiteCommand } = await import("./run-suite.js");
    if (values.ablation !== undefined && values.ablation !== "with-without" && values.ablation !== "none") throw new InvalidInputError("INVALID_INPUT", `--ablation is with-without or none; got ${JSON.stringify(values.ablation)}`);
    const threshold = values.threshold === undefined ? undefined : Number(values.threshold);
    if (threshold !== undefined && !(threshold >= 0 && threshold <= 1)) throw new InvalidInputError("INVALID_INPUT", `--threshold must be within 0..1; got ${JSON.stringify(values.threshold)}`);
    const controller = new AbortController();
    const interruption = interruptOn(controller);
    try {
      let code = 0;
      for (const dir of suiteDirs) {
        const suiteCode = await runSuiteCommand({
          dir,
          tier: tier === "auto" ? "mock" : tier,
          runs: trials,
          concurrency,
          threshold,
          ablation: values.ablation !== "none",
          outputDir: values["output-dir"],
          json: values.json,
          junit: values.junit,
          html: values.html,
          ...(values.eval ? { cases: values.eval } : {}),
          judgeModel: values["judge-model"],
          allowTools: values["allow-tools"],
          allowRealServers: values["allow-real-servers"] === true,
          mocks: mocksSwitch(values.mocks),
          writeScripts: values["write-scripts"] === true,
          quiet: values.quiet === true,
          signal: controller.signal,
        });
        code = Math.max(code, suiteCode);
      }
      return interruption.signal ? signalExitCode(interruption.signal) : code;
    } finally {
      interruption.release();
    }
  }
  for (const flag of ["ablation", "threshold", "output-dir", "judge-model", "write-scripts", "allow-tools", "allow-real-servers", "mocks"] as const) {
    if (values[flag] !== undefined) throw new InvalidInputError("INVALID_INPUT", `--${flag} is for claude plugin eval suites (an eval dir of case directories); ${positionals.join(", ") || "the given paths"} holds none\nusage: ${USAGE}`);
  }
  let paths = positionals;
  if (paths.length === 0) {
    const found = DEFAULT_DIRS.find((dir) => existsSync(dir) && statSync(dir).isDirectory() && findEvalFiles(dir).length > 0);
    if (!found) throw new InvalidInputError("INVALID_INPUT", `no eval files given, and none in ./${DEFAULT_DIRS.join(" or ./")} (nor case directories of a claude plugin eval suite in ./${DEFAULT_DIRS[0]})\nusage: ${USAGE}`);
    if (!values.quiet) process.stderr.write(`proctor run: no eval files given — running the *.eval.* files in ./${found}\n`);
    paths = [found];
  }
  const { selectByName } = await import("./select-evals.js");
  // --eval NAME: only the evals it names (a * in NAME matches any run of characters).
  const all = await loadEvalFiles(paths);
  const selected = new Set(selectByName(all.flatMap((l) => l.evals), (e) => e.name, values.eval, paths.join(", ")));
  const loaded = all.map((l) => ({ ...l, evals: l.evals.filter((e) => selected.has(e)) }));
  const definitions = loaded.flatMap((l) => l.evals);
  const fileOf = evalFileOf(loaded);

  if ((values.detect !== undefined || values.power !== undefined) && values.ablate === undefined && !definitions.some((d) => d.ablate !== undefined)) {
    throw new InvalidInputError("INVALID_INPUT", `--detect and --power plan an ablation; give --ablate plugin:NAME (or an eval's ablate field)\nusage: ${USAGE}`);
  }
  if (values.forecast) {
    const { forecastRun } = await import("./run-forecast.js");
    process.stdout.write(forecastRun({ definitions, tier, trials, baseline, ablate: values.ablate, earlyStop: values["early-stop"] === true }));
    return 0;
  }
  if (values.list) {
    for (const l of loaded) for (const e of l.evals) process.stdout.write(`${e.name}  (${e.tiers.join(", ")} · ${e.trials} trials · ${e.checks.length} checks)  ${l.file}\n`);
    return 0;
  }

  // The claude version matrix: the same evals on each listed claude, each check's rate per version.
  if (values.claude !== undefined) {
    if (values.ablate !== undefined) throw new InvalidInputError("INVALID_INPUT", `--claude runs a version matrix; it does not combine with --ablate (ablate on one version with PROCTOR_CLAUDE)\nusage: ${USAGE}`);
    if (values.baseline || values.shard || values.traces) throw new InvalidInputError("INVALID_INPUT", `--claude runs a version matrix; it does not combine with --baseline, --shard or --traces (run one version with PROCTOR_CLAUDE for those)\nusage: ${USAGE}`);
    const { runMatrix } = await import("./run-matrix.js");
    return runMatrix({ list: values.claude, definitions, fileOf, tier, trials, concurrency, budgetUsd, quiet: values.quiet === true, alpha, json: values.json, junit: values.junit, ...(sandboxOff !== undefined ? { sandboxOff } : {}), ...(values["early-stop"] ? { earlyStop: true } : {}) });
  }
  if (values["all-traces"] && !values.traces) throw new InvalidInputError("INVALID_INPUT", `--all-traces needs --traces DIR (where to keep them)\nusage: ${USAGE}`);
  const controller = new AbortController();
  const interruption = interruptOn(controller);
  const drift = new Map<string, Set<string>>();
  let outcomes: EvalOutcome[];
  try {
    await installBuiltInJudge(definitions.flatMap((d) => d.checks));
    const needed = new Set(definitions.map((d) => chooseTier(d, tier)).filter((t): t is "mock" | "replay" | "real" | "run" => typeof t === "string"));
    const tiers = await loadTiers(fileOf, controller.signal, needed, { drift, ...(sandboxOff !== undefined ? { sandboxOff } : {}) });
    outcomes = await runEvals(definitions, {
      tiers,
      tier,
      trials,
      concurrency,
      budgetUsd,
      shard: values.shard,
      progress: values.quiet ? false : "auto",
      ...(values.traces ? { traces: { dir: values.traces, keep: values["all-traces"] ? "all" : "failing" } } : {}),
      signal: controller.signal,
      ...(values.ablate !== undefined ? { ablate: values.ablate } : {}),
      ablation,
      ...(values["early-stop"] ? { earlyStop: true } : {}),
      baseDir: (d) => {
        const file = fileOf.get(d);
        return file ? dirname(file) : undefined;
      },
    });
  } finally {
    interruption.release();
  }
  if (interruption.signal) {
    process.stdout.write(renderRunSummary(outcomes));
    process.stderr.write(describeInterruption(interruption.signal, outcomes));
    return signalExitCode(interruption.signal);
  }
  if (outcomes.every((o) => o.status === "not-run")) {
    process.stdout.write(renderRunSummary(outcomes));
    throw new InvalidInputError("INVALID_INPUT", `no eval ran: ${outcomes[0]?.note ?? "nothing to run"}`);
  }

  process.stdout.write(renderRunSummary(outcomes));
  for (const [name, notes] of drift) for (const note of notes) process.stdout.write(`${name}: ${note}\n`);
  const tracesDir = values.traces;
  if (tracesDir) process.stdout.write(renderTraceHints(outcomes, (name) => tracesDirOf(tracesDir, name)));
  // An ablated eval's arm without the component is a report of its own (named `<eval> [without …]`).
  const reports = outcomes.flatMap((o) => [...(o.report ? [o.report] : []), ...(o.without ? [o.without] : [])]);
  let diff: BaselineDiff | undefined;
  if (baselineFile && values["update-baseline"]) {
    const { createBaseline, readBaseline, writeBaseline } = await baselineModules();
    const previous = existsSync(baselineFile) ? readBaseline(baselineFile) : undefined;
    writeBaseline(baselineFile, createBaseline(reports, previous));
    process.stdout.write(`baseline ${baselineFile} updated: ${reports.map((r) => r.name).join(", ")}\n`);
  } else if (baseline) {
    const { diffBaseline, renderBaselineDiff } = await baselineModules();
    diff = diffBaseline(baseline, reports, alpha === undefined ? {} : { alpha });
    process.stdout.write(`\nagainst baseline ${baselineFile}:\n${renderBaselineDiff(diff)}`);
  }
  // One eval: its CheckReport (what `proctor merge` reads); several: an array of them.
  // Always an array, one report per eval that ran: the shape doesn't change with the number of evals.
  if (values.json) await writeJson(values.json, reports);
  if (values.html) {
    const { renderRunReportHtml } = await import("../../reporters/html/run-report.js");
    try {
      mkdirSync(dirname(values.html), { recursive: true });
      writeFileSync(values.html, renderRunReportHtml(reports));
    } catch (error) {
      throw new InvalidInputError("INVALID_INPUT", `cannot write ${values.html}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  if (values.junit) {
    const { diffSuites, reportSuites } = await import("../../reporters/junit/from-reports.js");
    const { buildJunitXml, writeJunit } = await import("../../reporters/junit/xml.js");
    writeJunit(values.junit, buildJunitXml([...reportSuites(reports), ...(diff ? diffSuites(diff) : [])], "proctor run"));
  }

  return runExitCode(outcomes, diff?.regressed === true);
};
export default run;
