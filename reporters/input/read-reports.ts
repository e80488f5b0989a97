/**
 * Measure reports from files, in every shape proctor writes them: one CheckReport, a JSON array of
 * them (`proctor run --json`), or a baseline (its reports). Each is validated; errors name the file.
 */
import { readDataFile } from "../../src/io/read-data-file.js";
import { validateCheckReport } from "../../src/measure/schema.js";
import type { CheckReport } from "../../src/measure/types.js";
import { BASELINE_FORMAT, validateBaseline } from "../baseline/format.js";

/** The reports a parsed JSON value holds; `source` names it in errors. */
export function reportsFromJSON(value: unknown, source: string): CheckReport[] {
  if (Array.isArray(value)) return value.map((r, i) => validateCheckReport(r, `${source}[${i}]`));
  if (typeof value === "object" && value !== null && (value as { format?: unknown }).format === BASELINE_FORMAT) {
    return Object.values(validateBaseline(value, source).evals);
  }
  return [validateCheckReport(value, source)];
}

/** Read every report in `files`, in order. */
export function readReportFiles(files: readonly string[]): CheckReport[] {
  return files.flatMap((file) => reportsFromJSON(readDataFile(file, { format: "json", what: "the report", code: "REPORT_INVALID" }), file));
}
