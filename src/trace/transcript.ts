/**
 * Recorded transcripts → Trace: text, a stream-json file, or a Claude Code session log. The
 * reading itself is `readers/claude.ts`; this module finds the input and keeps it bounded.
 */
import { requireString } from "../errors/arguments.js";
import { InvalidInputError, TranscriptError } from "../errors/proctor-error.js";
import { readEventBytes } from "../io/read-bounded.js";
import { NOT_A_TRANSCRIPT, parseClaudeStream } from "./readers/claude.js";
import { convertSessionLog, isSessionLog, readTranscriptFiles, type EventText, type SubagentLog } from "./session-log.js";
import { trustTrace } from "./schema.js";
import type { Trace, TraceSource } from "./types.js";

export { flattenContent, NOT_A_TRANSCRIPT } from "./readers/claude.js";

/**
 * Refuse a "transcript" that holds no transcript events: its Trace would be empty, and an empty
 * Trace is no evidence of anything. Throws TRANSCRIPT_UNREADABLE naming `where`.
 */
export function requireTranscriptEvents(trace: Trace, where: string): Trace {
  if (!trace.errors.some((e) => e.kind === NOT_A_TRANSCRIPT)) return trace;
  throw new TranscriptError("TRANSCRIPT_UNREADABLE", `${where} holds no transcript events: no line is a JSON object with a "type"`, {
    detail: "  pass the stdout of `claude -p --output-format stream-json --verbose` (or a Trace JSON file where one is accepted)",
  });
}

/** Parse transcript text into a Trace. Never throws on content: problems land in `trace.errors`. */
export function parseTranscript(text: string, options: { sourceKind?: TraceSource["kind"] } = {}): Trace {
  requireString("parseTranscript", "text", text, "the transcript's text (claude -p --output-format stream-json); for a file use readTranscript");
  return trustTrace(parseClaudeStream(text, options));
}

/** How much of a transcript file `readTranscript` reads before it refuses. */
export interface TranscriptLimits {
  /** The longest line (one stream-json event). @default 32 MiB */
  readonly maxLineBytes?: number;
  /** The whole file. @default 256 MiB */
  readonly maxBytes?: number;
}

/** The default caps: far above a real run's transcript, far below what would exhaust memory. */
export const TRANSCRIPT_LIMITS: Required<TranscriptLimits> = { maxLineBytes: 32 << 20, maxBytes: 256 << 20 };

/**
 * Read a transcript from a file path, or parse it when given the text itself (anything with a
 * newline or starting with `{`). The file is read in chunks within `limits`, so a wrong file
 * (`/dev/zero`, a huge single line) fails fast with bounded memory. A missing, unreadable or
 * oversized file is a ProctorError naming the path (and the line).
 */
export function readTranscript(pathOrText: string, limits: TranscriptLimits = {}): Trace {
  if (typeof pathOrText !== "string") {
    throw new InvalidInputError("INVALID_INPUT", `readTranscript: expected a transcript file path or the transcript text (a string); got ${pathOrText === null ? "null" : typeof pathOrText} ${String(pathOrText).slice(0, 40)}`);
  }
  const looksLikeText = pathOrText.includes("\n") || pathOrText.trimStart().startsWith("{");
  if (looksLikeText) return isSessionLog(pathOrText) ? parseSessionLog(pathOrText, []) : parseTranscript(pathOrText);
  const caps = { ...TRANSCRIPT_LIMITS, ...limits };
  const files = readTranscriptFiles(pathOrText, (file) =>
    readEventBytes(file, caps, {
      noun: "transcript",
      reader: "readTranscript",
      hint: "pass the path of a file written by `claude -p --output-format stream-json --verbose`, a Claude Code session log (or its session folder), or the transcript text itself",
    }),
  );
  return files.subagents ? parseSessionLog(files.text, files.subagents, files.file) : trustTrace(parseClaudeStream(files.text));
}

/** A session log (and its subagents' logs) as a Trace, with what only the log records. */
export function parseSessionLog(main: EventText, subagents: readonly SubagentLog[], file?: string): Trace {
  const { streamJson, facts } = convertSessionLog(main, subagents, file);
  const trace = parseTranscript(streamJson);
  return trustTrace({ ...trace, source: { ...trace.source, ...facts } });
}
