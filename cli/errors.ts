/** How the CLI words an error: one line naming the input and what to do; the stack only for --debug. */
import type { ProctorError } from "../src/errors/proctor-error.js";

/**
 * A proctor error as the CLI prints it: `proctor CMD: error [CODE] reason`, then its detail, the
 * input it concerns and the hint, each on its own line (all in `message`).
 */
export function describeProctorError(error: ProctorError, command: string): string {
  return `${command ? `proctor ${command}` : "proctor"}: error [${error.code}] ${error.message}`;
}

/** The stack and the cause chain, for --debug. */
export function debugText(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e !== undefined && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    parts.push(`${depth ? "caused by: " : ""}${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  }
  return parts.join("\n");
}

/**
 * What an error that is not a ProctorError says on one line: the known failures of bad input in
 * plain words, anything else as a bug to report — never a stack trace unless asked for.
 */
export function describeUnexpected(error: unknown, command: string): string {
  const who = command ? `proctor ${command}` : "proctor";
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof RangeError && /call stack|Invalid string length|Array buffer allocation/i.test(message)) {
    return `${who}: the input is too large or nests too deeply to process (${message}); check the file you passed`;
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ENOMEM" || /heap out of memory/i.test(message)) return `${who}: ran out of memory reading the input; check the file you passed`;
  return `${who}: internal error: ${error instanceof Error ? `${error.name}: ` : ""}${message.split("\n")[0]} — a bug in proctor; rerun with --debug for the stack and report it`;
}
