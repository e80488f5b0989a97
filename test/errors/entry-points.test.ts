/**
 * Every public entry point, fed malformed input, fails with a ProctorError of the right class and
 * code — never a TypeError, a dependency's error or a stack trace. The exports of each entry are
 * enumerated, so a new exported function without a case here fails this test: give it a case, or
 * a reason it takes no input that can be malformed.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import * as proctor from "../../src/index.js";
import * as safety from "../../src/safety.js";
import * as harness from "../../harness/index.js";
import * as mockModel from "../../mock-model/index.js";
import * as reporters from "../../reporters/index.js";
import * as nodeTest from "../../src/plugins/node-test.js";
import * as vitestPlugin from "../../src/plugins/vitest.js";
import { ConfigError, InvalidInputError, isProctorError, ProctorError, ReportError, RunError, TranscriptError } from "../../src/errors/proctor-error.js";
import { InvalidCheckError } from "../../src/checks/validate.js";
import { ChecksFailedError } from "../../src/expect.js";
import { RatesBelowThresholdError } from "../../src/measure/thresholds.js";
import type { Trace } from "../../src/trace/types.js";

type ErrorClass = abstract new (...args: never[]) => ProctorError;

/** How an export is exercised: a call with malformed input and the error it must throw, or why it has none. */
type Case =
  | { readonly call: () => unknown; readonly throws: ErrorClass; readonly code: string }
  | { readonly noInput: string };

const ROOT = new URL("../../", import.meta.url).pathname;
const dir = mkdtempSync(path.join(tmpdir(), "proctor-entry-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};
const MISSING = path.join(dir, "missing.json");
const notJson = () => file("not.json", "{ this is not json");
const transcript = readFileSync(path.join(ROOT, "test/fixtures/transcripts/edit-write-bash-fail.jsonl"), "utf8");
const trace = (): Trace => proctor.parseTranscript(transcript);
const notATrace = { toolCalls: "none" } as unknown as Trace;
const notAReport = { evals: 3 } as never;

const bad = (call: () => unknown, throws: ErrorClass, code: string): Case => ({ call, throws, code });
const input = (call: () => unknown) => bad(call, InvalidInputError, "INVALID_INPUT");
const check = (call: () => unknown) => bad(call, InvalidCheckError, "INVALID_CHECK");
const notTrace = (call: () => unknown) => bad(call, TranscriptError, "INVALID_TRACE");
const report = (call: () => unknown) => bad(call, ReportError, "REPORT_INVALID");
const errorClass: Case = { noInput: "an error class: constructed by proctor, not fed input" };
const total = (why: string): Case => ({ noInput: `total: ${why}` });

const PROCTOR: Record<string, Case> = {
  ProctorError: errorClass,
  InvalidInputError: errorClass,
  TranscriptError: errorClass,
  ConfigError: errorClass,
  ReportError: errorClass,
  RunError: errorClass,
  InternalError: errorClass,
  ChecksFailedError: errorClass,
  InvalidCheckError: errorClass,
  RatesBelowThresholdError: errorClass,
  isProctorError: total("a predicate on any value"),
  isEvalDefinition: total("a predicate on any value"),
  definedIn: total("undefined for any value that is not a declared eval"),
  knownCheckKinds: { noInput: "takes no arguments" },
  allowed: { noInput: "takes no arguments" },
  blocked: { noInput: "takes no arguments" },
  formatShard: total("formats any shard spec"),
  // Checks: a malformed parameter fails when the check is built.
  advertised: check(() => proctor.advertised("")),
  cacheTokens: check(() => proctor.cacheTokens({})),
  cost: check(() => proctor.cost({ maxUsd: -1 })),
  custom: check(() => proctor.custom("k", 42 as never)),
  denied: check(() => proctor.denied("")),
  didNotWrite: check(() => proctor.didNotWrite("")),
  deleted: check(() => proctor.deleted("")),
  hookFired: check(() => proctor.hookFired("")),
  inputTokens: check(() => proctor.inputTokens({ max: -1 })),
  judged: check(() => proctor.judged("rubric", { min: 2 })),
  latency: check(() => proctor.latency({ maxMs: -1 })),
  mcp: check(() => proctor.mcp("", "")),
  notTool: check(() => proctor.notTool("")),
  onlyTools: check(() => proctor.onlyTools("Bash" as never)),
  output: check(() => proctor.output(42 as never)),
  outputTokens: check(() => proctor.outputTokens({ max: -1 })),
  received: check(() => proctor.received(42 as never)),
  replayMatches: check(() => proctor.replayMatches({ ignore: ["nonsense"] as never })),
  replyCount: check(() => proctor.replyCount("x", { min: -1 })),
  eachReply: check(() => proctor.eachReply(42 as never)),
  skill: check(() => proctor.skill("")),
  subagent: check(() => proctor.subagent("Explore", "tool" as never)),
  tokens: check(() => proctor.tokens({ max: -1 })),
  tool: check(() => proctor.tool("")),
  toolCount: check(() => proctor.toolCount("Bash", { min: 3, max: 1 })),
  toolStatus: check(() => proctor.toolStatus("Bash", "sideways" as never)),
  toolStatuses: check(() => proctor.toolStatuses("Bash", ["sideways"] as never)),
  toolResult: check(() => proctor.toolResult("Bash", 42 as never)),
  hookSaid: check(() => proctor.hookSaid("Stop", "x", { in: "stdout" } as never)),
  fileContains: check(() => proctor.fileContains("", "x")),
  notOffered: check(() => proctor.notOffered("")),
  withinAllowedTools: check(() => proctor.withinAllowedTools(path.join(dir, "missing.md"))),
  toolWith: check(() => proctor.toolWith("", {})),
  effects: check(() => proctor.effects("Bash", { writes: "none" } as never)),
  trajectory: check(() => proctor.trajectory("Bash" as never)),
  turns: check(() => proctor.turns({ min: -1 })),
  wrote: check(() => proctor.wrote("")),
  wroteOnly: check(() => proctor.wroteOnly("a.txt" as never)),
  defineCheck: check(() => proctor.defineCheck("", {}, (() => true) as never)),
  registerCheckKind: check(() => proctor.registerCheckKind("", () => proctor.tool("Bash") as never)),
  checkFromJSON: check(() => proctor.checkFromJSON({ kind: "no-such-kind" })),
  checksFromJSON: check(() => proctor.checksFromJSON({ kind: "tool" })),
  setDefaultJudge: check(() => proctor.setDefaultJudge(42 as never)),
  // Evaluating and asserting.
  evalChecks: input(() => proctor.evalChecks(trace(), "tool" as never)),
  evaluateChecks: input(() => proctor.evaluateChecks(trace(), "tool" as never)),
  expect: input(() => proctor.expect(trace(), [])),
  assertChecks: input(() => proctor.assertChecks(trace(), [])),
  assertRates: report(() => proctor.assertRates(notAReport)),
  evaluateThresholds: report(() => proctor.evaluateThresholds(notAReport)),
  // Traces and transcripts.
  parseTranscript: total("any text is read line by line; malformed lines are reported in the trace's errors"),
  readTranscript: bad(() => proctor.readTranscript(path.join(dir, "missing.jsonl")), TranscriptError, "TRANSCRIPT_UNREADABLE"),
  validateTrace: notTrace(() => proctor.validateTrace({ version: 99 })),
  // Run health.
  RunUnhealthyError: errorClass,
  assessHealth: input(() => proctor.assessHealth({} as never)),
  describeHealth: input(() => proctor.describeHealth({ ok: false } as never)),
  trialHealth: total("anything that is not a Trace has no run to judge (undefined)"),
  validateHealthSwitches: input(() => proctor.validateHealthSwitches({ "hooks-ok": "" }, "health")),
  // Measuring and statistics.
  measure: input(() => proctor.measure({ trials: 0 } as never)),
  measureArms: input(() => proctor.measureArms({ arms: {} } as never)),
  mergeReports: input(() => proctor.mergeReports([])),
  missingShards: total("reads each report's shard field; a report without one is unsharded"),
  compareReports: report(() => proctor.compareReports(notAReport, notAReport)),
  parseCheckReport: report(() => proctor.parseCheckReport("{ not json")),
  validateCheckReport: report(() => proctor.validateCheckReport({ evals: 3 })),
  parseShard: input(() => proctor.parseShard("5/4")),
  shardTrials: input(() => proctor.shardTrials(-1, "1/2")),
  seededRandom: input(() => proctor.seededRandom(Number.NaN)),
  trialRandom: input(() => proctor.trialRandom(Number.NaN, 0)),
  passAtK: input(() => proctor.passAtK(3, 5, 1)),
  passHatK: input(() => proctor.passHatK(3, 1, 0)),
  wilsonInterval: input(() => proctor.wilsonInterval(1, 3, 2)),
  compareProportions: input(() => proctor.compareProportions({ passes: 5, n: 3 }, { passes: 1, n: 3 })),
  fisherExact: input(() => proctor.fisherExact({ passes: 5, n: 3 }, { passes: 1, n: 3 })),
  holmAdjust: input(() => proctor.holmAdjust([2])),
  defineTriggerSuite: input(() => proctor.defineTriggerSuite({ name: "x", target: { skill: "s" }, shouldTrigger: ["a"], shouldNotTrigger: [] })),
  measureTriggers: input(() => proctor.measureTriggers({ name: "x", target: { skill: "s" }, shouldTrigger: ["a"], shouldNotTrigger: ["b"] }, { run: () => trace(), trials: 0 })),
  scoreTriggers: input(() => proctor.scoreTriggers({} as never, "x" as never)),
  collisionMatrix: input(() => proctor.collisionMatrix("x" as never)),
  triggerFired: notTrace(() => proctor.triggerFired({} as never, { skill: "s" })),
  firedTargets: notTrace(() => proctor.firedTargets({} as never)),
  renderTriggerReport: input(() => proctor.renderTriggerReport(3 as never)),
  // Ablation, sequential stopping and the forecast.
  ablateSpec: input(() => proctor.ablateSpec({}, { kind: "nope" } as never)),
  compareAblation: input(() => proctor.compareAblation({} as never, {} as never, "plugin:x")),
  detectableDelta: input(() => proctor.detectableDelta(2, 10)),
  differenceSequence: input(() => proctor.differenceSequence({ passes: 5, n: 3 }, { passes: 1, n: 3 })),
  fisherPower: input(() => proctor.fisherPower(2, 0.5, 10)),
  fixedRule: input(() => proctor.fixedRule(2, 0.05, 10)),
  fixedTrialsForPower: input(() => proctor.fixedTrialsForPower(2, 0.5, 0.05, 0.8)),
  forecastEval: input(() => proctor.forecastEval({} as never)),
  formatAblationCheck: input(() => proctor.formatAblationCheck(3 as never, {} as never)),
  parseComponent: input(() => proctor.parseComponent("nope")),
  renderForecast: input(() => proctor.renderForecast("x" as never)),
  repeatedWilsonRule: input(() => proctor.repeatedWilsonRule(2, 0.95)),
  sequenceInterval: input(() => proctor.sequenceInterval(5, 3)),
  sequenceP: input(() => proctor.sequenceP(5, 3, 0.5)),
  sequenceRule: input(() => proctor.sequenceRule(2, 0.05)),
  stoppingCurve: input(() => proctor.stoppingCurve(proctor.sequenceRule(0.5, 0.05), 0.5, -1)),
  pairedSequence: input(() => proctor.pairedSequence({ n: 2, up: 2, down: 1 })),
  pairedVerdict: input(() => proctor.pairedVerdict({ n: 5, up: 1, down: 1 }, 1.5)),
  pairedStoppingCurve: input(() => proctor.pairedStoppingCurve(0.05, 0.6, 0.6, 10)),
  discordantRule: input(() => proctor.discordantRule(0)),
  trialsPerArm: input(() => proctor.trialsPerArm(2, 0.1)),
  verdictAgainst: input(() => proctor.verdictAgainst(5, 3, 0.5, 0.05)),
  // Evals.
  defineEval: input(() => proctor.defineEval({ name: "" } as never)),
  loadEvalFiles: input(() => proctor.loadEvalFiles([MISSING])),
  runEvals: input(() => proctor.runEvals([], { tiers: {}, budgetUsd: -1 } as never)),
};

const SAFETY: Record<string, Case> = {
  loadShellParser: { noInput: "takes no arguments" },
  explainStatusOnlyNearMiss: total("describes any value, or returns undefined"),
  readToolResultEnvelope: total("reads any value, or returns undefined"),
  shellCommandOf: total("reads any value, or returns undefined"),
  stripRungToolDescriptionSuffix: total("every string is a description"),
  isReadOnlyBash: total("every string is a shell command (undecidable ones are not read-only)"),
  classifyBash: total("every string is a shell command; unparseable ones are classified undecidable"),
  explainBash: total("every string is a shell command; unparseable ones are explained as undecidable"),
  simpleCommands: total("every string is a shell command; unparseable ones give undefined"),
  tenantOf: total("every cursor string names a tenant or none"),
  activeLeaseIds: total("every lease list and iteration"),
  pruneLeases: total("every lease list and iteration"),
  getRungToolDescriptionSuffix: total("every approval rung has a suffix or none"),
  isAccessClassGrantedAtRung: total("a predicate over a tool name and a rung"),
  isGrantedAtRung: total("a predicate over a tool name, a rung and a list"),
  isToolGatedAtRung: total("a predicate over a query"),
  resolveGatedToolNames: total("every option set names its gated tools"),
  applyRungAwareToolDescriptions: total("every tool list gets descriptions"),
  classifyToolEffect: total("an unknown tool name is classified unknown, not refused"),
  classifyTrifectaLegs: total("unknown tool names hold no leg"),
  effectSurface: total("unknown tool names have an unknown effect"),
  holdsLethalTrifecta: total("a predicate over three legs"),
  pureContractViolations: total("returns the violations as data"),
  purityViolations: total("returns the violations as data"),
  toolCallFacts: total("any arguments give facts (unknown ones are marked unknown)"),
  buildRuleOfTwoPolicy: total("every profile compiles"),
  evaluateToolArgumentPolicy: total("a parsed policy decides every call"),
  evaluatePermissionDecision: total("a parsed policy decides every call"),
  isToolDeniedByName: total("a parsed policy decides every name"),
  decidePurityGate: total("every call is allowed, denied or asked about"),
  decideGate: total("every call is allowed, denied or asked about"),
  readSkillDeclaration: total("returns the problems (a missing SKILL.md among them) as data"),
  skillContract: total("a missing or malformed SKILL.md becomes a check that fails naming the file"),
  // Checks: a malformed parameter fails when the check is built.
  lethalTrifecta: check(() => safety.lethalTrifecta("Bash" as never)),
  purity: check(() => safety.purity("spotless" as never)),
  skillPurity: check(() => safety.skillPurity("s", "spotless" as never)),
  skillTools: check(() => safety.skillTools("s", "Bash" as never)),
  // Policies.
  parsePolicy: bad(() => safety.parsePolicy({ rules: 3 }), ConfigError, "POLICY_INVALID"),
  parsePolicyText: bad(() => safety.parsePolicyText("{ not json", "p.json", "json"), ConfigError, "POLICY_INVALID"),
  readPolicyFile: bad(() => safety.readPolicyFile(MISSING), ConfigError, "POLICY_INVALID"),
};

const HARNESS: Record<string, Case> = {
  HarnessError: errorClass,
  ProctorProvider: { noInput: "a promptfoo provider class: its constructor options are checked when it runs (runHarness's cases)" },
  runHarness: input(() => harness.runHarness({ prompt: "", script: { turns: [] } } as never)),
  runReplay: bad(() => harness.runReplay({ recording: path.join(dir, "missing.jsonl") }), TranscriptError, "TRANSCRIPT_UNREADABLE"),
  runEval: input(() => harness.runEval({ prompt: "" } as never)),
  validateEvalSpec: input(() => harness.validateEvalSpec({ prompt: 42 })),
  runCodex: input(() => harness.runCodex({ prompt: "" } as never)),
  runHook: input(() => harness.runHook("", "PreToolUse")),
  buildHookInput: total("hook event names are free-form strings; any options give an input"),
  matcherMatches: input(() => harness.matcherMatches("(", "Bash")),
  resolveClaudeBinary: bad(() => harness.resolveClaudeBinary({ claudePath: MISSING }), RunError, "BINARY_MISSING"),
  resolveCodexBinary: bad(() => harness.resolveCodexBinary({ codexPath: MISSING }), RunError, "BINARY_MISSING"),
  apiKeyMissing: total("says what is missing as data"),
  scrubEnv: total("every environment has an allowed subset"),
  buildEvalArgs: { noInput: "builds arguments from a spec validateEvalSpec has checked (its case)" },
  buildEvalEnv: { noInput: "builds an environment from a spec validateEvalSpec has checked (its case)" },
  claudeJudge: input(() => harness.claudeJudge({ timeoutMs: -1 } as never)),
  gradingPrompt: total("renders any judge input"),
  parseTranscript: total("the same function as proctor's parseTranscript"),
  readTranscript: bad(() => harness.readTranscript(path.join(dir, "missing.jsonl")), TranscriptError, "TRANSCRIPT_UNREADABLE"),
  parseCodexJsonl: total("any text is read line by line; malformed lines are reported in the trace's errors"),
  readCodexJsonl: bad(() => harness.readCodexJsonl(path.join(dir, "missing.jsonl")), TranscriptError, "TRANSCRIPT_UNREADABLE"),
};

const MOCK_MODEL: Record<string, Case> = {
  startMockModel: input(() => mockModel.startMockModel({ port: -1 })),
  loadScript: bad(() => mockModel.loadScript(MISSING), ConfigError, "SCRIPT_INVALID"),
  parseScript: bad(() => mockModel.parseScript("{ not json"), ConfigError, "SCRIPT_INVALID"),
  validateScript: bad(() => mockModel.validateScript({ turns: "none" }), ConfigError, "SCRIPT_INVALID"),
  scriptErrors: total("returns the problems of any value as data"),
  readOfferedTools: total("reads the tools of any request body, or none"),
  readRecording: bad(() => mockModel.readRecording(path.join(dir, "missing.jsonl")), TranscriptError, "TRANSCRIPT_UNREADABLE"),
  scriptFromRecording: input(() => mockModel.scriptFromRecording({} as never)),
  scriptFromTranscript: bad(() => mockModel.scriptFromTranscript(path.join(dir, "missing.jsonl")), TranscriptError, "TRANSCRIPT_UNREADABLE"),
};

const REPORTERS: Record<string, Case> = {
  readChecksFile: input(() => reporters.readChecksFile(MISSING)),
  readTraceFile: bad(() => reporters.readTraceFile(MISSING), TranscriptError, "TRANSCRIPT_UNREADABLE"),
  traceFromText: total("any text is read as a transcript; malformed lines are reported in the trace's errors"),
  traceFromPromptfoo: total("finds a trace in any output, or returns undefined"),
  gradeWithChecks: { noInput: "a promptfoo assertion: it reports bad input as a failed grade with the reason, never throws" },
  readBaseline: bad(() => reporters.readBaseline(MISSING), ReportError, "BASELINE_INVALID"),
  parseBaseline: bad(() => reporters.parseBaseline("[]", "b.json"), ReportError, "BASELINE_INVALID"),
  validateBaseline: bad(() => reporters.validateBaseline([]), ReportError, "BASELINE_INVALID"),
  baselineErrors: total("returns the problems of any value as data"),
  createBaseline: input(() => reporters.createBaseline([notAReport])),
  writeBaseline: input(() => reporters.writeBaseline(path.join(dir, "b.json"), [notAReport])),
  diffBaseline: bad(() => reporters.diffBaseline({} as never, []), ReportError, "BASELINE_INVALID"),
  renderBaselineDiff: { noInput: "renders a diff diffBaseline built (its case)" },
  diffSuites: { noInput: "renders a diff diffBaseline built (its case)" },
  renderJunitDiff: { noInput: "renders a diff diffBaseline built (its case)" },
  buildJunitXml: input(() => reporters.buildJunitXml([{ name: "s", cases: "none" } as never])),
  renderJunitReports: report(() => reporters.renderJunitReports([notAReport])),
  reportSuites: report(() => reporters.reportSuites([notAReport])),
  renderJunitResults: input(() => reporters.renderJunitResults([{ name: "s", results: "none" } as never])),
  writeJunit: input(() => reporters.writeJunit(path.join(file("plain.txt", "x"), "j.xml"), "<x/>")),
  renderRunSummary: total("renders any list of outcomes"),
  renderRunReportHtml: input(() => reporters.renderRunReportHtml("x" as never)),
  renderTraceText: notTrace(() => reporters.renderTraceText(notATrace)),
  renderTraceHtml: notTrace(() => reporters.renderTraceHtml(notATrace)),
  buildPromptfooConfig: input(() => reporters.buildPromptfooConfig([], {} as never)),
  escapeHtml: total("every string escapes"),
  stripAnsi: total("every string has its escapes removed"),
  xmlSafe: total("every string is made XML-safe"),
  stringifySorted: total("serialises any JSON value"),
  shouldColour: total("decides for any stream"),
  observedLines: notTrace(() => reporters.observedLines(notATrace)),
};

const NODE_TEST: Record<string, Case> = {
  assertAll: input(() => nodeTest.assertAll(trace(), [])),
  checkEach: input(() => nodeTest.checkEach({ test: async () => undefined } as never, trace(), [])),
};

/** Every entry of package.json `exports` with code (a test below keeps this list in step with it). */
const ENTRIES: [string, Record<string, unknown>, Record<string, Case>][] = [
  ["proctor", proctor, PROCTOR],
  ["proctor/safety", safety, SAFETY],
  ["proctor/harness", harness, HARNESS],
  ["proctor/mock-model", mockModel, MOCK_MODEL],
  ["proctor/reporters", reporters, REPORTERS],
  ["proctor/node-test", nodeTest, NODE_TEST],
  // Registers matchers on import; exports no functions.
  ["proctor/vitest", vitestPlugin, {}],
];

describe("the entries", () => {
  it("are every package.json export that has code, each enumerated above", () => {
    const { exports } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { exports: Record<string, string | { default?: string }> };
    const withCode = Object.entries(exports)
      .filter(([, target]) => typeof target !== "string" && target.default !== undefined)
      .map(([subpath]) => (subpath === "." ? "proctor" : `proctor/${subpath.slice(2)}`));
    expect(ENTRIES.map(([entry]) => entry).sort()).toEqual(withCode.sort());
  });
});

/** The error `call` throws, or rejects with. */
async function thrown(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  return undefined;
}

for (const [entry, module, cases] of ENTRIES) {
  describe(entry, () => {
    it("has a case, or a reason for none, for every exported function — and no case for a function it does not export", () => {
      const functions = Object.entries(module)
        .filter(([, v]) => typeof v === "function")
        .map(([k]) => k)
        .sort();
      expect(functions.filter((name) => !(name in cases))).toEqual([]);
      expect(Object.keys(cases).filter((name) => !functions.includes(name))).toEqual([]);
    });

    for (const [name, c] of Object.entries(cases)) {
      if ("noInput" in c) continue;
      it(`${name}: malformed input throws ${c.throws.name} ${c.code}`, async () => {
        const error = await thrown(c.call);
        expect(error, `${name} did not throw`).toBeDefined();
        expect(isProctorError(error), `${name} threw a non-proctor error: ${String(error)}`).toBe(true);
        expect(error).toBeInstanceOf(c.throws);
        expect((error as ProctorError).code).toBe(c.code);
        expect((error as ProctorError).name).toBe(c.throws.name);
      });
    }
  });
}

describe("proctor/vitest matchers", () => {
  it("toPass with something that is not a check throws InvalidInputError", async () => {
    const error = await thrown(() => expect(trace()).toPass(42 as never));
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as ProctorError).code).toBe("INVALID_INPUT");
  });
  it("toPassAll with no checks throws InvalidInputError", async () => {
    const error = await thrown(() => expect(trace()).toPassAll([]));
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as ProctorError).code).toBe("INVALID_INPUT");
  });
});

describe("the verdict errors", () => {
  it("ChecksFailedError and RatesBelowThresholdError are proctor errors with their codes", () => {
    const checks = thrown(() => proctor.expect(trace(), [proctor.tool("NoSuchTool")]));
    return checks.then((error) => {
      expect(error).toBeInstanceOf(ChecksFailedError);
      expect(isProctorError(error)).toBe(true);
      expect((error as ProctorError).code).toBe("CHECKS_FAILED");
      expect(RatesBelowThresholdError.prototype).toBeInstanceOf(ProctorError);
    });
  });
});

describe("errors from Node and dependencies are wrapped, the original kept as cause", () => {
  const adir = path.join(dir, "a-directory");
  const cases: [string, () => unknown, ErrorClass, string, ((cause: unknown) => boolean)?][] = [
    ["runHarness with a binary that does not exist", () => harness.runHarness({ prompt: "hi", script: { turns: [{ text: "ok" }] }, claudePath: MISSING }), RunError, "BINARY_MISSING"],
    ["runReplay of a file that is not a transcript", () => harness.runReplay({ recording: file("prose.jsonl", "hello\nworld\n") }), TranscriptError, "TRANSCRIPT_UNREADABLE"],
    ["readTranscript of a directory", () => proctor.readTranscript(adir), TranscriptError, "TRANSCRIPT_UNREADABLE", (c) => (c as NodeJS.ErrnoException).code === "EISDIR"],
    ["readChecksFile of a file that is not JSON", () => reporters.readChecksFile(notJson()), InvalidInputError, "INVALID_INPUT", (c) => c instanceof SyntaxError],
    ["readPolicyFile of YAML that does not parse", () => safety.readPolicyFile(file("bad.yaml", "rules: [unclosed")), ConfigError, "POLICY_INVALID", (c) => c instanceof Error],
    ["parseCheckReport of text that is not JSON", () => proctor.parseCheckReport("{ not json"), ReportError, "REPORT_INVALID", (c) => c instanceof SyntaxError],
    ["parseBaseline of text that is not JSON", () => reporters.parseBaseline("{ not json", "b.json"), ReportError, "BASELINE_INVALID"],
    ["loadScript of a directory", () => mockModel.loadScript(adir), ConfigError, "SCRIPT_INVALID", (c) => (c as NodeJS.ErrnoException).code === "EISDIR"],
    ["loadEvalFiles of a module with a syntax error", () => proctor.loadEvalFiles([file("bad.eval.mjs", "export default {{{")]), InvalidInputError, "INVALID_INPUT", (c) => c instanceof Error],
    ["writeBaseline onto a directory", () => reporters.writeBaseline(adir, []), InvalidInputError, "INVALID_INPUT"],
  ];
  it.each(cases)("%s", async (_, call, throws, code, causeIs) => {
    mkdirSync(adir, { recursive: true });
    const error = await thrown(call);
    expect(isProctorError(error), String(error)).toBe(true);
    expect(error).toBeInstanceOf(throws);
    expect((error as ProctorError).code).toBe(code);
    if (causeIs) expect(causeIs((error as ProctorError).cause), `cause: ${String((error as ProctorError).cause)}`).toBe(true);
  });
});

/**
 * Input of the wrong JavaScript type (undefined, a number), as an untyped caller can pass. These
 * functions still fail on it with a TypeError; the list may only shrink: a function that starts
 * refusing such input with a proctor error must leave it, and a new one may not join it.
 */
const WRONG_TYPE_LEAKS_TO_FIX: string[] = [];
/** Functions that run processes, open servers, write files or set global state: covered above, not called blind. */
const NOT_CALLED_BLIND = new Set(["runHarness", "runEval", "runCodex", "runReplay", "runHook", "startMockModel", "claudeJudge", "measure", "measureArms", "runEvals", "writeBaseline", "writeJunit", "checkEach", "loadEvalFiles", "setDefaultJudge", "loadShellParser"]);

describe("input of the wrong JavaScript type", () => {
  it("fails with a proctor error everywhere but the known list", async () => {
    const leaks: string[] = [];
    for (const [entry, module] of ENTRIES) {
      for (const [name, fn] of Object.entries(module)) {
        if (typeof fn !== "function" || /^class /.test(Function.prototype.toString.call(fn)) || NOT_CALLED_BLIND.has(name)) continue;
        for (const value of [undefined, 42]) {
          const error = await thrown(() => (fn as (...args: unknown[]) => unknown)(value, value, value));
          if (error !== undefined && !isProctorError(error)) {
            leaks.push(`${entry}:${name}`);
            break;
          }
        }
      }
    }
    expect(leaks.sort()).toEqual([...WRONG_TYPE_LEAKS_TO_FIX].sort());
  });
});

// The CLI, spawned as a user runs it: the path comes from package.json's `bin`.
const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { bin: { proctor: string } };
const BIN = path.join(ROOT, pkg.bin.proctor);

function cli(args: string[], input = "") {
  return spawnSync(process.execPath, [BIN, ...args], { input, encoding: "utf8", cwd: dir, env: { ...process.env, PROCTOR_DEBUG: "" } });
}

/** Each command with malformed input, and the code its error must carry. */
const COMMANDS: Record<string, { args: string[]; stdin?: string; code: string }> = {
  init: { args: ["init", "--no-such-option"], code: "INVALID_INPUT" },
  trace: { args: ["trace", path.join(dir, "missing.jsonl")], code: "TRANSCRIPT_UNREADABLE" },
  check: { args: ["check", path.join(ROOT, "test/fixtures/transcripts/edit-write-bash-fail.jsonl"), "--checks", MISSING], code: "INVALID_INPUT" },
  show: { args: ["show", path.join(dir, "missing.jsonl")], code: "TRANSCRIPT_UNREADABLE" },
  baseline: { args: ["baseline", "--check", MISSING, MISSING], code: "REPORT_INVALID" },
  merge: { args: ["merge", MISSING], code: "INVALID_INPUT" },
  run: { args: ["run", MISSING], code: "INVALID_INPUT" },
  export: { args: ["export", "nonsense"], code: "INVALID_INPUT" },
  mock: { args: ["mock", "serve"], code: "INVALID_INPUT" },
  replay: { args: ["replay", path.join(dir, "missing.jsonl")], code: "TRANSCRIPT_UNREADABLE" },
  sessions: { args: ["sessions", "--no-such-option"], code: "INVALID_INPUT" },
  gate: { args: ["gate", "--purity", "spotless"], stdin: "{}", code: "INVALID_INPUT" },
  "bash-effect": { args: ["bash-effect"], code: "INVALID_INPUT" },
  bisect: { args: ["bisect", MISSING, "--from", "2.1.197", "--to", "2.1.332"], code: "INVALID_INPUT" },
};

describe("the proctor CLI", () => {
  it("has a case for every command its help lists", () => {
    const help = cli(["--help"]).stdout;
    const listed = [...help.matchAll(/^ {2}proctor ([a-z-]+)/gm)].map((m) => m[1] as string);
    expect(listed.length).toBeGreaterThan(5);
    expect(listed.sort()).toEqual(Object.keys(COMMANDS).sort());
  });

  for (const [name, c] of Object.entries(COMMANDS)) {
    it(`proctor ${c.args.join(" ")}: exit 2, one error [${c.code}] line, no stack`, () => {
      const r = cli(c.args, c.stdin);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^proctor ${name}: error \\[${c.code}\\] \\S`));
      expect(r.stderr).not.toMatch(/^\s+at /m);
    });
  }

  it("an unknown command: exit 2 and error [INVALID_INPUT]", () => {
    const r = cli(["no-such-command"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^proctor: error \[INVALID_INPUT\] unknown command "no-such-command"/);
  });

  it("--debug adds the stack", () => {
    const r = cli(["trace", path.join(dir, "missing.jsonl"), "--debug"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^\s+at /m);
  });
});
