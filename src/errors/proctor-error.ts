const BRAND = Symbol.for("proctor.error");

/**
 * Stable machine-readable reasons, so callers branch on `code`, not on message text. Every code is
 * described in docs/errors.md (a test keeps the two in step).
 */
export type ProctorErrorCode =
  | "CHECKS_FAILED"
  | "INVALID_CHECK"
  | "INVALID_TRACE"
  | "INVALID_INPUT"
  | "TRANSCRIPT_UNREADABLE"
  | "BINARY_MISSING"
  | "RUN_FAILED"
  | "RUN_UNHEALTHY"
  | "SCRIPT_INVALID"
  | "SUITE_INVALID"
  | "SCRIPT_OVERRUN"
  | "SANDBOX_UNAVAILABLE"
  | "TIMEOUT"
  | "RATES_BELOW_THRESHOLD"
  | "BASELINE_INVALID"
  | "NO_API_KEY"
  | "POLICY_INVALID"
  | "REPORT_INVALID"
  | "EVAL_SKIPPED"
  | "EVAL_INCOMPLETE"
  | "SHELL_PARSER_NOT_LOADED"
  | "INTERNAL";

/** What every proctor error may carry besides its code and one-line reason. */
export interface ProctorErrorOptions {
  /** Further lines: the offending value, the choices, the output tail. */
  readonly detail?: string | undefined;
  /** What the error concerns: a file path, a field path like `checks[2].args`, an argument name. */
  readonly input?: string | undefined;
  /** What to do about it, as one sentence. */
  readonly hint?: string | undefined;
  /** The error this one explains (a dependency's, an fs error), kept for `--debug`. */
  readonly cause?: unknown;
}

/**
 * The one error family proctor throws. Branded with a global symbol so `isProctorError` works
 * across two copies of the package (a test's and a plugin's). Throw a subclass: the class says
 * the area, `code` the reason, `input` what it concerns, `hint` what to do.
 */
export class ProctorError extends Error {
  readonly code: ProctorErrorCode;
  /** One line: the reason, without detail. */
  readonly shortMessage: string;
  // Declared, not defined: absent (not undefined) on errors that have none.
  /** What the error concerns (a path, a field, an argument), when there is one. */
  declare readonly input?: string;
  /** What to do about it, when proctor knows. */
  declare readonly hint?: string;

  constructor(code: ProctorErrorCode, shortMessage: string, options: ProctorErrorOptions = {}) {
    super(renderMessage(shortMessage, options), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ProctorError";
    this.code = code;
    this.shortMessage = shortMessage;
    if (options.input !== undefined) Object.defineProperty(this, "input", { value: options.input, enumerable: true });
    if (options.hint !== undefined) Object.defineProperty(this, "hint", { value: options.hint, enumerable: true });
    Object.defineProperty(this, BRAND, { value: true });
  }
}

/**
 * The full message: the reason, then the detail, the input (unless the reason already names
 * it) and the hint, each on its own line.
 */
function renderMessage(shortMessage: string, { detail, input, hint }: ProctorErrorOptions): string {
  const lines = [shortMessage];
  if (detail) lines.push(detail);
  if (input && !shortMessage.includes(input)) lines.push(`  input: ${input}`);
  if (hint) lines.push(`  hint: ${hint}`);
  return lines.join("\n");
}

/** True for any proctor error, from any copy of the package. */
export function isProctorError(value: unknown): value is ProctorError {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

// The area classes. Each fixes the codes it may carry, so `code` narrows with the class.
// `instanceof` works within one copy of the package; across copies, test `isProctorError(e)`
// and `e.name` or `e.code`.

/** A bad argument, option or value passed to a function or a CLI command. */
export class InvalidInputError extends ProctorError {
  declare readonly code: "INVALID_INPUT" | "SHELL_PARSER_NOT_LOADED";
  constructor(code: InvalidInputError["code"], shortMessage: string, options?: ProctorErrorOptions) {
    super(code, shortMessage, options);
    this.name = "InvalidInputError";
  }
}

/** A transcript, trace or event log that cannot be read or is not one. */
export class TranscriptError extends ProctorError {
  declare readonly code: "TRANSCRIPT_UNREADABLE" | "INVALID_TRACE";
  constructor(code: TranscriptError["code"], shortMessage: string, options?: ProctorErrorOptions) {
    super(code, shortMessage, options);
    this.name = "TranscriptError";
  }
}

/** A file or setting that configures proctor is wrong: a policy, a mock-model script, an API key. */
export class ConfigError extends ProctorError {
  declare readonly code: "POLICY_INVALID" | "SCRIPT_INVALID" | "SUITE_INVALID" | "NO_API_KEY";
  constructor(code: ConfigError["code"], shortMessage: string, options?: ProctorErrorOptions) {
    super(code, shortMessage, options);
    this.name = "ConfigError";
  }
}

/** A measured report or baseline file that is malformed. */
export class ReportError extends ProctorError {
  declare readonly code: "REPORT_INVALID" | "BASELINE_INVALID";
  constructor(code: ReportError["code"], shortMessage: string, options?: ProctorErrorOptions) {
    super(code, shortMessage, options);
    this.name = "ReportError";
  }
}

/**
 * An agent run (or a judge's) that could not start or did not finish. `HarnessError` (from
 * `proctor/harness`) is the subclass that also carries the run's facts and result.
 */
export class RunError extends ProctorError {
  declare readonly code: "BINARY_MISSING" | "RUN_FAILED" | "TIMEOUT" | "SCRIPT_OVERRUN" | "RUN_UNHEALTHY" | "SANDBOX_UNAVAILABLE";
  constructor(code: RunError["code"], shortMessage: string, options?: ProctorErrorOptions) {
    super(code, shortMessage, options);
    this.name = "RunError";
  }
}

/**
 * A broken invariant inside proctor (an index its own logic proved in range, a result it just
 * computed): a bug to report, never the caller's input.
 */
export class InternalError extends ProctorError {
  declare readonly code: "INTERNAL";
  constructor(shortMessage: string, options?: ProctorErrorOptions) {
    super("INTERNAL", shortMessage, { hint: "this is a bug in proctor; please report it with the stack (the CLI prints it with --debug)", ...options });
    this.name = "InternalError";
  }
}

/** Which class raises each code a caller may pass along as data (a reader told which code to use). */
export type DataErrorCode = InvalidInputError["code"] | TranscriptError["code"] | ConfigError["code"] | ReportError["code"];

/**
 * The error of the class that owns `code`, for code that is handed the code to raise (the data
 * file reader raises `SCRIPT_INVALID` for a script, `BASELINE_INVALID` for a baseline).
 */
export function errorForCode(code: DataErrorCode, shortMessage: string, options?: ProctorErrorOptions): ProctorError {
  switch (code) {
    case "INVALID_INPUT":
    case "SHELL_PARSER_NOT_LOADED":
      return new InvalidInputError(code, shortMessage, options);
    case "TRANSCRIPT_UNREADABLE":
    case "INVALID_TRACE":
      return new TranscriptError(code, shortMessage, options);
    case "POLICY_INVALID":
    case "SCRIPT_INVALID":
    case "SUITE_INVALID":
    case "NO_API_KEY":
      return new ConfigError(code, shortMessage, options);
    case "REPORT_INVALID":
    case "BASELINE_INVALID":
      return new ReportError(code, shortMessage, options);
  }
}

/** The message of an unknown thrown value, for wrapping a dependency's error. */
export function messageOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === "string" && /^E[A-Z]+$/.test(code)) return code;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The same error, its reason prefixed with where it happened (`evals/a.eval.ts: …`): class, code,
 * input, hint and every other field kept, the original as `cause`.
 */
export function restate<E extends ProctorError>(error: E, prefix: string): E {
  const copy = Object.create(Object.getPrototypeOf(error) as object) as E;
  Object.defineProperties(copy, Object.getOwnPropertyDescriptors(error));
  const shortMessage = `${prefix}${error.shortMessage}`;
  Object.defineProperties(copy, {
    shortMessage: { value: shortMessage, enumerable: true },
    message: { value: `${prefix}${error.message}`, writable: true, configurable: true },
    cause: { value: error, writable: true, configurable: true },
    stack: { value: `${error.name}: ${prefix}${error.message}\n${(error.stack ?? "").split("\n").slice(1).join("\n")}`, writable: true, configurable: true },
  });
  return copy;
}
