/**
 * Every viewer and bridge accepts either a Trace (JSON, as `proctor trace` or a harness writes it)
 * or a raw stream-json transcript; this decides which one it was handed, once.
 */
import { readTextWithin } from "../../src/io/read-bounded.js";
import { ProctorError, TranscriptError } from "../../src/errors/proctor-error.js";
import { validateTrace } from "../../src/trace/schema.js";
import { isSessionLog, readTranscriptFiles } from "../../src/trace/session-log.js";
import { parseSessionLog, parseTranscript, readTranscript, requireTranscriptEvents, TRANSCRIPT_LIMITS } from "../../src/trace/transcript.js";
import type { Trace } from "../../src/trace/types.js";
import { requireString } from "../../src/errors/arguments.js";

/** True for a value shaped like a Trace (so it is validated as one, not parsed as a transcript). */
export function looksLikeTrace(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) && "toolCalls" in value && "version" in value;
}

/**
 * A Trace from text: a Trace JSON document is validated (bad fields are named), anything else is
 * read as a stream-json transcript (malformed lines land in `trace.errors`).
 */
export function traceFromText(text: string, where = "input"): Trace {
  requireString("traceFromText", "text", text, "the text of a transcript or a Trace as JSON");
  requireString("traceFromText", "where", where, "a name for the input, for messages");
  const trimmed = text.trim();
  if (trimmed.startsWith("{") && !trimmed.includes("\n{")) {
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      value = undefined;
    }
    if (looksLikeTrace(value)) {
      try {
        return validateTrace(value);
      } catch (error) {
        throw new TranscriptError("INVALID_TRACE", `${where} looks like a Trace but is not a valid one`, { detail: (error as Error).message, cause: error });
      }
    }
  }
  return isSessionLog(text) ? readTranscript(text) : parseTranscript(text);
}

/** Read a Trace JSON file or a stream-json transcript from disk. */
export function readTraceFile(path: string): Trace {
  let text: string;
  try {
    // A session folder, or a session log with its subagents' logs beside it, reads as one.
    const files = readTranscriptFiles(path, (file) => readTextWithin(file, TRANSCRIPT_LIMITS));
    if (files.subagents) return parseSessionLog(files.text, files.subagents, files.file);
    text = files.text;
  } catch (error) {
    if (error instanceof ProctorError) throw error;
    throw new TranscriptError("TRANSCRIPT_UNREADABLE", `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, {
      detail: "  pass a Trace JSON file (proctor trace FILE > trace.json) or a claude stream-json transcript",
      cause: error,
    });
  }
  return requireTranscriptEvents(traceFromText(text, path), path);
}
