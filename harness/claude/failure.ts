/** How a Claude Code run against the mock model reports failure, in the shared chain's terms. */
import type { FailureProfile } from "../run/reason.js";

/** Claude Code's words: an API error shows as the result's status or an `API Error` line. */
export const CLAUDE_FAILURES: FailureProfile = {
  agent: "claude",
  placeholder: "claude -p …",
  hasApiError: (trace) => trace.outcome?.apiErrorStatus !== undefined || trace.errors.some((e) => e.kind === "api-error" || /^API Error/.test(e.message)),
  describeApiFault: (trace) => `failed with an API error the script did not ask for: ${trace.errors.find((e) => e.kind === "api-error")?.message ?? trace.outcome?.apiErrorStatus}`,
  ending: "a result",
};
