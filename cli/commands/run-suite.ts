/**
 * `proctor run evals/` over a `claude plugin eval` suite: every case on both arms (with and
 * without the plugin) on the mock, a replay or the real API, scored like claude scores it into an
 * aggregate-result.json, plus proctor's own reports (JSON CheckReports, JUnit).
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import type { CheckReport } from "../../src/measure/types.js";
import { readPluginEvalSuite } from "../../src/plugin-eval/read.js";
import { grantNotices, grantTools } from "../../src/plugin-eval/grant-notices.js";
import { aggregateResult, runPluginEvalSuite, type RunRecord, type SuiteOutcome } from "../../src/plugin-eval/run-suite.js";
import type { Arm } from "../../src/plugin-eval/score.js";
import type { SuiteCase } from "../../src/plugin-eval/types.js";

export interface SuiteRunOptions {
  readonly dir: string;
  /** Only the cases these names (or `*` patterns) match (`proctor run EVAL_DIR --eval NAME`). */
  readonly cases?: readonly string[] | undefined;
  readonly tier: "mock" | "replay" | "real";
  readonly runs?: number | undefined;
  readonly concurrency?: number | undefined;
  readonly threshold?: number | undefined;
  readonly ablation: boolean;
  readonly outputDir?: string | undefined;
  readonly json?: string | undefined;
  readonly junit?: string | undefined;
  /** The HTML report of the suite's CheckReports (one per case and arm). */
  readonly html?: string | undefined;
  readonly judgeModel?: string | undefined;
  readonly allowTools?: readonly string[] | undefined;
  /** Start the plugin's MCP servers the suite does not mock (claude's --allow-real-servers). */
  readonly allowRealServers?: boolean | undefined;
  /** `off`: run without the suite's mocks/ (claude's --mocks off). */
  readonly mocks?: "on" | "off" | undefined;
  readonly writeScripts: boolean;
  readonly quiet: boolean;
  readonly signal: AbortSignal;
}

const fmt = (n: number) => n.toFixed(2);
const signed = (n: number) => `${n > 0 ? "+" : ""}${n.toFixed(2)}`;

/** One line per case, as claude prints them. */
export function caseLine(outcome: SuiteOutcome["cases"][number], threshold: number): string {
  const a = outcome.aggregates;
  const runs = outcome.arms.with.length + (outcome.arms.without?.length ?? 0);
  const mark = a.score >= threshold ? "✓" : "✗";
  if (a.scoreWithout !== undefined && a.delta !== undefined) return `${mark} ${outcome.case.case.name}  with ${fmt(a.score)}  without ${fmt(a.scoreWithout)}  Δ ${signed(a.delta)}  (${runs} runs)`;
  return `${mark} ${outcome.case.case.name}  score ${fmt(a.score)}  pass ${Math.round(a.passRate * 100)}%  (${runs} runs)`;
}

/** Agent text on one line: control and format characters become a space (as claude prints it). */
const oneLine = (text: string) => text.replace(/[\p{Cc}\p{Cf}\u2028\u2029]+/gu, " ");

/** A case's runs, each with its score and every grader's verdict and reason, as claude prints them. */
export function runLines(outcome: SuiteOutcome["cases"][number], ablation: boolean): string[] {
  const name = outcome.case.case.name;
  const arms: [string, readonly RunRecord[]][] = [["with", outcome.arms.with], ...(outcome.arms.without ? [["without", outcome.arms.without] as [string, readonly RunRecord[]]] : [])];
  return arms.flatMap(([arm, runs]) =>
    runs.flatMap((run, i) => {
      const why = run.error ? `  error: ${oneLine(run.error)}` : run.aborted ? `  aborted by mock ${run.aborted.server}/${run.aborted.tool}: ${oneLine(run.aborted.reason)}` : "";
      return [
        `  ${name} run ${i + 1}/${runs.length}${ablation ? ` [${arm}]` : ""}: score ${run.score.toFixed(2)}${why}`,
        ...run.graders.map((g) => `    ${g.passed ? "✓" : "✗"} ${oneLine(g.name)}${g.withOnly ? " [with-only, not scored]" : ` (weight ${g.weight})`}: ${oneLine(g.explanation)}`),
      ];
    }),
  );
}

/** First scripts from a real run: the with arm's first run of each case, as its sidecar and its recording (never overwriting). */
function scriptWriter(written: string[], scriptFromTranscript: (stdout: string) => { turns: unknown; subagents?: unknown }) {
  return (c: SuiteCase, arm: Arm, trial: number, stdout: string) => {
    if (arm !== "with" || trial !== 0) return;
    const recording = join(c.dir, "proctor.recording.jsonl");
    if (!existsSync(recording)) {
      writeFileSync(recording, stdout);
      written.push(recording);
    }
    const script = join(c.dir, "proctor.script.json");
    if (!existsSync(script)) {
      const { turns, subagents } = scriptFromTranscript(stdout);
      writeFileSync(script, `${JSON.stringify({ turns, ...(subagents ? { subagents } : {}), judge: {} }, null, 2)}\n`);
      written.push(script);
    }
  };
}

export async function runSuiteCommand(options: SuiteRunOptions): Promise<number> {
  const { selectByName } = await import("./select-evals.js");
  const read = readPluginEvalSuite(options.dir);
  const suite = { ...read, cases: selectByName(read.cases, (c) => c.case.name, options.cases, options.dir) };
  if (options.writeScripts && options.tier !== "real") throw new InvalidInputError("INVALID_INPUT", "--write-scripts writes first scripts from real runs: use it with --real");
  if (options.ablation && !suite.pluginDir) throw new InvalidInputError("INVALID_INPUT", `${options.dir}: no plugin beside the eval dir (${dirname(suite.root)}/.claude-plugin/plugin.json), so there is no without-plugin arm`, { hint: "run with --ablation none, or keep the suite in the plugin's evals/ directory" });
  const { suiteTier } = await import("../../harness/plugin-eval/trial.js");
  const written: string[] = [];
  // Loaded only for a run that writes scripts.
  const fromTranscript = options.writeScripts ? (await import("../../mock-model/replay/script-from-transcript.js")).scriptFromTranscript : undefined;
  const tier = suiteTier(suite, { tier: options.tier, claudePath: process.env.PROCTOR_CLAUDE, judgeModel: options.judgeModel, allowTools: options.allowTools, allowRealServers: options.allowRealServers, mocks: options.mocks, signal: options.signal, ...(fromTranscript ? { onStream: scriptWriter(written, fromTranscript) } : {}) });
  if (tier.mocks && !options.quiet) {
    process.stderr.write(`mocked: ${tier.mocks.servers.join(", ")}${tier.mocks.withheld.length ? ` · not started (no mock): ${tier.mocks.withheld.join(", ")} — their tools are unavailable; --allow-real-servers starts them` : ""}\n`);
    for (const w of tier.mocks.warnings) process.stderr.write(`⚠ ${w}\n`);
  }
  // Before any run, as claude does: a grader no granted tool can satisfy would silently score 0.
  for (const c of suite.cases) {
    const e = c.case.execution;
    const grant = grantTools(e.allowed_tools, options.allowTools ?? [], e.disallowed_tools);
    if (grant.withheld.length && !options.quiet) process.stderr.write(`  ${c.case.name}: not granted (missing --allow-tools grant, or a malformed entry): ${grant.withheld.join(", ")}\n`);
    for (const n of grantNotices(c.case, grant.allowed, e.disallowed_tools, tier.mocks?.tools)) process.stderr.write(`⚠ case "${c.case.name}": ${n.text}\n`);
  }
  const startedAt = new Date();
  const outcome = await runPluginEvalSuite(suite, {
    runTrial: tier.runTrial,
    judge: tier.judge,
    ablation: options.ablation,
    runs: options.runs,
    concurrency: options.concurrency,
    threshold: options.threshold,
    progress: options.quiet ? false : "auto",
    signal: options.signal,
    onCase: () => {},
  }).finally(() => tier.close());
  for (const c of outcome.cases) {
    if (!options.quiet) for (const line of runLines(c, outcome.ablation)) process.stdout.write(`${line}\n`);
    process.stdout.write(`${caseLine(c, outcome.threshold)}\n`);
  }
  const a = outcome.aggregates;
  process.stdout.write(`${a.casesTotal} case(s) · ${a.casesPassed} passed · score ${fmt(a.overallScore)}${a.meanDelta !== undefined ? ` · mean Δ ${signed(a.meanDelta)}` : ""}\n`);
  const reports: CheckReport[] = outcome.cases.flatMap((c) => [c.reports.with, ...(c.reports.without ? [c.reports.without] : [])]);
  const costUsd = reports.reduce((sum, r) => sum + r.usage.costUsd, 0);
  const outDir = options.outputDir ?? join(suite.root, "results", startedAt.toISOString().replace(/[:.]/g, "-"));
  const file = join(outDir, "aggregate-result.json");
  const version = await versionOf(process.env.PROCTOR_CLAUDE);
  try {
    mkdirSync(outDir, { recursive: true });
    const result = aggregateResult(outcome, { ...(version ? { claudeVersion: version } : {}), startedAt: startedAt.toISOString(), durationSeconds: Math.round((Date.now() - startedAt.getTime()) / 1000), costUsd });
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    if (options.json) writeFileSync(options.json, `${JSON.stringify(reports, null, 2)}\n`);
  } catch (error) {
    throw new InvalidInputError("INVALID_INPUT", `cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  process.stdout.write(`wrote ${file}\n`);
  if (options.html) {
    const { renderRunReportHtml } = await import("../../reporters/html/run-report.js");
    try {
      mkdirSync(dirname(options.html), { recursive: true });
      writeFileSync(options.html, renderRunReportHtml(reports, { title: `claude plugin eval suite ${suite.root}` }));
    } catch (error) {
      throw new InvalidInputError("INVALID_INPUT", `cannot write ${options.html}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    process.stdout.write(`wrote ${options.html}\n`);
  }
  if (options.junit) {
    const { reportSuites } = await import("../../reporters/junit/from-reports.js");
    const { buildJunitXml, writeJunit } = await import("../../reporters/junit/xml.js");
    writeJunit(options.junit, buildJunitXml(reportSuites(reports), "proctor run"));
  }
  for (const w of written) process.stdout.write(`wrote ${w}\n`);
  return a.casesPassed === a.casesTotal ? 0 : 1;
}

async function versionOf(claudePath: string | undefined): Promise<string | undefined> {
  const { resolveClaudeBinary } = await import("../../harness/claude/binary.js");
  const { claudeVersionOf } = await import("../../harness/claude/versions.js");
  return claudeVersionOf(resolveClaudeBinary({ claudePath, cwd: process.cwd() })).catch(() => undefined);
}
