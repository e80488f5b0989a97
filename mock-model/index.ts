/**
 * proctor/mock-model — a scripted Anthropic Messages API server. The test scripts what the
 * *model* says; the real `claude` binary does everything else.
 */
export { startMockModel } from "./server/start.js";
export type { MockModel, MockModelOptions, RawRequest } from "./server/start.js";
export type { MockRun, MockRunError, FilledTurn } from "./run/mock-run.js";
export { loadScript, parseScript, validateScript, scriptErrors, SCRIPT_SCHEMA } from "./script/schema.js";
export type {
  Script,
  SubagentScript,
  Turn,
  TurnSpec,
  TurnContext,
  ToolResultSeen,
  ScriptBlock,
  ScriptToolUse,
  ScriptUsage,
  ScriptFault,
  StopReason,
} from "./script/types.js";
export type { ResponsesMockRun, ResponsesRunError, EmittedItem } from "./responses/run-state.js";
export type { OfferedTool } from "./responses/offered.js";
export { readOfferedTools } from "./responses/offered.js";
export { scriptFromTranscript, scriptFromRecording, REPLAY_STOPPED, REPLAY_EXHAUSTED } from "./replay/script-from-transcript.js";
export type { ReplayScriptOptions, LiveDivergence } from "./replay/script-from-transcript.js";
export { readRecording } from "./replay/recording.js";
export type { Recording, RecordedAgent, RecordedTurn } from "./replay/recording.js";
