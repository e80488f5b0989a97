/**
 * The Script types live with the eval definitions (an eval file is data a user writes, and its
 * mock tier is a Script); the mock model reads them from there.
 */
export type {
  ScriptToolUse,
  ScriptBlock,
  ScriptUsage,
  ScriptFault,
  StopReason,
  TurnSpec,
  ToolResultSeen,
  TurnContext,
  Turn,
  SubagentScript,
  Script,
} from "../../src/eval/script-types.js";
