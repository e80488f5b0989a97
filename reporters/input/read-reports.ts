/**
 * Measure reports from files, in every shape proctor writes them: one CheckReport, a JSON array of
 * them (`proctor run --json`), or a baseline (its reports). Each is validated; errors name the file.
 */
import { InvalidInputError, ReportError } from "../../src/errors/proctor-error.js";
import { refuseDeepJson } from "../../src/io/json-depth.js";
import { JSON_FILE_LIMITS, readTextWithin } from "../../src/io/read-bounded.js";
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
  return files.flatMap((file) => {
    let text: string;
    try {
      text = readTextWithin(file, JSON_FILE_LIMITS);
    } catch (error) {
      throw new InvalidInputError("INVALID_INPUT", `cannot read the report ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
    }
    refuseDeepJson(text, `the report ${file}`);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new ReportError("REPORT_INVALID", `${file} is not JSON: ${(error as Error).message}`, { cause: error });
    }
    return reportsFromJSON(value, file);
  });
}
