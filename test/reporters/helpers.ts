/** Reports for reporter tests, made by the real `measure` over synthetic traces. */
import { XMLParser } from "fast-xml-parser";
import { measure, notTool, tool, type CheckReport, type Thresholds } from "../../src/index.js";
import { makeTrace } from "../helpers/trace.js";

/** A measured eval where exactly `bashTrials` of `trials` use Bash (deterministic, no randomness). */
export function measureBash(name: string, trials: number, bashTrials: number, thresholds?: Thresholds): Promise<CheckReport> {
  return measure({
    name,
    trials,
    checks: [notTool("Bash"), tool("Read")],
    run: (trial) => makeTrace({ calls: [{ name: trial < bashTrials ? "Bash" : "Read", input: {} }], usage: { costUsd: 0.01, durationMs: 10, inputTokens: 10, outputTokens: 5, cacheCreationTokens: 0, cacheReadTokens: 0 } }),
    progress: false,
    seed: 1,
    ...(thresholds ? { thresholds } : {}),
  });
}

type Node = Record<string, unknown>;
const arrays = new Set(["testsuite", "testcase", "property"]);

/** Parse JUnit XML the way a consumer would; throws on malformed XML. */
export function parseJunit(xml: string): { root: Node; suites: Node[]; cases: (suite: Node) => Node[] } {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", isArray: (name) => arrays.has(name), cdataPropName: "#cdata" });
  const doc = parser.parse(xml, true) as { testsuites: Node };
  const root = doc.testsuites;
  return { root, suites: (root.testsuite as Node[]) ?? [], cases: (s) => (s.testcase as Node[]) ?? [] };
}

/** A testcase's properties as a record. */
export function props(testcase: Node): Record<string, string> {
  const list = ((testcase.properties as Node | undefined)?.property as Node[] | undefined) ?? [];
  return Object.fromEntries(list.map((p) => [p["@name"] as string, p["@value"] as string]));
}

/** Text content as the parser gives it: CDATA may come split in pieces (`]]>` is written as two sections). */
export function text(value: unknown): string {
  if (value === undefined) return "";
  if (Array.isArray(value)) return value.join("");
  if (typeof value === "object" && value !== null && "#cdata" in value) return text((value as Record<string, unknown>)["#cdata"]);
  return String(value);
}
