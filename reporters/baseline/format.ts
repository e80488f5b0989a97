/**
 * The baseline file: measure reports of known-good runs, keyed by eval name, in a versioned
 * envelope. A file of another format version is migrated by an explicit step or refused with a
 * message that says what to do — never read as if it were this version.
 */
import { ReportError, InvalidInputError } from "../../src/errors/proctor-error.js";
import { checkReportErrors } from "../../src/measure/schema.js";
import type { CheckReport } from "../../src/measure/types.js";
import { schemaChecker } from "../../src/schema/schema-errors.js";
import { optional, requireObject, wrongArgument } from "../../src/errors/arguments.js";

/** The `format` marker every baseline carries. */
export const BASELINE_FORMAT = "proctor-baseline";
/** The baseline format version this proctor writes; bumped on any incompatible change. */
export const BASELINE_VERSION = 1;

/** A baseline: one measure report per eval, by name. */
export interface Baseline {
  readonly format: typeof BASELINE_FORMAT;
  readonly version: typeof BASELINE_VERSION;
  /** Eval name → its report (each report's `name` equals its key). */
  readonly evals: Readonly<Record<string, CheckReport>>;
}

/** The envelope's schema; each report inside is held to the measure report schema. */
export const BASELINE_SCHEMA = {
  type: "object",
  required: ["format", "version", "evals"],
  additionalProperties: false,
  properties: {
    format: { const: BASELINE_FORMAT },
    version: { const: BASELINE_VERSION },
    evals: { type: "object", additionalProperties: { type: "object" } },
  },
} as const;

/**
 * Steps from an older format version to the next one (`from` → `from + 1`). Empty while version 1
 * is the only format ever written; a future version adds its step here, and reading an old file
 * runs every step in turn.
 */
const MIGRATIONS: Readonly<Record<number, (old: Record<string, unknown>) => Record<string, unknown>>> = {};

const checkBaseline = schemaChecker(BASELINE_SCHEMA, "baseline");

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function invalid(source: string, short: string, detail?: string): never {
  throw new ReportError("BASELINE_INVALID", `${source}: ${short}`, detail ? { detail } : undefined);
}

/** Bring an older format version up to this one, or refuse with what to do. */
function migrate(value: Record<string, unknown>, source: string): Record<string, unknown> {
  const version = value.version;
  if (typeof version !== "number" || !Number.isInteger(version)) {
    invalid(source, `the baseline has no usable format version (got ${JSON.stringify(version)})`, `  a baseline starts with {"format": "${BASELINE_FORMAT}", "version": ${BASELINE_VERSION}, …}; re-create it with \`proctor baseline --update\``);
  }
  if (version > BASELINE_VERSION) {
    invalid(
      source,
      `the baseline is format version ${version}, written by a newer proctor; this proctor reads format version ${BASELINE_VERSION}`,
      "  upgrade proctor (npm install -D proctor@latest), or re-create the baseline with this version's `proctor baseline --update`",
    );
  }
  let current = value;
  for (let v = version; v < BASELINE_VERSION; v++) {
    const step = MIGRATIONS[v];
    if (!step) {
      invalid(source, `the baseline is format version ${version}, which this proctor cannot read (it reads ${BASELINE_VERSION}${Object.keys(MIGRATIONS).length ? ` and migrates ${Object.keys(MIGRATIONS).join(", ")}` : ""})`, "  re-create it with `proctor baseline --update`");
    }
    current = step(current);
  }
  return current;
}

/** Every problem with `value` as a baseline, as `path: problem` lines (after any migration). */
export function baselineErrors(value: unknown, source = "baseline"): string[] {
  const schemaProblems = checkBaseline(value, source);
  if (schemaProblems.length > 0) return schemaProblems;
  const errors: string[] = [];
  for (const [name, report] of Object.entries((value as Baseline).evals)) {
    const at = `${source}.evals[${JSON.stringify(name)}]`;
    errors.push(...checkReportErrors(report, at));
    if (isObject(report) && report.name !== name) errors.push(`${at}.name: the report is named ${JSON.stringify(report.name)}, but it is stored under ${JSON.stringify(name)}`);
  }
  return errors;
}

/** Check a parsed value is a baseline of this format version (migrating older ones); throws BASELINE_INVALID. */
export function validateBaseline(value: unknown, source = "baseline"): Baseline {
  if (!isObject(value)) invalid(source, `not a proctor baseline: expected a JSON object, got ${Array.isArray(value) ? "an array" : JSON.stringify(value)?.slice(0, 40)}`);
  if (value.format !== BASELINE_FORMAT) {
    const looksLikeReport = "checks" in value && "trials" in value;
    invalid(
      source,
      looksLikeReport ? "this is a measure report, not a baseline" : `not a proctor baseline (no "format": "${BASELINE_FORMAT}")`,
      looksLikeReport
        ? "  make a baseline from reports with `proctor baseline --update BASELINE.json REPORT.json…` (or writeBaseline)"
        : "  a baseline is written by `proctor baseline --update`, `proctor run --baseline FILE --update-baseline`, or writeBaseline()",
    );
  }
  const migrated = migrate(value, source);
  const errors = baselineErrors(migrated, source);
  if (errors.length > 0) invalid(source, `not a valid baseline (${errors.length} problem${errors.length === 1 ? "" : "s"})`, errors.map((e) => `  ${e}`).join("\n"));
  return migrated as unknown as Baseline;
}

/** JSON text → a validated Baseline; `source` names the file in errors. */
export function parseBaseline(text: string, source = "baseline"): Baseline {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    invalid(source, `not JSON: ${(error as Error).message}`);
  }
  return validateBaseline(value, source);
}

/**
 * A baseline from measure reports. Each report needs a unique `name` (the eval's): that is how
 * a later run's report finds the one it is compared with.
 */
export function createBaseline(reports: readonly CheckReport[] | Readonly<Record<string, CheckReport>>, into?: Baseline): Baseline {
  if (typeof reports !== "object" || reports === null) throw wrongArgument("createBaseline", "reports", reports, "a list of check reports, or an object of them keyed by eval name");
  optional(requireObject, "createBaseline", "into", into, "a baseline to add to, or undefined");
  const list = Array.isArray(reports) ? (reports as readonly CheckReport[]) : Object.values(reports);
  const evals: Record<string, CheckReport> = { ...(into?.evals ?? {}) };
  const seen = new Set<string>();
  list.forEach((report, i) => {
    const name = report?.name;
    if (typeof name !== "string" || name === "") {
      throw new InvalidInputError("INVALID_INPUT", `reports[${i}] has no name: a baseline keys reports by eval name — measure({ name, … }) or defineEval({ name, … })`);
    }
    if (seen.has(name)) throw new InvalidInputError("INVALID_INPUT", `two reports are named ${JSON.stringify(name)}: merge shards first (proctor merge) or give the evals distinct names`);
    seen.add(name);
    evals[name] = report;
  });
  return validateBaseline({ format: BASELINE_FORMAT, version: BASELINE_VERSION, evals }, "new baseline");
}
