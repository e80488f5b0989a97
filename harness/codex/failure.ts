/** How a Codex run reports failure, in the shared chain's terms and Codex's words. */
import type { FailureProfile } from "../run/reason.js";

/** Codex's words: an API error shows as `turn.failed`, a complete run ends with `turn.completed`. */
export const CODEX_FAILURES: FailureProfile = {
  agent: "codex",
  placeholder: "codex exec …",
  hasApiError: (trace) => trace.outcome?.isError === true,
  describeApiFault: (trace) => `failed with an API error the script did not ask for: ${trace.errors.find((e) => e.kind === "api-error")?.message ?? "turn.failed"}`,
  ending: "turn.completed",
};
