/** Reading and writing baseline files: sorted keys and two-space indent, so a baseline's git diff shows only what changed. */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { readDataFile } from "../../src/io/read-data-file.js";
import type { CheckReport } from "../../src/measure/types.js";
import { createBaseline, validateBaseline, type Baseline } from "./format.js";

/** Recursively copy `value` with object keys in sorted order (arrays keep their order). */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value === "object" && value !== null) {
    // fromEntries defines own keys, `__proto__` included (a tool input may have one); assigning would set the prototype instead.
    const entries = Object.keys(value)
      .sort()
      .flatMap((key) => {
        const v = (value as Record<string, unknown>)[key];
        return v === undefined ? [] : [[key, sortKeys(v)] as const];
      });
    return Object.fromEntries(entries);
  }
  return value;
}

/** JSON with sorted keys, two-space indent and a final newline. */
export function stringifySorted(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

/** Read and validate a baseline file (older format versions migrated or refused, never misread). */
export function readBaseline(file: string): Baseline {
  const value = readDataFile(file, {
    format: "json",
    what: "the baseline",
    code: "BASELINE_INVALID",
    ifMissing: "create it with `proctor baseline --update FILE REPORT.json…` or `proctor run --baseline FILE --update-baseline`",
  });
  return validateBaseline(value, file);
}

/** Write a baseline (from reports or a Baseline), validated first; keys sorted. Returns what was written. */
export function writeBaseline(file: string, content: Baseline | readonly CheckReport[]): Baseline {
  const baseline = Array.isArray(content) ? createBaseline(content) : validateBaseline(content, "baseline to write");
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, stringifySorted(baseline));
  } catch (error) {
    throw new InvalidInputError("INVALID_INPUT", `cannot write the baseline ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
  }
  return baseline;
}
