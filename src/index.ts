/**
 * proctor — test coding agents with the rigour of unit tests and the statistics of evals.
 * The core: the Trace model, the check vocabulary, the strict verdict, measurement and evals.
 * The safety layer (shell classifier, effects, policies, rungs, envelopes, contracts) is
 * `proctor/safety`; running agents is `proctor/harness`.
 */

// The Trace: what one run did, read from a transcript
import type { ArmsResult, MeasureArmsOptions } from "./measure/arms.js";
import type { EvalDefinition } from "./eval/define.js";
import type { LoadedEvalFile } from "./eval/load.js";
import type { MeasureOptions } from "./measure/measure.js";
import type { CheckReport } from "./measure/types.js";
import type { EvalOutcome, RunEvalsOptions } from "./eval/run-evals.js";
import type { Trace } from "./trace/types.js";

export type {
  Trace,
  ToolCall,
  ToolStatus,
  SubagentRun,
  SkillActivation,
  HookEvent,
  Reply,
  FileChange,
  FileRecord,
  OutsideWrites,
  ObservedEffect,
  ObservedOwner,
  Observation,
  Confinement,
  ConfinementRefusal,
  ModelRequest,
  Usage,
  TraceSource,
  RunProblem,
  RunOutcome,
  RunSegment,
  DeniedBy,
  Divergence,
  ReplayRecord,
  PreflightWarning,
  VersionDrift,
} from "./trace/types.js";
export { validateTrace } from "./trace/schema.js";
export { parseTranscript, readTranscript } from "./trace/transcript.js";
export type { TranscriptLimits } from "./trace/transcript.js";

// Checks: the vocabulary, custom checks, checks as JSON, and the verdict
export type { Check, CheckJSON, CheckResult, Verdict, JudgeRecord } from "./checks/check.js";
export { defineCheck, evalChecks, evaluateChecks } from "./checks/check.js";
export { assertChecks, expect, ChecksFailedError } from "./expect.js";
export { tool, toolWith, notTool, onlyTools, toolCount, mcp } from "./checks/tools.js";
export type { ArgMatcher, ArgValue } from "./match/arg-match.js";
export { denied } from "./checks/denied.js";
export type { DeniedOptions, DeniedByOption } from "./checks/denied.js";
export { toolStatus, toolStatuses } from "./checks/tool-status.js";
export { toolResult } from "./checks/tool-result.js";
export type { ToolResultOptions } from "./checks/tool-result.js";
export { hookSaid } from "./checks/hook-said.js";
export type { HookSaidOptions, HookPart } from "./checks/hook-said.js";
export { fileContains } from "./checks/file-contains.js";
export { withinAllowedTools } from "./contracts/allowed-tools.js";
export { output, eachReply, replyCount, received, turns } from "./checks/text.js";
export { hookFired, skill } from "./checks/run.js";
export { wrote, deleted, didNotWrite, wroteOnly } from "./checks/files.js";
export { effects } from "./checks/effects.js";
export type { ExpectedEffects } from "./checks/effects.js";
export { subagent } from "./checks/subagent.js";
export { cost, latency, tokens, inputTokens, outputTokens, cacheTokens } from "./checks/resources.js";
export type { UsageTrace } from "./checks/resources.js";
export { judged, custom, setDefaultJudge } from "./checks/judged.js";
export type { JudgeFn, JudgeInput, JudgeVerdict, CustomVerdict } from "./checks/judged.js";
export { trajectory } from "./checks/trajectory.js";
export type { TrajectoryMode, ArgsMode, TrajectoryStep, TrajectoryOptions } from "./checks/trajectory.js";
export { blocked, allowed } from "./checks/hook-result.js";
export type { HookRunResult, BlockMechanism } from "./hook/types.js";
export { advertised, notOffered } from "./checks/advertised.js";
export { replayMatches } from "./checks/replay.js";
export type { ReplayMatchOptions } from "./checks/replay.js";
export {
  defineTriggerSuite,
  measureTriggers,
  scoreTriggers,
  collisionMatrix,
  triggerFired,
  firedTargets,
  renderTriggerReport,
  type TriggerSuite,
  type TriggerTarget,
  type TriggerTrial,
  type TriggerReport,
  type CollisionMatrix,
  type MeasureTriggersOptions,
} from "./measure/triggers.js";
export { checkFromJSON, checksFromJSON, registerCheckKind, knownCheckKinds } from "./checks/from-json.js";

// Errors: every refusal is a ProctorError with a code
export { ProctorError, isProctorError, InvalidInputError, TranscriptError, ConfigError, ReportError, RunError, InternalError } from "./errors/proctor-error.js";
export type { ProctorErrorCode, ProctorErrorOptions } from "./errors/proctor-error.js";
export { InvalidCheckError } from "./checks/validate.js";

// Run health: did the run the eval asked for actually happen?
export { assessHealth, describeHealth, HEALTH_ITEMS } from "./health/run-health.js";
export type { HealthItem, HealthItemName, HealthSwitches, HealthExpectations, RunHealth } from "./health/run-health.js";
export { RunUnhealthyError, trialHealth, validateHealthSwitches } from "./health/gate.js";

// measure: trials, statistics, gates, arms, shards, merge, compare
export type { MeasureOptions, TrialContext } from "./measure/measure.js";
export type { Budget, EarlyStop } from "./measure/stopping.js";
export type { ProgressOptions, ProgressState } from "./measure/progress.js";
export { assertRates, evaluateThresholds, RatesBelowThresholdError } from "./measure/thresholds.js";
export type { ThresholdRow, ThresholdVerdict } from "./measure/thresholds.js";
export { compareReports } from "./measure/compare-reports.js";
export type { ReportComparison, CheckComparison, ChangeVerdict, CompareOptions, SideCounts } from "./measure/compare-reports.js";
export type { MeasureArmsOptions, ArmsResult } from "./measure/arms.js";
export { shardTrials, parseShard, formatShard } from "./measure/shard.js";
export type { TrialRange } from "./measure/shard.js";
export { mergeReports, missingShards } from "./measure/merge.js";
export { CHECK_REPORT_SCHEMA, validateCheckReport, parseCheckReport } from "./measure/schema.js";
export { REPORT_VERSION } from "./measure/types.js";
export type { CheckReport, CheckStats, TrialError, HealthTotals, TrialFailure, TrialSummary, UsageTotals, Thresholds, StopInfo, ShardSpec, ReportMetadata, Timing, IncompleteInfo } from "./measure/types.js";
export { seededRandom, trialRandom } from "./measure/random.js";
export type { Random } from "./measure/random.js";
export { wilsonInterval } from "./stats/proportion.js";
export type { Interval } from "./stats/proportion.js";
export { passAtK, passHatK } from "./stats/pass-at-k.js";
export { fisherExact } from "./stats/fisher.js";
export type { Counts } from "./stats/fisher.js";
export { compareProportions, holmAdjust } from "./stats/compare.js";
export type { ProportionComparison } from "./stats/compare.js";
export { sequenceInterval, sequenceP, differenceSequence, verdictAgainst } from "./stats/sequence.js";
export { stoppingCurve, sequenceRule, repeatedWilsonRule, fixedRule, fixedTrialsForPower } from "./stats/sequential-design.js";
export type { StopRule, StoppingCurve } from "./stats/sequential-design.js";
export { fisherPower, trialsPerArm, detectableDelta } from "./stats/power.js";
export { ablateSpec, compareAblation, parseComponent, formatAblationCheck } from "./measure/ablation.js";
export { forecastEval, renderForecast } from "./measure/forecast.js";
export type { CheckForecast, EvalForecast, ForecastInput } from "./measure/forecast.js";
export type { AblatedComponent, AblatableSpec, AblationCheck, AblationInfo, AblationOptions, ArmCounts } from "./measure/ablation.js";
export type { AblationEarlyStop, SequentialStop } from "./measure/ablation-stop.js";
export { pairedSequence, pairedVerdict } from "./stats/paired-sequence.js";
export type { PairedCounts, PairedVerdict } from "./stats/paired-sequence.js";
export { pairedStoppingCurve, discordantRule } from "./stats/paired-design.js";
export type { PairedCurve } from "./stats/paired-design.js";

// evals: declared with defineEval, run by `proctor run` (or runEvals in code)
export { defineEval, definedIn, isEvalDefinition } from "./eval/define.js";
export type { EvalSpec, EvalDefinition, MockSpec, ReplayTierSpec, RealSpec, PerTrial } from "./eval/define.js";
export type { LoadedEvalFile } from "./eval/load.js";
export type { RunEvalsOptions, EvalOutcome, EvalTiers, TierRunner, TierChoice, Tier } from "./eval/run-evals.js";

// The asynchronous entry points load their modules on first call: most importers of proctor only
// read transcripts and check them, and a module graph they never run still costs every process
// its read and compile. Each wrapper has the signature of the function it loads.

/** Run the trials and return the CheckReport. Rejects only for bad options, never for a bad trial. */
export async function measure<T = Trace>(options: MeasureOptions<T>): Promise<CheckReport> {
  return (await import("./measure/measure.js")).measure(options);
}

/** Measure every arm and compare each with the first: `{ arms: { baseline, candidate } }`. */
export async function measureArms<T = Trace>(options: MeasureArmsOptions<T>): Promise<ArmsResult> {
  return (await import("./measure/arms.js")).measureArms(options);
}

/** Load several eval files (directories are searched for *.eval.* files); eval names must be unique across them. */
export async function loadEvalFiles(paths: readonly string[]): Promise<LoadedEvalFile[]> {
  return (await import("./eval/load.js")).loadEvalFiles(paths);
}

/**
 * Run every eval in order and gate each report with its thresholds. Bad input (a malformed spec,
 * an unavailable tier such as the real API without a key) is refused before the first trial.
 */
export async function runEvals(definitions: readonly EvalDefinition[], options: RunEvalsOptions): Promise<EvalOutcome[]> {
  return (await import("./eval/run-evals.js")).runEvals(definitions, options);
}
