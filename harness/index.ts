/**
 * proctor/harness — producers of Traces: the real claude binary driven by the scripted mock
 * model (runHarness), one hook command run the way Claude Code runs it (runHook), and recorded
 * transcripts (parseTranscript / readTranscript).
 */
export { runHarness, DEFAULT_PERMISSION_MODE, DEFAULT_TIMEOUT_MS } from "./claude/run-harness.js";
export type { HarnessResult } from "./claude/run-harness.js";
export type { HarnessSpec, McpConfig, PermissionMode } from "./claude/spec.js";
export type { AgentRunSpec, ClaudeRunSpec, ReplayRunSpec, SandboxSpec } from "../src/eval/spec-types.js";
export { HarnessError } from "./run/failure.js";
export type { FailureReason, FailureFacts } from "./run/failure.js";
export { resolveClaudeBinary } from "./claude/binary.js";
export { scrubEnv } from "./run/env.js";
export { runHook, buildHookInput } from "./hook/run-hook.js";
export { runReplay, DEFAULT_REPLAY_PROMPT } from "./replay/run-replay.js";
export { claudeJudge, gradingPrompt } from "./judge/claude-judge.js";
export { ProctorProvider } from "./promptfoo/provider.js";
export type { ProviderConfig, ProviderContext, ProviderResponse } from "./promptfoo/provider.js";
export type { ClaudeJudgeOptions } from "./judge/claude-judge.js";
export type { ReplaySpec } from "./replay/run-replay.js";
export type { RunHookOptions } from "./hook/run-hook.js";
export { matcherMatches } from "./hook/matcher.js";
export { parseTranscript, readTranscript } from "../src/trace/transcript.js";
export type { HookRunResult, BlockMechanism } from "../src/hook/types.js";
export { runEval, buildEvalArgs, buildEvalEnv } from "./eval/run-eval.js";
export type { EvalRunResult } from "./eval/run-eval.js";
export { apiKeyMissing, validateEvalSpec, DEFAULT_EVAL_BUDGET_USD, DEFAULT_EVAL_TIMEOUT_MS } from "./eval/spec.js";
export type { RunEvalSpec } from "./eval/spec.js";
export { runCodex, DEFAULT_CODEX_TIMEOUT_MS } from "./codex/run-codex.js";
export type { CodexResult } from "./codex/run-codex.js";
export type { CodexSpec, CodexSandbox } from "./codex/spec.js";
export { DEFAULT_CODEX_MODEL, DEFAULT_CODEX_SANDBOX } from "./codex/config.js";
export { resolveCodexBinary } from "./codex/binary.js";
export { readCodexJsonl, parseCodexJsonl } from "./codex/trace.js";
