/** A tool result's status in the typed outcome vocabulary, from what the CLI reported. */
import type { ToolCall, ToolStatus } from "./types.js";
import { readToolResultEnvelope } from "../policy/envelope.js";

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

/** A result whose text is the JSON of a typed envelope (seed 003), e.g. from an MCP tool. */
function envelopeIn(result: string): { status?: ToolStatus; effects: readonly unknown[] } | undefined {
  if (!result.trimStart().startsWith("{")) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(result);
  } catch {
    return undefined;
  }
  const envelope = readToolResultEnvelope(value);
  return envelope ? { status: envelope.status, effects: envelope.effects } : undefined;
}

/**
 * `denied` when the permission system or a PreToolUse hook blocked it (`listedDenied` carries the
 * run's own record of denials), `invalid` for unknown tools and rejected input, `failure` for
 * other errors, else `success`. A result that is an envelope states its own status (unless the
 * call was denied before it ran) and keeps its valid effects on the call.
 */
export function toolResultStatus(result: string, isError: boolean, listedDenied: boolean): ResultStatus {
  const fromCli = cliStatus(result, isError, listedDenied);
  if (fromCli.status === "denied" || fromCli.status === "invalid") return fromCli;
  const envelope = envelopeIn(result);
  if (!envelope) return fromCli;
  return { status: envelope.status ?? fromCli.status, ...(envelope.effects.length ? { effects: envelope.effects } : {}) };
}

function cliStatus(result: string, isError: boolean, listedDenied: boolean): ResultStatus {
  if (!isError) return { status: "success" };
  if (HOOK_DENIAL.test(result)) return { status: "denied", deniedBy: "hook" };
  if (PERMISSION_DENIAL.test(result)) return { status: "denied", deniedBy: "permission" };
  if (listedDenied) return { status: "denied", deniedBy: "hook" };
  if (INVALID.test(result)) return { status: "invalid" };
  return { status: "failure" };
}
