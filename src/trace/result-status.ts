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
// claude's own guards: refusals no permission rule can lift and no hook made (e.g. `rm -rf ./*` in the work dir).
const BUILTIN_DENIAL = /^Dangerous \w+ operation detected|This requires explicit approval and cannot be auto-allowed by permission rules/;
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
  return envelope ? { ...(envelope.status === undefined ? {} : { status: envelope.status }), effects: envelope.effects } : undefined;
}

/** What the run recorded about a call besides its result text. */
export interface DenialEvidence {
  /** The run's final record lists the call among its permission denials. */
  readonly listed: boolean;
  /** A recorded PreToolUse hook event blocked this very call. */
  readonly hookBlocked: boolean;
  /** Who the CLI itself said decided the denial (claude ≥ 2.1.3xx: `system/permission_denied`, `tool_result_meta`). */
  readonly decidedBy?: ToolCall["deniedBy"];
}

/**
 * Who denied a call, from the CLI's own attribution: a `permission_denied` event's
 * `decision_reason_type` or a result's `permission_decision.source`. Undefined for a word proctor
 * does not know (the result's wording then decides, as before).
 */
export function denierOf(reason: string): ToolCall["deniedBy"] | undefined {
  switch (reason) {
    case "hook":
      return "hook";
    case "rule":
    case "mode":
    case "config":
    case "workingDir":
    case "user":
    case "permissionPrompt":
      return "permission";
    case "safetyCheck":
      return "builtin";
    case "sandbox":
    case "sandboxOverride":
      return "sandbox";
    default:
      return undefined;
  }
}

/**
 * `denied` when something refused the call, with who did it from the evidence (a blocking hook
 * event or the CLI's own hook wording → `hook`; the permission system's wording → `permission`;
 * a built-in guard's wording → `builtin`; listed as denied with no evidence of who → `unknown`),
 * `invalid` for unknown tools and rejected input, `failure` for other errors, else `success`.
 * A result that is an envelope states its own status (unless the call was denied before it ran)
 * and keeps its valid effects on the call.
 */
export function toolResultStatus(result: string, isError: boolean, evidence: DenialEvidence): ResultStatus {
  const fromCli = cliStatus(result, isError, evidence);
  if (fromCli.status === "denied" || fromCli.status === "invalid") return fromCli;
  const envelope = envelopeIn(result);
  if (!envelope) return fromCli;
  return { status: envelope.status ?? fromCli.status, ...(envelope.effects.length ? { effects: envelope.effects } : {}) };
}

function cliStatus(result: string, isError: boolean, evidence: DenialEvidence): ResultStatus {
  if (!isError) return { status: "success" };
  if (evidence.hookBlocked || HOOK_DENIAL.test(result)) return { status: "denied", deniedBy: "hook" };
  if (evidence.decidedBy) return { status: "denied", deniedBy: evidence.decidedBy };
  if (PERMISSION_DENIAL.test(result)) return { status: "denied", deniedBy: "permission" };
  if (BUILTIN_DENIAL.test(result)) return { status: "denied", deniedBy: "builtin" };
  if (evidence.listed) return { status: "denied", deniedBy: "unknown" };
  if (INVALID.test(result)) return { status: "invalid" };
  return { status: "failure" };
}
