/** The CheckReport's JSON Schema, and `validateCheckReport`/`parseCheckReport` with path-precise errors. */
import { requireString } from "../errors/arguments.js";
import { ReportError } from "../errors/proctor-error.js";
import { parseDataText } from "../io/read-data-file.js";
import { schemaChecker } from "../schema/schema-errors.js";
import { REPORT_VERSION, type CheckReport } from "./types.js";

const str = { type: "string" } as const;
const count = { type: "integer", minimum: 0 } as const;
const nonNeg = { type: "number", minimum: 0 } as const;
const unit = { type: "number", minimum: 0, maximum: 1 } as const;
const unitOrNull = { type: ["number", "null"], minimum: 0, maximum: 1 } as const;
const byK = { type: "object", propertyNames: { pattern: "^[1-9][0-9]*$" }, additionalProperties: unitOrNull } as const;

function obj(required: string[], properties: Record<string, unknown>) {
  return { type: "object", required, properties, additionalProperties: false };
}

const interval = obj(["low", "high"], { low: unit, high: unit });
const failure = obj(["trial", "message"], { trial: count, message: str });
const shard = obj(["index", "count"], { index: { type: "integer", minimum: 1 }, count: { type: "integer", minimum: 1 } });

export const CHECK_REPORT_SCHEMA = obj(["version", "confidence", "k", "trials", "checks", "errors", "usage", "metadata", "timing"], {
  version: { const: REPORT_VERSION },
  name: str,
  seed: { type: ["number", "string"] },
  confidence: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
  k: { type: "array", items: { type: "integer", minimum: 1 } },
  trials: obj(["requested", "planned", "ran", "completed", "errored", "skipped", "ranges"], {
    requested: count,
    planned: count,
    ran: count,
    completed: count,
    errored: count,
    skipped: count,
    ranges: { type: "array", items: { type: "array", items: count, minItems: 2, maxItems: 2 } },
  }),
  checks: {
    type: "array",
    items: obj(["label", "kind", "check", "n", "passes", "rate", "se", "interval", "passAtK", "passHatK", "scoreSum", "meanScore", "flaky", "outcomes", "failures"], {
      label: str,
      kind: str,
      check: { type: "object", required: ["kind"], properties: { kind: str } },
      n: count,
      passes: count,
      rate: unitOrNull,
      se: { type: ["number", "null"], minimum: 0 },
      interval,
      passAtK: byK,
      passHatK: byK,
      scoreSum: nonNeg,
      meanScore: unitOrNull,
      flaky: { type: "boolean" },
      outcomes: { type: "string", pattern: "^[10E]*$" },
      failures: { type: "array", items: failure },
    }),
  },
  errors: { type: "array", items: obj(["trial", "message"], { trial: count, message: str, code: str, health: { type: "array", items: str } }) },
  health: obj(["unhealthy", "items"], { unhealthy: count, items: { type: "object", additionalProperties: count } }),
  usage: obj(["costUsd", "inputTokens", "outputTokens", "cacheCreationTokens", "cacheReadTokens", "trialsWithUsage"], {
    costUsd: nonNeg,
    inputTokens: count,
    outputTokens: count,
    cacheCreationTokens: count,
    cacheReadTokens: count,
    trialsWithUsage: count,
  }),
  thresholds: obj([], {
    min: unit,
    per: { type: "object", additionalProperties: unit },
    by: { enum: ["rate", "lower"] },
    maxErrored: count,
  }),
  stopped: obj(["reason", "message"], { reason: { enum: ["budget", "early-stop", "aborted"] }, limit: { enum: ["maxUsd", "maxMs"] }, message: str }),
  skipped: obj(["reason"], { reason: str }),
  incomplete: obj(["reason", "message"], { reason: { enum: ["budget", "aborted", "missing-shards"] }, message: str, missingShards: { type: "array", items: str } }),
  failureExamples: count,
  shard,
  mergedFrom: { type: "array", items: str },
  ablation: obj(["component", "withoutReport", "alpha", "power", "checks"], {
    component: str,
    withoutReport: str,
    alpha: unit,
    power: unit,
    detect: { type: "number", minimum: -1, maximum: 1 },
    checks: {
      type: "array",
      items: obj(["label", "with", "without", "delta", "interval", "sequence", "pValue", "significant", "trialsPerArm"], {
        label: str,
        with: obj(["passes", "n"], { passes: count, n: count }),
        without: obj(["passes", "n"], { passes: count, n: count }),
        delta: { type: ["number", "null"], minimum: -1, maximum: 1 },
        interval: { anyOf: [{ type: "null" }, obj(["low", "high"], { low: { type: "number", minimum: -1, maximum: 1 }, high: { type: "number", minimum: -1, maximum: 1 } })] },
        sequence: obj(["low", "high"], { low: { type: "number", minimum: -1, maximum: 1 }, high: { type: "number", minimum: -1, maximum: 1 } }),
        pValue: unit,
        significant: { type: "boolean" },
        trialsPerArm: { type: ["integer", "null"], minimum: 1 },
        pairs: obj(["n", "up", "down", "sequence"], {
          n: count,
          up: count,
          down: count,
          sequence: obj(["low", "high"], { low: { type: "number", minimum: -1, maximum: 1 }, high: { type: "number", minimum: -1, maximum: 1 } }),
        }),
        namesRemoved: { type: "array", items: str },
      }),
    },
    removed: obj([], { skills: { type: "array", items: str }, agents: { type: "array", items: str }, hooks: { type: "array", items: str }, mcpServers: { type: "array", items: str } }),
    earlyStop: obj(["alpha", "minPairs", "stopped", "pairs", "cap", "verdicts"], {
      alpha: unit,
      minPairs: count,
      detect: { type: "number", minimum: -1, maximum: 1 },
      defaultDetect: { type: "boolean" },
      stopped: { type: "boolean" },
      pairs: count,
      cap: count,
      verdicts: { type: "array", items: obj(["label", "verdict"], { label: str, verdict: { enum: ["matters", "negligible", "open"] } }) },
    }),
  }),
  metadata: obj(["proctorVersion", "agentVersions", "models"], { proctorVersion: str, agentVersions: { type: "array", items: str }, models: { type: "array", items: str } }),
  timing: obj(["startedAt", "finishedAt", "wallMs", "agentMs"], { startedAt: str, finishedAt: str, wallMs: nonNeg, agentMs: nonNeg }),
});

const checkReport = schemaChecker(CHECK_REPORT_SCHEMA, "report");

/** Schema errors for `value` as a CheckReport (one `path: problem` line each); empty when it is one. */
export function checkReportErrors(value: unknown, root = "report"): string[] {
  if (typeof value === "object" && value !== null && "version" in value && value.version !== REPORT_VERSION) {
    const v = JSON.stringify((value as { version: unknown }).version);
    return [`${root}.version: this is a version ${v} report; this proctor reads version ${REPORT_VERSION} — re-run the measurement with this version or use the proctor that wrote it`];
  }
  const schemaProblems = checkReport(value, root);
  if (schemaProblems.length > 0) return schemaProblems;
  return consistencyErrors(value as CheckReport, root);
}

/** What the schema cannot say: counts that must agree with each other. */
function consistencyErrors(r: CheckReport, root: string): string[] {
  const out: string[] = [];
  const t = r.trials;
  if (t.ran !== t.completed + t.errored) out.push(`${root}.trials.ran: ${t.ran} ≠ completed ${t.completed} + errored ${t.errored}`);
  if (t.ran + t.skipped !== t.planned) out.push(`${root}.trials: ran ${t.ran} + skipped ${t.skipped} ≠ planned ${t.planned}`);
  const inRanges = t.ranges.reduce((sum, [a, b]) => sum + (b - a), 0);
  if (inRanges !== t.ran) out.push(`${root}.trials.ranges: cover ${inRanges} trials, but ran is ${t.ran}`);
  if (r.errors.length !== t.errored) out.push(`${root}.errors: lists ${r.errors.length} trials, but trials.errored is ${t.errored}`);
  r.checks.forEach((c, i) => {
    const at = `${root}.checks[${i}]`;
    if (c.passes > c.n) out.push(`${at}.passes: ${c.passes} > n ${c.n}`);
    if (c.n !== t.completed) out.push(`${at}.n: ${c.n}, but ${t.completed} trials completed`);
    if (c.outcomes.length !== t.ran) out.push(`${at}.outcomes: ${c.outcomes.length} characters for ${t.ran} trials that ran`);
  });
  return out;
}

/** Check `value` is a CheckReport; throws REPORT_INVALID listing every problem with its path. */
export function validateCheckReport(value: unknown, root = "report"): CheckReport {
  const errors = checkReportErrors(value, root);
  if (errors.length > 0) {
    throw new ReportError("REPORT_INVALID", `${root} is not a valid measure report (${errors.length} problem${errors.length === 1 ? "" : "s"})`, {
      detail: errors.map((e) => `  ${e}`).join("\n"),
    });
  }
  return value as CheckReport;
}

/** JSON text → a validated CheckReport; `source` names the file in errors. */
export function parseCheckReport(text: string, source = "report"): CheckReport {
  requireString("parseCheckReport", "text", text, "the JSON text of a report (proctor run --json)");
  return validateCheckReport(parseDataText(text, source, { code: "REPORT_INVALID" }), source);
}

/** JSON text holding one CheckReport or an array of them (what `proctor run --json` writes). */
export function parseCheckReports(text: string, source = "report"): CheckReport[] {
  const value = parseDataText(text, source, { code: "REPORT_INVALID" });
  return Array.isArray(value) ? value.map((r, i) => validateCheckReport(r, `${source}[${i}]`)) : [validateCheckReport(value, source)];
}
