/**
 * proctor — test coding agents with the rigour of unit tests and the statistics of evals.
 * The core: the Trace model, the check vocabulary, and the strict verdict.
 */
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
  ModelRequest,
  Usage,
  TraceSource,
  RunError,
  RunOutcome,
  DeniedBy,
  Divergence,
  ReplayRecord,
} from "./trace/types.js";
export { TOOL_STATUSES, MAIN_AGENT, DENIED_BY } from "./trace/types.js";
export { validateTrace, traceErrors, TRACE_SCHEMA } from "./trace/schema.js";
export { parseTranscript, readTranscript } from "./trace/transcript.js";
export type { TranscriptLimits } from "./trace/transcript.js";
export { subagentView, mainAgentView } from "./trace/scope.js";
export { diffReplay } from "./trace/replay-diff.js";
export { replayMatches } from "./checks/replay.js";
export type { ReplayMatchOptions } from "./checks/replay.js";

export type { Check, CheckJSON, CheckResult, Verdict } from "./checks/check.js";
export { defineCheck, evalChecks, evaluateChecks } from "./checks/check.js";
export { assertChecks, expect, ChecksFailedError } from "./expect.js";
export { tool, toolWith, notTool, onlyTools, toolCount, mcp, baseToolName } from "./checks/tools.js";
export { denied } from "./checks/denied.js";
export type { DeniedOptions, DeniedByOption } from "./checks/denied.js";
export { output, experimental_eachReply, experimental_replyCount, received, turns } from "./checks/text.js";
export { experimental_eachReply as eachReply, experimental_replyCount as replyCount } from "./checks/text.js";
export { hookFired, skill } from "./checks/run.js";
export { wrote, didNotWrite, wroteOnly } from "./checks/files.js";
export { subagent } from "./checks/subagent.js";
export { cost, latency, tokens, inputTokens, outputTokens, cacheTokens } from "./checks/resources.js";
export type { UsageTrace } from "./checks/resources.js";
export { judged, custom, setDefaultJudge } from "./checks/judged.js";
export type { JudgeFn, JudgeInput, JudgeVerdict, CustomVerdict } from "./checks/judged.js";
export type { JudgeRecord } from "./checks/check.js";
export { trajectory } from "./checks/trajectory.js";
export type { TrajectoryMode, ArgsMode, TrajectoryStep, TrajectoryOptions } from "./checks/trajectory.js";
export { blocked, allowed } from "./checks/hook-result.js";
export { advertised } from "./checks/advertised.js";
export { checkFromJSON, checksFromJSON, registerCheckKind, knownCheckKinds } from "./checks/from-json.js";
export { InvalidCheckError } from "./checks/validate.js";

export type { ArgMatcher, ArgValue } from "./match/arg-match.js";
export { matchArgs } from "./match/arg-match.js";
export type { HookRunResult, BlockMechanism } from "./hook/types.js";
export { interpretHookOutput } from "./hook/interpret.js";
export { ProctorError, isProctorError } from "./errors/proctor-error.js";
export type { ProctorErrorCode } from "./errors/proctor-error.js";

// measure: trials, statistics, gates, arms, shards
export { measure, isSkipError } from "./measure/measure.js";
export type { MeasureOptions, TrialContext } from "./measure/measure.js";
export type { Budget, EarlyStop } from "./measure/stopping.js";
export type { ProgressOptions, ProgressState } from "./measure/progress.js";
export { renderProgress } from "./measure/progress.js";
export { assertRates, evaluateThresholds, thresholdFor, validateThresholds, formatRate, RatesBelowThresholdError, incompleteness } from "./measure/thresholds.js";
export type { ThresholdRow, ThresholdVerdict } from "./measure/thresholds.js";
export { compareReports } from "./measure/compare-reports.js";
export type { ReportComparison, CheckComparison, ChangeVerdict, CompareOptions, SideCounts } from "./measure/compare-reports.js";
export { measureArms } from "./measure/arms.js";
export type { MeasureArmsOptions, ArmsResult } from "./measure/arms.js";
export { shardTrials, parseShard, formatShard } from "./measure/shard.js";
export type { TrialRange } from "./measure/shard.js";
export { mergeReports, missingShards } from "./measure/merge.js";
export { CHECK_REPORT_SCHEMA, validateCheckReport, parseCheckReport, parseCheckReports, checkReportErrors } from "./measure/schema.js";
export { REPORT_VERSION } from "./measure/types.js";
export type { CheckReport, CheckStats, TrialError, TrialFailure, TrialSummary, UsageTotals, Thresholds, StopInfo, ShardSpec, ReportMetadata, Timing, IncompleteInfo } from "./measure/types.js";
export { seededRandom, trialRandom } from "./measure/random.js";
export type { Random } from "./measure/random.js";
export { wilsonInterval, standardError } from "./stats/proportion.js";
export type { Interval } from "./stats/proportion.js";
export { passAtK, passHatK } from "./stats/pass-at-k.js";
export { fisherExact } from "./stats/fisher.js";
export type { Counts } from "./stats/fisher.js";
export { compareProportions, holmAdjust } from "./stats/compare.js";
export type { ProportionComparison } from "./stats/compare.js";
export { normalQuantile } from "./stats/normal.js";

// evals: declared with defineEval, run by `proctor run`
export { defineEval, isEvalDefinition } from "./eval/define.js";
export type { EvalSpec, EvalDefinition, MockSpec, RealSpec, PerTrial } from "./eval/define.js";
export { loadEvalFile, loadEvalFiles, evalsOfModule } from "./eval/load.js";
export type { LoadedEvalFile } from "./eval/load.js";
export { runEvals, chooseTier } from "./eval/run-evals.js";
export type { RunEvalsOptions, EvalOutcome, EvalTiers, TierRunner, TierChoice, Tier } from "./eval/run-evals.js";

// safety layer: effects and purity, the shell classifier, policies, Rule of Two, rungs, envelopes, contracts
export type { BashEffect, BashVerdict } from "./effects/bash/classify.js";
export type { BashContext } from "./effects/bash/classify.js";
export { PROGRAM_KEYS, PROGRAM_ENV } from "./effects/bash/context/program-keys.js";
export type { ProgramKey, ProgramEnv } from "./effects/bash/context/program-keys.js";
export { classifyBash, isReadOnlyBash, explainBash } from "./effects/bash/classify.js";
export { loadShellParser } from "./effects/bash/parser.js";
export type { HarnessDialect } from "./effects/dialect.js";
export { claudeCodeDialect, codexDialect, shellCommandOf } from "./effects/dialect.js";
export type { ToolEffect, PurityLevel, EffectSurface, PureViolation } from "./effects/effects.js";
export { classifyToolEffect, effectSurface, purityViolations, pureContractViolations, PURITY_LEVELS } from "./effects/effects.js";
export type { PurityGateDecision } from "./effects/purity-gate.js";
export { decidePurityGate } from "./effects/purity-gate.js";
export type { TrifectaLegs } from "./effects/trifecta.js";
export { classifyTrifectaLegs, holdsLethalTrifecta } from "./effects/trifecta.js";
export { simpleCommands, commandMatchesPattern } from "./effects/bash/simple-commands.js";
export type {
  TrifectaLeg,
  PolicySideEffectClass,
  ToolCallFacts,
  PermissionEffect,
  ToolRuleEffect,
  ToolArgumentRule,
  ToolArgumentPolicy,
  ToolPolicyDecision,
  PermissionDecision,
  NameDenialDecision,
} from "./policy/tool-argument-policy.js";
export { evaluatePermissionDecision, evaluateToolArgumentPolicy, isToolDeniedByName } from "./policy/tool-argument-policy.js";
export type { RuleOfTwoProfile, RuleOfTwoCompilation } from "./policy/rule-of-two.js";
export { buildRuleOfTwoPolicy } from "./policy/rule-of-two.js";
export type { ToolFactOverride } from "./policy/tool-facts.js";
export { toolCallFacts } from "./policy/tool-facts.js";
export type { PolicyFile } from "./policy/policy-file.js";
export { parsePolicy, parsePolicyText, readPolicyFile } from "./policy/policy-file.js";
export type { ApprovalRung, BuiltInToolAccess, DescribableTool, GateQuery } from "./policy/rungs.js";
export {
  APPROVAL_RUNGS,
  RUNG_TOOL_DESCRIPTION_SUFFIXES,
  BUILT_IN_TOOL_ACCESS,
  getRungToolDescriptionSuffix,
  isAccessClassGrantedAtRung,
  isGrantedAtRung,
  isToolGatedAtRung,
  resolveGatedToolNames,
  stripRungToolDescriptionSuffix,
  applyRungAwareToolDescriptions,
} from "./policy/rungs.js";
export type {
  ToolResultStatus,
  ProposeTransitionEffect,
  RequireInstructionEffect,
  ProposedEffect,
  InstructionDeliveryLease,
  ToolResultEnvelope,
  ReadToolResultEnvelope,
  InstructionLease,
  PendingToolTransition,
} from "./policy/envelope.js";
export {
  TOOL_RESULT_STATUSES,
  readToolResultEnvelope,
  explainStatusOnlyNearMiss,
  tenantOf,
  activeLeaseIds,
  pruneLeases,
} from "./policy/envelope.js";
export { toolStatus, purity, lethalTrifecta } from "./checks/safety.js";
export { skillContract, readSkillDeclaration } from "./contracts/skill-contract.js";
export type { SkillDeclaration } from "./contracts/skill-contract.js";
export { skillTools, skillPurity } from "./contracts/skill-scope.js";
export type { GateOptions, GateDecision, GateAnswer } from "./policy/gate.js";
export { decideGate, gateNeedsShell } from "./policy/gate.js";
