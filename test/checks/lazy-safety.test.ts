/**
 * The safety kinds rebuilt from JSON load their code on first use (src/checks/from-json.ts). The
 * oracle is the factory itself: a check rebuilt from JSON must have the factory's JSON and label,
 * give the factory's verdict on every trace, and be refused with the factory's error (same field
 * path) when its JSON is bad. Before the safety layer is loaded, evaluating one synchronously is
 * refused, never answered (checked in a fresh process, without this suite's setup file).
 */
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkFromJSON, checksFromJSON, evalChecks, isProctorError, readTranscript, subagent, type Check, type Trace } from "../../src/index.js";
import { lethalTrifecta, purity, skillPurity, skillTools } from "../../src/safety.js";
import { skillContractProblem } from "../../src/contracts/skill-scope.js";
import { FieldReader } from "../../src/checks/from-json.js";
import { PURITY_LEVEL_NAMES } from "../../src/checks/purity-level.js";
import { PURITY_LEVELS } from "../../src/effects/effects.js";
import { InvalidCheckError } from "../../src/checks/validate.js";
import { makeTrace, type CallSpec } from "../helpers/trace.js";

const root = path.resolve(fileURLToPath(import.meta.url), "../../..");
const fixtures = path.join(root, "test/fixtures/transcripts");

/** The safety kinds as checkFromJSON built them before they became lazy: the factories, eagerly. */
const EAGER: Record<string, (r: FieldReader) => Check<Trace>> = {
  purity: (r) => purity(r.string("level") as never),
  lethalTrifecta: (r) => lethalTrifecta(r.optional("tools", r.strings)),
  skillTools: (r) => skillTools(r.string("skill"), r.strings("allowed")),
  skillPurity: (r) => skillPurity(r.string("skill"), r.string("level") as never),
  skillContract: (r) => skillContractProblem(r.string("skill"), r.string("problem")),
};

/** The eager rebuild, with checkFromJSON's own error wrapping. */
function eagerFromJSON(json: Record<string, unknown>, at = "check"): Check<Trace> {
  const reader = new FieldReader(json, json.kind as string, at);
  try {
    const check = EAGER[json.kind as string]!(reader);
    reader.done();
    return check;
  } catch (error) {
    if (error instanceof InvalidCheckError) throw new InvalidCheckError("INVALID_CHECK", `${at}.${error.field}: ${error.message}`, { cause: error, input: `${at}.${error.field}`, kind: error.kind });
    throw error;
  }
}

/** What a build threw, as the fields a caller sees. */
function refusal(build: () => unknown): { code: string; message: string; input?: string } | "built" {
  try {
    build();
    return "built";
  } catch (error) {
    if (!isProctorError(error)) throw error;
    return { code: error.code, message: error.message, ...(error.input !== undefined ? { input: error.input } : {}) };
  }
}

const SKILLS = ["lint", "deploy", "plugin:lint"];
const LEVELS = ["pure", "bounded", "unrestricted"] as const;
const TOOLS = ["Read", "Edit", "Write", "Bash", "Bash(git:*)", "Bash(ls *)", "WebFetch", "mcp__db__query", "Grep"];

const safetyJSON: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.constantFrom(...LEVELS).map((level) => ({ kind: "purity", level })),
  fc.option(fc.subarray(TOOLS), { nil: undefined }).map((tools) => (tools === undefined ? { kind: "lethalTrifecta" } : { kind: "lethalTrifecta", tools })),
  fc.tuple(fc.constantFrom(...SKILLS), fc.subarray(TOOLS)).map(([skill, allowed]) => ({ kind: "skillTools", skill, allowed })),
  fc.tuple(fc.constantFrom(...SKILLS), fc.constantFrom(...LEVELS)).map(([skill, level]) => ({ kind: "skillPurity", skill, level })),
  fc.tuple(fc.constantFrom(...SKILLS), fc.constantFrom("allowed-tools is not a list", "x")).map(([skill, problem]) => ({ kind: "skillContract", skill, problem })),
);

const COMMANDS = ["ls -la src", "git status", "git log --oneline", "rm -rf dist", "ls | wc -l", "cat a > b", "echo $(whoami)", "git push", "grep -r x ."];
const call: fc.Arbitrary<CallSpec> = fc.oneof(
  fc.record({ name: fc.constant("Bash"), input: fc.constantFrom(...COMMANDS).map((command) => ({ command })) }),
  fc.record({ name: fc.constantFrom("Read", "Edit", "Write", "WebFetch", "mcp__db__query", "Grep") }),
  fc.record({ name: fc.constant("Skill"), input: fc.constantFrom(...SKILLS).map((skill) => ({ skill })) }),
).chain((c) => fc.record({ status: fc.constantFrom("success", "denied", "failure" as const), agent: fc.constantFrom("main", "main", "sub") }).map((extra) => ({ ...c, ...extra })));

const trace: fc.Arbitrary<Trace> = fc
  .record({
    calls: fc.array(call, { maxLength: 8 }),
    complete: fc.boolean(),
    codex: fc.boolean(),
    tools: fc.option(fc.subarray(TOOLS), { nil: undefined }),
  })
  .map(({ calls, complete, codex, tools }) => {
    const skills = calls.flatMap((c, callIndex) => (c.name === "Skill" ? [{ name: (c.input as { skill: string }).skill, callIndex, agent: c.agent ?? "main", status: c.status ?? "success" }] : []));
    return makeTrace({ calls, complete, skills, source: { kind: codex ? "codex" : "synthetic", cwd: "/work", ...(tools ? { tools } : {}) } } as never);
  });

const recorded = readdirSync(fixtures)
  .filter((f) => f.endsWith(".jsonl"))
  .sort()
  .map((f) => readTranscript(path.join(fixtures, f)));

describe("safety checks rebuilt from JSON", () => {
  it("validate purity levels against the same ladder as the effect classes", () => {
    expect(PURITY_LEVEL_NAMES).toEqual(PURITY_LEVELS);
  });

  it("have the factory's JSON and label, and round-trip through JSON unchanged", () => {
    fc.assert(
      fc.property(safetyJSON, (json) => {
        const lazy = checkFromJSON(json);
        const eager = eagerFromJSON(json);
        expect(lazy.kind).toBe(eager.kind);
        expect(lazy.label).toBe(eager.label);
        expect(JSON.stringify(lazy.toJSON())).toBe(JSON.stringify(eager.toJSON()));
        expect(JSON.stringify(checkFromJSON(JSON.parse(JSON.stringify(lazy)) as unknown).toJSON())).toBe(JSON.stringify(lazy.toJSON()));
      }),
      { numRuns: 300 },
    );
  });

  it("give the factory's verdict on every recorded fixture", async () => {
    const all = fc.sample(safetyJSON, { numRuns: 200, seed: 7 });
    for (const t of recorded) {
      for (const json of all) {
        const lazy = checkFromJSON(json);
        await lazy.prepare?.(t);
        expect(evalChecks(t, [lazy]), `${lazy.label} on ${t.source.sessionId ?? "a fixture"}`).toEqual(evalChecks(t, [eagerFromJSON(json)]));
      }
    }
  });

  it("give the factory's verdict on generated traces, alone and nested in a subagent", async () => {
    await fc.assert(
      fc.asyncProperty(safetyJSON, trace, async (json, t) => {
        const lazy = checkFromJSON(json);
        await lazy.prepare?.(t);
        expect(evalChecks(t, [lazy])).toEqual(evalChecks(t, [eagerFromJSON(json)]));
        const calls = t.toolCalls.flatMap((c, i) => (c.agent === "sub" ? [i] : []));
        const withSub: Trace = { ...t, subagents: [{ id: "sub", type: "helper", prompt: "p", calls, status: "success" }] };
        expect(evalChecks(withSub, [checkFromJSON({ kind: "subagent", name: "helper", checks: [json] })])).toEqual(evalChecks(withSub, [subagent("helper", [eagerFromJSON(json)])]));
      }),
      { numRuns: 300 },
    );
  });

  it("refuse bad JSON synchronously, with the factory's error and field path", () => {
    const bad = fc.constantFrom<unknown>(undefined, null, 1, "", " ", "nope", [], [1], ["", "Read"], ["Read", 2], { x: 1 }, "bounded", ["Read"]);
    const field = fc.constantFrom("level", "tools", "skill", "allowed", "problem", "extra");
    fc.assert(
      fc.property(safetyJSON, field, bad, (json, f, value) => {
        const broken = { ...json, [f]: value };
        if (value === undefined) delete broken[f];
        const expected = refusal(() => eagerFromJSON(broken));
        expect(refusal(() => checkFromJSON(broken))).toEqual(expected);
        // Nested, the path names the element and the field.
        const nested = refusal(() => checksFromJSON([{ kind: "tool", name: "Read" }, { kind: "subagent", name: "helper", checks: [broken] }]));
        const expectedNested = refusal(() => eagerFromJSON(broken, "checks[1].checks[0]"));
        expect(nested === "built" ? "built" : nested.input).toEqual(expectedNested === "built" ? "built" : expectedNested.input);
      }),
      { numRuns: 500 },
    );
  });

  it("names each bad field as before (table)", () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ kind: "purity", level: "clean" }, "check.level"],
      [{ kind: "purity", level: 3 }, "check.level"],
      [{ kind: "purity" }, "check.level"],
      [{ kind: "purity", level: "pure", extra: 1 }, "check.extra"],
      [{ kind: "lethalTrifecta", tools: ["Read", ""] }, "check.tools[1]"],
      [{ kind: "skillTools", skill: "", allowed: ["Read"] }, "check.skill"],
      [{ kind: "skillTools", skill: "lint", allowed: "Read" }, "check.allowed"],
      [{ kind: "skillPurity", skill: "lint", level: "none" }, "check.level"],
      [{ kind: "skillContract", skill: "lint", problem: " " }, "check.problem"],
    ];
    for (const [json, input] of cases) {
      const lazy = refusal(() => checkFromJSON(json));
      expect(lazy, JSON.stringify(json)).toEqual(refusal(() => eagerFromJSON(json)));
      expect(lazy === "built" ? lazy : lazy.input).toBe(input);
    }
  });
});

/** Run a module body in a fresh node process (no setup file: nothing preloaded) and return what it printed. */
function fresh(body: string): string {
  return execFileSync(process.execPath, ["--input-type=module", "-e", body], { cwd: root, encoding: "utf8" }).trim();
}

describe("safety checks rebuilt from JSON, before anything loaded the safety layer", () => {
  it("are refused by evalChecks and expect, saying what to do; evaluateChecks loads and judges as the factory does", () => {
    const out = fresh(`
      const p = await import("./dist/src/index.js");
      const trace = { version: 1, source: { kind: "synthetic" }, complete: true, subagents: [{ id: "a1", type: "helper", prompt: "p", calls: [], status: "success" }], skills: [], hooks: [], replies: [], errors: [], toolCalls: [{ id: "1", name: "Bash", input: { command: "ls | wc -l" }, status: "success", agent: "main" }, { id: "2", name: "Bash", input: { command: "rm -rf x" }, status: "success", agent: "main" }] };
      const json = [{ kind: "purity", level: "bounded" }, { kind: "lethalTrifecta", tools: ["Read", "WebFetch", "Bash"] }, { kind: "subagent", name: "helper", checks: [{ kind: "purity", level: "pure" }] }];
      const refused = [];
      for (const run of [() => p.evalChecks(trace, p.checksFromJSON(json)), () => p.expect(trace, p.checksFromJSON(json))]) {
        try { run(); refused.push("answered"); } catch (e) { refused.push(e.code + ": " + e.message); }
      }
      const lazy = await p.evaluateChecks(trace, p.checksFromJSON(json));
      const nestedOnly = await p.evaluateChecks(trace, p.checksFromJSON([json[2]]));
      const s = await import("./dist/src/safety.js");
      const eager = await p.evaluateChecks(trace, [s.purity("bounded"), s.lethalTrifecta(["Read", "WebFetch", "Bash"]), p.subagent("helper", [s.purity("pure")])]);
      console.log(JSON.stringify({ refused, same: JSON.stringify(lazy) === JSON.stringify(eager), nestedSame: JSON.stringify(nestedOnly[0]) === JSON.stringify(eager[2]), passes: lazy.map((r) => r.pass) }));
    `);
    const r = JSON.parse(out) as { refused: string[]; same: boolean; nestedSame: boolean; passes: boolean[] };
    for (const message of r.refused) {
      expect(message).toMatch(/^SHELL_PARSER_NOT_LOADED: purity\(bounded\) was rebuilt from JSON/);
      expect(message).toMatch(/evaluateChecks/);
      expect(message).toMatch(/proctor\/safety/);
    }
    expect(r.refused).toHaveLength(2);
    expect(r).toMatchObject({ same: true, nestedSame: true });
    expect(r.passes[0]).toBe(false); // rm -rf is not bounded
  });

  it("a nested safety check is loaded when evaluateChecks meets it unprepared (inside a subagent)", () => {
    const out = fresh(`
      const p = await import("./dist/src/index.js");
      const trace = { version: 1, source: { kind: "synthetic" }, complete: true, subagents: [{ id: "a1", type: "helper", prompt: "p", calls: [0], status: "success" }], skills: [], hooks: [], replies: [], errors: [], toolCalls: [{ id: "1", name: "Bash", input: { command: "rm -rf x" }, status: "success", agent: "a1" }] };
      const [r] = await p.evaluateChecks(trace, [p.checkFromJSON({ kind: "subagent", name: "helper", checks: [{ kind: "purity", level: "bounded" }] })]);
      console.log(JSON.stringify({ pass: r.pass, inconclusive: r.inconclusive ?? false, message: r.message }));
    `);
    const r = JSON.parse(out) as { pass: boolean; inconclusive: boolean; message: string };
    expect(r).toMatchObject({ pass: false, inconclusive: false });
    expect(r.message).toMatch(/purity\(bounded\) — expected every call to stay bounded/);
  });
});
