const BRAND = Symbol.for("proctor.error");

/** Stable machine-readable reasons, so callers branch on `code`, not on message text. */
export type ProctorErrorCode =
  | "CHECKS_FAILED"
  | "INVALID_CHECK"
  | "INVALID_TRACE"
  | "INVALID_INPUT"
  | "TRANSCRIPT_UNREADABLE"
  | "BINARY_MISSING"
  | "RUN_FAILED"
  | "SCRIPT_INVALID"
  | "SCRIPT_OVERRUN"
  | "TIMEOUT"
  | "RATES_BELOW_THRESHOLD"
  | "BASELINE_INVALID"
  | "NO_API_KEY"
  | "POLICY_INVALID"
  | "REPORT_INVALID"
  | "EVAL_SKIPPED"
  | "EVAL_INCOMPLETE"
  | "SHELL_PARSER_NOT_LOADED";

/**
 * The one error family proctor throws. Branded with a global symbol so `isProctorError` works
 * across two copies of the package (a test's and a plugin's).
 */
export class ProctorError extends Error {
  readonly code: ProctorErrorCode;
  /** One line: the reason, without detail. */
  readonly shortMessage: string;

  constructor(code: ProctorErrorCode, shortMessage: string, options?: { detail?: string; cause?: unknown }) {
    super(options?.detail ? `${shortMessage}\n${options.detail}` : shortMessage, { cause: options?.cause });
    this.name = "ProctorError";
    this.code = code;
    this.shortMessage = shortMessage;
    Object.defineProperty(this, BRAND, { value: true });
  }
}

/** True for any proctor error, from any copy of the package. */
export function isProctorError(value: unknown): value is ProctorError {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}
