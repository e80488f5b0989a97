/**
 * What happened to a tool call, judged from the output text the CLI sent back to the model —
 * the only record of calls its own event stream leaves out (commands its policy rejected, writes
 * the sandbox refused, calls to tools that don't exist).
 */
import { SANDBOX_DENIAL } from "../../src/trace/readers/codex.js";
import type { ToolStatus } from "../../src/trace/types.js";

export { SANDBOX_DENIAL };

export interface OutputVerdict {
  readonly status: ToolStatus;
  /** The exit code the output reported, for commands and patches. */
  readonly exitCode?: number;
}

/** The CLI's policy, approval settings or sandbox refused the call. */
const REFUSED = /\bRejected\(|\brejected: |rejected by user approval settings|requires approval, but approval policy is never|blocked by (?:the )?[\w-]+ sandbox|\bcommands are not permitted\b/i;
/** No such tool, or arguments the CLI could not parse. */
const INVALID = /^(?:unsupported (?:custom )?call\b|unsupported call:|failed to parse function arguments|unknown tool\b)/i;

/** The status of a call from the output the model received for it. */
export function outputStatus(output: string): OutputVerdict {
  const text = output.trim();
  if (INVALID.test(text)) return { status: "invalid" };
  if (REFUSED.test(text)) return { status: "denied" };
  const code = /^(?:Process exited with code|Exit code:)\s*(-?\d+)/m.exec(text);
  if (code) {
    const exitCode = Number(code[1]);
    if (exitCode === 0) return { status: "success", exitCode };
    return { status: SANDBOX_DENIAL.test(text) ? "denied" : "failure", exitCode };
  }
  if (/^(?:[\w ]+ failed:|Error:)/i.test(text)) return { status: "failure" };
  return { status: "success" };
}
