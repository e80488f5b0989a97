/**
 * The small JUnit vocabulary every proctor JUnit file is built from, on top of
 * junit-report-builder: suites of cases, each passed, failed, or skipped, with properties.
 * Text is sanitised here, once, so no renderer can write ANSI or a forbidden character into XML.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import type { Builder } from "junit-report-builder";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { firstLine, xmlSafe } from "../text/sanitize.js";

/** One testcase, as data. */
export interface JunitCase {
  readonly name: string;
  /** The `classname` attribute (CI systems group by it); usually the suite's name. */
  readonly className: string;
  /** A failure, with its full text; the first line becomes the `message` attribute. */
  readonly failure?: { readonly text: string; readonly type: string };
  /**
   * An error: the test could not reach a verdict (an unhealthy run: it did not happen as designed),
   * with its full text; the first line becomes the `message` attribute.
   */
  readonly error?: { readonly text: string; readonly type: string };
  /** Skipped, with the reason (written to system-out). */
  readonly skipped?: string;
  readonly properties?: Readonly<Record<string, string | number | boolean | undefined>> | undefined;
  /** Text for `<system-out>` (rates, notes). */
  readonly output?: string;
  readonly timeSeconds?: number;
}

/** One testsuite, as data. */
export interface JunitSuite {
  readonly name: string;
  readonly cases: readonly JunitCase[];
  readonly properties?: Readonly<Record<string, string | number | boolean | undefined>> | undefined;
  readonly timeSeconds?: number | undefined;
  readonly timestamp?: Date | undefined;
}

let junit: Builder | undefined;
/**
 * junit-report-builder (about 130 ms to load), on the first XML built, not when the reporters are
 * imported. The package is CommonJS whose module.exports is the builder; its types describe an ES default.
 */
function loadJunit(): Builder {
  if (junit === undefined) {
    const loaded = createRequire(import.meta.url)("junit-report-builder") as { default?: Builder } & Builder;
    junit = loaded.default ?? loaded;
  }
  return junit;
}

/** The `message` attribute: one readable line, never the whole multi-line text. */
function messageLine(text: string): string {
  return firstLine(text, 300) || "failed";
}

/** Build the XML document of `suites` (the root `<testsuites>` carries `name` and totals). */
export function buildJunitXml(suites: readonly JunitSuite[], name = "proctor"): string {
  requireSuites(suites);
  const builder = loadJunit().newBuilder().name(xmlSafe(name));
  for (const suite of suites) {
    const s = builder.testSuite().name(xmlSafe(suite.name));
    if (suite.timeSeconds !== undefined) s.time(suite.timeSeconds);
    if (suite.timestamp) s.timestamp(suite.timestamp);
    for (const [key, value] of Object.entries(suite.properties ?? {})) if (value !== undefined) s.property(key, xmlSafe(String(value)));
    for (const c of suite.cases) {
      const tc = s.testCase().className(xmlSafe(c.className)).name(xmlSafe(c.name));
      if (c.timeSeconds !== undefined) tc.time(c.timeSeconds);
      for (const [key, value] of Object.entries(c.properties ?? {})) if (value !== undefined) tc.property(key, xmlSafe(String(value)));
      if (c.failure) {
        tc.failure(xmlSafe(messageLine(c.failure.text)), c.failure.type);
        tc.stacktrace(xmlSafe(c.failure.text));
      }
      if (c.error) tc.error(xmlSafe(messageLine(c.error.text)), c.error.type, xmlSafe(c.error.text));
      if (c.skipped !== undefined) tc.skipped();
      const out = [c.output, c.skipped !== undefined ? `skipped: ${c.skipped}` : undefined].filter((x) => x !== undefined && x !== "").join("\n");
      if (out) tc.standardOutput(xmlSafe(out));
    }
  }
  return builder.build();
}

/** Refuse suites whose shape the XML builder would trip over, naming the bad field. */
function requireSuites(suites: readonly JunitSuite[]): void {
  const refuse = (input: string, what: string) => {
    throw new InvalidInputError("INVALID_INPUT", `buildJunitXml: ${input} must be ${what}`, { input, hint: "build suites with reportSuites(reports) or renderJunitResults(suites)" });
  };
  if (!Array.isArray(suites as unknown)) refuse("suites", "an array of suites");
  suites.forEach((suite, i) => {
    if (typeof suite?.name !== "string") refuse(`suites[${i}].name`, "a string");
    if (!Array.isArray(suite.cases)) refuse(`suites[${i}].cases`, "an array of test cases");
    suite.cases.forEach((c, j) => {
      if (typeof c?.name !== "string" || typeof c.className !== "string") refuse(`suites[${i}].cases[${j}]`, "a test case with a string name and className");
    });
  });
}

/** Write a JUnit document, creating the directory; a failure names the path. */
export function writeJunit(file: string, xml: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, xml.endsWith("\n") ? xml : `${xml}\n`);
  } catch (error) {
    throw new InvalidInputError("INVALID_INPUT", `cannot write the JUnit report ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
  }
}
