/**
 * Reading a line-oriented file with caps: the file is read in chunks, and reading stops with an
 * error naming the line as soon as one line or the whole file passes its cap — so `/dev/zero`
 * or a 100 MB single line costs a bounded amount of memory, never all of it.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { TranscriptError } from "../errors/proctor-error.js";

/** Caps for one file. */
export interface ReadLimits {
  /** The longest line, in bytes. */
  readonly maxLineBytes: number;
  /** The whole file, in bytes. */
  readonly maxBytes: number;
}

/** Why a bounded read stopped. */
export type ReadOverflow = { readonly kind: "line"; readonly line: number } | { readonly kind: "total"; readonly line: number };

/** A read that stopped at a cap: which, and at which line. Its message reads well after "cannot read FILE: ". */
export class ReadOverflowError extends Error {
  constructor(
    readonly overflow: ReadOverflow,
    limits: ReadLimits,
  ) {
    super(overflow.kind === "line" ? `line ${overflow.line} is longer than ${formatBytes(limits.maxLineBytes)}` : `it is larger than ${formatBytes(limits.maxBytes)}`);
  }
}

/** The cap for a JSON document proctor reads (checks, reports, baselines): far above real ones. */
export const JSON_FILE_LIMITS: ReadLimits = { maxLineBytes: Number.POSITIVE_INFINITY, maxBytes: 64 << 20 };

const CHUNK = 1 << 20;

/**
 * The file's text, read within `limits`. Throws ReadOverflowError at a cap, and fs errors (ENOENT,
 * EISDIR …) as they are. A regular file is read in one buffer its size (capped), so a large file
 * costs what readFileSync does; devices, pipes and growing files go on in 1 MiB chunks.
 */
export function readTextWithin(file: string, limits: ReadLimits): string {
  return readBytesWithin(file, limits).toString("utf8");
}

/** The file's bytes, read within `limits` like readTextWithin: for readers that decode line by line. */
export function readBytesWithin(file: string, limits: ReadLimits): Buffer {
  const fd = openSync(file, "r");
  try {
    const stat = fstatSync(fd);
    const size = stat.size;
    const parts: Buffer[] = [];
    let total = 0;
    // Bytes of the current line read before this chunk.
    let lineBytes = 0;
    for (;;) {
      // The first read takes a regular file whole; later reads (the end-of-file probe after it,
      // or a device's, pipe's or growing file's chunks) go through one shared scratch buffer and
      // keep a copy of what they got: a fresh 1 MiB per probe, per file, is external memory
      // that sets off a garbage collection every few dozen files.
      const first = parts.length === 0 && size > 0;
      const want = first ? Math.min(size, limits.maxBytes) + 1 : CHUNK;
      const buffer = first ? Buffer.allocUnsafe(want) : scratchBuffer();
      const n = readSync(fd, buffer, 0, want, null);
      if (n === 0) break;
      total += n;
      const view = first ? buffer.subarray(0, n) : Buffer.from(buffer.subarray(0, n));
      // Every line ends within maxLineBytes of its start exactly when, from each line start, the
      // last newline within that reach is found: every line up to it is shorter. So the check
      // jumps a whole cap's width at a time instead of visiting every line; line numbers are
      // counted only for the error.
      let start = 0;
      for (;;) {
        const reach = start - lineBytes + limits.maxLineBytes;
        const last = view.lastIndexOf(10, Math.min(reach, n - 1));
        if (last >= start) {
          start = last + 1;
          lineBytes = 0;
        } else if (reach < n) throw new ReadOverflowError({ kind: "line", line: lineAt(parts, view, start) }, limits);
        else break;
      }
      lineBytes += n - start;
      if (lineBytes > limits.maxLineBytes) throw new ReadOverflowError({ kind: "line", line: lineAt(parts, view, start) }, limits);
      if (total > limits.maxBytes) throw new ReadOverflowError({ kind: "total", line: lineAt(parts, view, n) }, limits);
      parts.push(view);
      // A regular file that gave exactly its size (one byte less than asked for) has ended: no
      // read to find that out. A shorter read (one capped by the system) goes on as before.
      if (first && n === size && stat.isFile()) break;
    }
    const [only] = parts;
    return parts.length === 1 && only ? only : Buffer.concat(parts, total);
  } finally {
    closeSync(fd);
  }
}

let scratch: Buffer | undefined;

/** The chunk-sized buffer every read after a file's first one reads into (reads are synchronous: one at a time). */
function scratchBuffer(): Buffer {
  scratch ??= Buffer.allocUnsafe(CHUNK);
  return scratch;
}

/** The 1-based number of the line holding byte `end` of `view`, the chunk read after `parts`. */
function lineAt(parts: readonly Buffer[], view: Buffer, end: number): number {
  let line = 1;
  for (const part of [...parts, view.subarray(0, end)]) for (let i = part.indexOf(10); i !== -1; i = part.indexOf(10, i + 1)) line++;
  return line;
}

/** Bytes as a short human figure (`16 MiB`). */
export function formatBytes(bytes: number): string {
  return bytes >= 1 << 20 ? `${Math.round(bytes / (1 << 20))} MiB` : bytes >= 1024 ? `${Math.round(bytes / 1024)} KiB` : `${bytes} bytes`;
}

/** How a reader names its input in errors. */
export interface EventFileNames {
  /** As in "cannot read transcript X": `transcript`, `Codex events`. */
  readonly noun: string;
  /** The function whose limits option raises a cap, for the hint. */
  readonly reader: string;
  /** What to pass instead, for an unreadable file. */
  readonly hint: string;
}

/**
 * A one-event-per-line file's text within `limits`, or a TRANSCRIPT_UNREADABLE ProctorError naming
 * the file (and the line, at a cap) and what to do.
 */
export function readEventFile(file: string, limits: ReadLimits, names: EventFileNames): string {
  return namingFailures(file, limits, names, readTextWithin);
}

/** readEventFile's bytes undecoded, for readers that decode line by line. */
export function readEventBytes(file: string, limits: ReadLimits, names: EventFileNames): Buffer {
  return namingFailures(file, limits, names, readBytesWithin);
}

function namingFailures<T>(file: string, limits: ReadLimits, names: EventFileNames, read: (file: string, limits: ReadLimits) => T): T {
  try {
    return read(file, limits);
  } catch (error) {
    if (error instanceof ReadOverflowError) {
      const { kind, line } = error.overflow;
      const why = kind === "line" ? `line ${line} is longer than ${formatBytes(limits.maxLineBytes)}` : `it is larger than ${formatBytes(limits.maxBytes)} (reading stopped at line ${line})`;
      throw new TranscriptError("TRANSCRIPT_UNREADABLE", `${names.noun} ${file}: ${why}; reading stopped there`, {
        detail: `  one event per line is expected: is this the right file? If it is, pass a larger ${kind === "line" ? "maxLineBytes" : "maxBytes"} to ${names.reader}`,
      });
    }
    throw new TranscriptError("TRANSCRIPT_UNREADABLE", `cannot read ${names.noun} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, {
      detail: `  ${names.hint}`,
      cause: error,
    });
  }
}
