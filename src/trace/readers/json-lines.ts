/**
 * The line loop both transcript readers share: one JSON value per line, blank lines skipped,
 * each line's nesting capped before JSON.parse, and a line that does not parse handed back with
 * its 1-based number instead of stopping the read.
 */
import { isAscii } from "node:buffer";
import { findExcessDepth, MAX_JSON_DEPTH } from "../../io/json-depth.js";

/** Where the loop hands each line. */
export interface JsonLineSink {
  /** A line that parsed; `line` is 1-based. */
  value(value: unknown, line: number): void;
  /** A line that did not parse (or nests too deep); `why` is the parser's message. */
  malformed(raw: string, line: number, why: string): void;
}

export interface JsonLineOptions {
  /** Trim each line before parsing, so a parse error's position counts from its first non-blank character. */
  readonly trim?: boolean;
}

/**
 * Feed every non-blank line of `text` to `sink`, in order. Never throws on content. Given the
 * file's bytes with some non-ASCII in them, each line is decoded only when its turn comes: one
 * non-ASCII character then makes only its own line a two-byte string (JSON.parse reads one-byte
 * strings markedly faster), and no line outlives its parse.
 */
export function readJsonLines(text: string | Uint8Array, sink: JsonLineSink, options: JsonLineOptions = {}): void {
  const trim = options.trim === true;
  // All-ASCII bytes decode to one one-byte string whose lines split off as cheap slices. A small
  // file is decoded whole as well: per line, finding and decoding it costs more than a two-byte
  // string costs JSON.parse when there are only a few kilobytes of them (a one-shot `proctor check`
  // over many recorded runs reads many such files).
  if (typeof text !== "string") {
    const bytes = Buffer.from(text.buffer, text.byteOffset, text.byteLength);
    if (bytes.length <= DECODE_WHOLE_BELOW) text = bytes.toString("utf8");
    else if (asciiThroughout(bytes)) text = bytes.toString("latin1");
  }
  if (typeof text === "string") {
    const lines = text.split("\n");
    for (let i = 0; i < lines.length; i++) readJsonLine(trim ? (lines[i] as string).trim() : (lines[i] as string), i + 1, sink);
    return;
  }
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text.buffer, text.byteOffset, text.byteLength);
  let line = 1;
  let start = 0;
  for (let end = bytes.indexOf(10); ; end = bytes.indexOf(10, start)) {
    const stop = end === -1 ? bytes.length : end;
    if (stop > start) {
      // No encoding name is UTF-8 without the encoding lookup: this runs once per line.
      const raw = bytes.toString(undefined, start, stop);
      readJsonLine(trim ? raw.trim() : raw, line, sink);
    }
    if (end === -1) return;
    start = end + 1;
    line++;
  }
}

/** The size up to which bytes are decoded whole, whatever is in them. */
const DECODE_WHOLE_BELOW = 64 << 10;

/** Bytes per isAscii call: text with non-ASCII near its start is told apart without scanning it all. */
const ASCII_BLOCK = 1 << 20;

/** Whether every byte is ASCII; stops at the first block that is not (isAscii itself reads to the end). */
function asciiThroughout(bytes: Uint8Array): boolean {
  for (let at = 0; at < bytes.length; at += ASCII_BLOCK) if (!isAscii(bytes.subarray(at, at + ASCII_BLOCK))) return false;
  return true;
}

function readJsonLine(raw: string, line: number, sink: JsonLineSink): void {
  if (raw.length === 0 || (isSpace(raw.charCodeAt(0)) && raw.trim().length === 0)) return;
  let value: unknown;
  try {
    if (findExcessDepth(raw) !== undefined) throw new Error(`it nests deeper than ${MAX_JSON_DEPTH} levels`);
    value = JSON.parse(raw);
  } catch (error) {
    sink.malformed(raw, line, (error as Error).message);
    return;
  }
  sink.value(value, line);
}

/** Whether a line starting with `c` may be all whitespace (String#trim then decides); `{` never is. */
function isSpace(c: number): boolean {
  return c <= 32 || c === 0xa0 || c >= 0x1680;
}
