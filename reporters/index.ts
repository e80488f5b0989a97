/**
 * proctor/reporters — things that write: JUnit, baseline JSON, trace views, the promptfoo bridge.
 * Reporters only render: they read verdicts and reports and never compute a verdict of their own.
 */
export { stripAnsi, xmlSafe, escapeHtml } from "./text/sanitize.js";

// JUnit
export { buildJunitXml, writeJunit } from "./junit/xml.js";
export type { JunitCase, JunitSuite } from "./junit/xml.js";
export { renderJunitResults } from "./junit/from-results.js";
export { observedLines } from "./observed-lines.js";
export type { ResultSuite } from "./junit/from-results.js";
export { renderJunitReports, renderJunitDiff, reportSuites, diffSuites } from "./junit/from-reports.js";
export type { JunitReportOptions } from "./junit/from-reports.js";

// Baselines
export { BASELINE_FORMAT, BASELINE_VERSION, BASELINE_SCHEMA, createBaseline, validateBaseline, parseBaseline, baselineErrors } from "./baseline/format.js";
export type { Baseline } from "./baseline/format.js";
export { readBaseline, writeBaseline, stringifySorted } from "./baseline/file.js";
export { diffBaseline, renderBaselineDiff } from "./baseline/diff.js";
export type { BaselineDiff, EvalDiff, Regression } from "./baseline/diff.js";

// Trace views
export { renderTraceText } from "./trace-view/terminal.js";
export type { TraceTextOptions } from "./trace-view/terminal.js";
export { renderTraceHtml } from "./trace-view/html.js";
export type { TraceHtmlOptions } from "./trace-view/html.js";
export { shouldColour } from "./trace-view/colour.js";
export { readTraceFile, traceFromText } from "./input/read-trace.js";
export { readChecksFile } from "./input/read-checks.js";

// proctor run's HTML report
export { renderRunReportHtml } from "./html/run-report.js";

// proctor run's summary
export { renderRunSummary } from "./summary/run-summary.js";

// promptfoo bridge
export { gradeWithChecks, traceFromPromptfoo } from "./promptfoo/assertion.js";
export type { GradingResult, AssertionContext, AssertionConfig } from "./promptfoo/assertion.js";
export { buildPromptfooConfig } from "./promptfoo/export-config.js";
export type { PromptfooExportOptions } from "./promptfoo/export-config.js";
