/** A tool result's status in the typed outcome vocabulary, from what the CLI reported. */
import type { ToolCall, ToolStatus } from "./types.js";

export interface ResultStatus {
  readonly status: ToolStatus;
  readonly deniedBy?: ToolCall["deniedBy"];
  readonly effects?: readonly unknown[];
}

const HOOK_DENIAL = /^PreToolUse:\S+ hook error: /;
// The permission system's own wordings (dontAsk, an unapproved tool or path, a command needing approval).
const PERMISSION_DENIAL =
  /^Permission to use \S+ has been denied|^Claude requested permissions? to |^This (?:Bash )?command (?:requires approval|contains multiple operations)|\bwas blocked\. For security, Claude Code may only /;
const INVALID = /<tool_use_error>(?:Error: No such tool available|InputValidationError)|^No such tool available/;

/**
 * `denied` when the permission system or a PreToolUse hook blocked it (`listedDenied` carries the
 * run's own record of denials), `invalid` for unknown tools and rejected input, `failure` for
 * other errors, else `success`.
 */
export function toolResultStatus(result: string, isError: boolean, listedDenied: boolean): ResultStatus {
  if (!isError) return { status: "success" };
  if (HOOK_DENIAL.test(result)) return { status: "denied", deniedBy: "hook" };
  if (PERMISSION_DENIAL.test(result)) return { status: "denied", deniedBy: "permission" };
  if (listedDenied) return { status: "denied", deniedBy: "hook" };
  if (INVALID.test(result)) return { status: "invalid" };
  return { status: "failure" };
}
