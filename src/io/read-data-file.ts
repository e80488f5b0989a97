/**
 * One way to read a file of JSON, JSON lines or YAML: read within caps, parse (YAML's parser
 * loaded only for YAML), and fail with a ProctorError that names the file, the line and column,
 * and what to do — instead of each reader writing its own read → parse → error sequence.
 */
import { createRequire } from "node:module";
import { errorForCode, type DataErrorCode } from "../errors/proctor-error.js";
import { refuseDeepJson } from "./json-depth.js";
import { JSON_FILE_LIMITS, readTextWithin, ReadOverflowError, type ReadLimits } from "./read-bounded.js";

/** How a data file is written. `auto`: by the name's extension, else JSON when the text starts with `{` or `[`, else YAML. */
export type DataFormat = "json" | "jsonl" | "yaml" | "auto";

/** How to parse a data text, and how its errors read. */
export interface DataTextOptions {
  /** @default "json" */
  readonly format?: DataFormat;
  /** The error code a read or parse failure carries. @default "INVALID_INPUT" */
  readonly code?: DataErrorCode;
  /** What to do about a file that does not parse, as the error's detail (e.g. an example of the expected form). */
  readonly hint?: string;
  /** What the text is, as in "the report X nests deeper than …": `checks file`, `the report`. */
  readonly what?: string;
}

/** How to read a data file. */
export interface DataFileOptions extends DataTextOptions {
  /** What the file is, as in "cannot read the report X": `checks file`, `the report`, `policy file`. */
  readonly what: string;
  /** @default "auto" */
  readonly format?: DataFormat;
  /** @default JSON_FILE_LIMITS (64 MiB) */
  readonly limits?: ReadLimits;
  /** What to do when the file does not exist, as the error's detail (e.g. the command that creates it). */
  readonly ifMissing?: string;
}

/** Read and parse a data file. Throws a ProctorError (`options.code`) naming the file and the place it stops making sense. */
export function readDataFile(file: string, options: DataFileOptions): unknown {
  const limits = options.limits ?? JSON_FILE_LIMITS;
  let text: string;
  try {
    text = readTextWithin(file, limits);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = error instanceof ReadOverflowError ? error.message : (code ?? (error as Error).message);
    const detail = code === "ENOENT" && options.ifMissing ? { detail: `  ${options.ifMissing}` } : {};
    throw errorForCode(options.code ?? "INVALID_INPUT", `cannot read ${options.what} ${file}: ${why}`, { ...detail, cause: error });
  }
  return parseDataText(text, file, { ...options, format: options.format ?? "auto" });
}

/** Parse data text; `source` names it in errors (a file name, `stdin`). Throws like readDataFile. */
export function parseDataText(text: string, source: string, options: DataTextOptions = {}): unknown {
  const format = resolveFormat(options.format ?? "json", source, text);
  const code = options.code ?? "INVALID_INPUT";
  const fail = (message: string, cause: unknown): never => {
    throw errorForCode(code, message, { ...(options.hint ? { detail: `  ${options.hint}` } : {}), cause });
  };
  if (format === "yaml") {
    try {
      return (createRequire(import.meta.url)("yaml") as typeof import("yaml")).parse(text);
    } catch (error) {
      return fail(`${source} is not YAML: ${(error as Error).message}`, error);
    }
  }
  const named = options.what ? `${options.what} ${source}` : source;
  if (format === "jsonl") return parseJsonLines(text, source, named, fail);
  refuseDeepJson(text, named);
  try {
    return JSON.parse(text);
  } catch (error) {
    return fail(`${source} is not JSON: ${withPlace((error as Error).message, text)}`, error);
  }
}

function parseJsonLines(text: string, source: string, named: string, fail: (message: string, cause: unknown) => never): unknown[] {
  const values: unknown[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (line === "") continue;
    refuseDeepJson(line, `${named} line ${i + 1}`);
    try {
      values.push(JSON.parse(line));
    } catch (error) {
      fail(`${source} line ${i + 1} is not JSON: ${(error as Error).message}`, error);
    }
  }
  return values;
}

function resolveFormat(format: DataFormat, name: string, text?: string): Exclude<DataFormat, "auto"> {
  if (format !== "auto") return format;
  if (/\.json$/i.test(name)) return "json";
  if (/\.(?:jsonl|ndjson)$/i.test(name)) return "jsonl";
  if (/\.ya?ml$/i.test(name)) return "yaml";
  return text === undefined || /^\s*[{[]/.test(text) ? "json" : "yaml";
}

/** JSON.parse's message with the line and column where the text stops being JSON (Node 20's messages rarely say). */
function withPlace(message: string, text: string): string {
  const at = firstBadOffset(text);
  const before = text.slice(0, at);
  const line = before.split("\n").length;
  const column = at - before.lastIndexOf("\n");
  return `${message} (line ${line}, column ${column})`;
}

/**
 * The offset of the first character no JSON text could continue with (the text's length when it
 * merely stops early). Every prefix of a JSON text either parses or ends too soon, so a binary
 * search over prefixes finds it in ~2× the text's length of parsing — paid only on failure.
 */
function firstBadOffset(text: string): number {
  const fine = (n: number) => {
    try {
      JSON.parse(text.slice(0, n));
      return true;
    } catch (error) {
      // The prefix ran out: "Unexpected end", or an error placed at its very end ("… at position n").
      const message = (error as Error).message;
      const at = /\bat position (\d+)/.exec(message);
      return /^Unexpected end of JSON input/.test(message) || (at !== null && Number(at[1]) >= n);
    }
  };
  if (fine(text.length)) return text.length;
  let lo = 0;
  let hi = text.length;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (fine(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}
