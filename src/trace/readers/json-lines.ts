/**
 * The line loop both transcript readers share: one JSON value per line, blank lines skipped,
 * each line's nesting capped before JSON.parse, and a line that does not parse handed back with
 * its 1-based number instead of stopping the read.
 */
import { findExcessDepth, MAX_JSON_DEPTH } from "../../io/json-depth.js";

/** Where the loop hands each line. */
export interface JsonLineSink {
  /** A line that parsed; `line` is 1-based. */
  value(value: unknown, line: number): void;
  /** A line that did not parse (or nests too deep); `why` is the parser's message. */
  malformed(raw: string, line: number, why: string): void;
}

/** Feed every non-blank line of `text` to `sink`, in order. Never throws on content. */
export function readJsonLines(text: string, sink: JsonLineSink): void {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] as string;
    if (raw.length === 0 || (isSpace(raw.charCodeAt(0)) && raw.trim().length === 0)) continue;
    let value: unknown;
    try {
      if (findExcessDepth(raw) !== undefined) throw new Error(`it nests deeper than ${MAX_JSON_DEPTH} levels`);
      value = JSON.parse(raw);
    } catch (error) {
      sink.malformed(raw, i + 1, (error as Error).message);
      continue;
    }
    sink.value(value, i + 1);
  }
}

/** Whether a line starting with `c` may be all whitespace (String#trim then decides); `{` never is. */
function isSpace(c: number): boolean {
  return c <= 32 || c === 0xa0 || c >= 0x1680;
}
