/**
 * The suite's MCP mocks as claude 2.1.332 reads and answers them: the mocks/ checks and their
 * messages, `expect:` guards (a property against JS's own RegExp and a brute-force literal
 * reading), the fixed answer's fills, and the agent-played reply conventions.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { answerCall } from "../../harness/plugin-eval/stand-in.js";
import { expectViolation, fillAnswer, mockCallLine, readAgentReply, scriptedReply } from "../../src/plugin-eval/mock-respond.js";
import { readSuiteMocks } from "../../src/plugin-eval/mocks.js";

const TRACKER = new URL("../fixtures/plugin-eval/tracker/evals", import.meta.url).pathname;
const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

/** A suite dir with the given files under mocks/. */
function suiteWith(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "proctor-mocks-test-"));
  temps.push(root);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(root, "mocks", rel, ".."), { recursive: true });
    writeFileSync(join(root, "mocks", rel), text);
  }
  return root;
}

describe("reading mocks/", () => {
  it("reads the tracker suite's mocks: fixed answers, an agent-played server, listings and scripted answers", () => {
    const mocks = readSuiteMocks(TRACKER);
    const tickets = mocks?.servers[0];
    expect(tickets?.name).toBe("tickets");
    // _server.md's tools first, then each tool's own file (claude's order).
    expect([...(tickets?.responders.keys() ?? [])]).toEqual(["list_issues", "close_issue", "create_issue", "status"]);
    expect(tickets?.responders.get("status")).toMatchObject({ kind: "fixed", isError: true, body: "429 rate limited" });
    expect(tickets?.listings.get("create_issue")?.description).toBe("Create an issue in a project");
    expect(mocks?.warnings).toEqual([expect.stringContaining("no _tools.json entry for list_issues, close_issue, status")]);
  });

  it.each([
    [{ "bad.name/t.md": "x" }, 'mocks/bad.name/: name the directory after the server segment'],
    [{ "a__b/t.md": "x" }, '"__" is the tool-name separator'],
    [{ "s/_server.md": "---\ntools: [a]\n---\nA server." }, "only `type: agent` is meaningful here"],
    [{ "s/_server.md": "---\ntype: agent\n---\nA server." }, "needs `tools: [...]`"],
    [{ "s/_server.md": "---\ntype: agent\ntools: [a, b]\nexpect: {x: y}\n---\nA server." }, "`expect:` here would guard all 2 tools"],
    [{ "s/t.md": "---\nabort_when: x\n---\nok" }, "`abort_when:` needs `type: agent`"],
    [{ "s/t.md": "---\ntype: agent\nerror: true\n---\nok" }, "`error:` applies to fixed responders only"],
    [{ "s/t.md": "---\ntype: agent\n---\n" }, "needs a description of the server it plays"],
    [{ "s/t.md": "---\ncolour: red\n---\nok" }, 'unknown frontmatter key "colour"'],
    [{ "s/t.md": "TODO: replace with the canned result this tool should return" }, "still holds the scaffolded placeholder"],
    [{ "s/t.md": "---\nexpect: {n: 3}\n---\nok" }, "expect.n: 3 is not a guard"],
    [{ "s/t.md": "---\nexpect: {n: []}\n---\nok" }, "an empty list of allowed values can never be satisfied"],
    [{ "s/t.md": "---\nexpect: {n: /a|b/}\n---\nok" }, "no groups"],
    [{ "s/t.md": "---\nexpect: {n: /a/g}\n---\nok" }, "only the i and s flags"],
    [{ "s/t.md": "ok", "s/_tools.json": "{" }, "_tools.json: not valid JSON"],
    [{ "s/t.md": "ok", "s/_tools.json": '{"tools": 3}' }, "expected a saved tools/list response"],
    [{ "s/t.md": "ok", "s/proctor.answers.json": '{"t": "x"}' }, '"t" is not an agent-played tool of this server'],
  ])("refuses a bad mock: %j", (files, message) => {
    const root = suiteWith(files as Record<string, string>);
    expect(() => readSuiteMocks(root)).toThrow(expect.objectContaining({ code: "SUITE_INVALID", message: expect.stringContaining(message) }));
  });
});

describe("expect: guards", () => {
  it("reads each guard kind as claude does, naming the first violation", () => {
    const guards = { project: "WEB", labels: { "0": ["bug", "ux"] }, title: "/^[A-Z].{2,}$/", count: "number", meta: { draft: "bool" } };
    expect(expectViolation({ project: "WEB", labels: ["bug"], title: "Login", count: 2, meta: { draft: false } }, guards)).toBeNull();
    expect(expectViolation({ project: "OPS" }, guards)).toBe('project = "OPS" is not "WEB"');
    expect(expectViolation({ project: "WEB", labels: ["perf"] }, guards)).toBe('labels.0 = "perf" is not one of [bug, ux]');
    expect(expectViolation({ project: "WEB", labels: ["ux"], title: "lo" }, guards)).toBe('title = "lo" does not match /^[A-Z].{2,}$/');
    expect(expectViolation({ project: "WEB", labels: ["ux"], title: "Lo!", count: "2" }, guards)).toBe('count = "2" is not a number');
    expect(expectViolation({ project: "WEB", labels: ["ux"], title: "Lo!", count: 1 }, guards)).toBe("meta.draft = (missing) is not a bool");
    // A number or boolean meets a literal written as its text.
    expect(expectViolation({ n: 7, ok: true }, { n: "7", ok: "true" })).toBeNull();
  });

  const dialectRegex = fc
    .array(fc.constantFrom("a", "b", ".", "[ab]", "[^a]", "\\d", "a*", "b+", "a?", "x{1,2}", "\\.", "^", "$"), { minLength: 1, maxLength: 5 })
    .map((parts) => parts.filter((p, i) => (p !== "^" || i === 0) && (p !== "$" || i === parts.length - 1)).join("") || "a");

  it("a /regex/ guard matches exactly what JS's own RegExp finds (property, against RegExp)", () => {
    fc.assert(
      fc.property(dialectRegex, fc.constantFrom("", "i", "s", "is"), fc.stringMatching(/^[abxAB1.\n]{0,8}$/), (source, flags, text) => {
        const violation = expectViolation({ v: text }, { v: `/${source}/${flags}` });
        expect(violation === null).toBe(new RegExp(source, flags).test(text));
      }),
      { numRuns: 400 },
    );
  });

  it("a list guard passes exactly when some literal equals the value's text (property, brute force)", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 3 }), fc.integer({ min: -5, max: 5 }), fc.boolean(), fc.constant(null), fc.constant(undefined)), fc.array(fc.string({ maxLength: 3 }), { minLength: 1, maxLength: 4 }), (value, literals) => {
        let oracle = false;
        for (const l of literals) if ((typeof value === "string" && value === l) || ((typeof value === "number" || typeof value === "boolean") && `${value}` === l)) oracle = true;
        expect(expectViolation({ v: value }, { v: literals }) === null).toBe(oracle);
      }),
      { numRuns: 300 },
    );
  });
});

describe("answers", () => {
  it("fills {{input.x}} and {{file:…}}, and refuses a file outside the mock's directory", () => {
    const root = suiteWith({ "s/t.md": "ok", "s/issue-7.json": '{"id": 7}' });
    const dir = join(root, "mocks", "s");
    expect(fillAnswer('{"t": "{{input.title}}", "l": {{ input.labels }}}', { title: "Hi", labels: ["a"] }, dir)).toEqual({ ok: true, text: '{"t": "Hi", "l": ["a"]}' });
    expect(fillAnswer("{{file:issue-{input.id}.json}}", { id: 7 }, dir)).toEqual({ ok: true, text: '{"id": 7}' });
    expect(fillAnswer("{{file:../../x}}", {}, dir)).toMatchObject({ ok: false, reason: expect.stringContaining("outside the mock's directory") });
    expect(fillAnswer("{{file:issue-{input.id}.json}}", { id: "../x" }, dir)).toMatchObject({ ok: false, reason: expect.stringContaining("not a plain file-name segment") });
  });

  it("reads agent replies as claude does, and the first matching scripted rule answers", () => {
    expect(readAgentReply("ERROR: not found")).toEqual({ verdict: "tool_error", text: "not found" });
    expect(readAgentReply("ABORT: closes WEB-9")).toEqual({ verdict: "abort", text: "abort_when condition met: closes WEB-9" });
    expect(readAgentReply('{"ok": true}')).toEqual({ verdict: "ok", text: '{"ok": true}' });
    const rules = [{ input_match: '"WEB-1"', reply: "closed" }, { reply: "ABORT: unlisted" }];
    expect(scriptedReply(rules, { key: "WEB-1" })).toBe("closed");
    expect(scriptedReply(rules, { key: "WEB-9" })).toBe("ABORT: unlisted");
    expect(scriptedReply(undefined, {})).toBeUndefined();
  });

  it("a stand-in answers the tracker's tools: fixed, error, expect abort, agent-played and unscripted", () => {
    const s = readSuiteMocks(TRACKER)?.servers[0];
    if (!s) throw new Error("no tickets mock");
    const spec = { server: s.name, tools: [...s.listings.values()], responders: Object.fromEntries(s.responders), answers: Object.fromEntries(s.answers) };
    expect(answerCall(spec, "create_issue", { project: "WEB", title: "Broken" })).toMatchObject({ verdict: "ok", text: '{"key": "WEB-7", "title": "Broken"}' });
    expect(answerCall(spec, "create_issue", { project: "OPS", title: "Broken" })).toMatchObject({ verdict: "abort", text: `the model's call violates expect: project = "OPS" is not "WEB"` });
    expect(answerCall(spec, "status", {})).toMatchObject({ verdict: "tool_error", text: "429 rate limited" });
    expect(answerCall(spec, "close_issue", { key: "WEB-5" })).toMatchObject({ verdict: "abort", text: "abort_when condition met: closes an issue that is not listed" });
    expect(answerCall(spec, "nope", {})).toMatchObject({ responder: "none", verdict: "tool_error" });
    expect(mockCallLine({ tool: "mcp__x__status", input: {}, output: "429", verdict: "tool_error" })).toBe('{"tool":"mcp__x__status","input":{},"output":"429","isError":true,"verdict":"tool_error"}');
  });
});

describe("the call log", () => {
  it("reads each stand-in's identity line and its calls, and refuses a torn line rather than skip it", async () => {
    const { readCallLog } = await import("../../harness/plugin-eval/shadow.js");
    const root = mkdtempSync(join(tmpdir(), "proctor-call-log-"));
    temps.push(root);
    const file = join(root, "calls.jsonl");
    expect(readCallLog(file)).toEqual({ calls: [], ready: new Set() });
    const call = { server: "tickets", tool: "status", responder: "fixed", input: {}, verdict: "tool_error", output: "429" };
    writeFileSync(file, `${JSON.stringify({ ready: "tickets" })}\n${JSON.stringify(call)}\n`);
    expect(readCallLog(file)).toEqual({ calls: [call], ready: new Set(["tickets"]) });
    writeFileSync(file, `${JSON.stringify({ ready: "tickets" })}\n{"server":"tick`);
    expect(() => readCallLog(file)).toThrow(/holds a line that is not JSON/);
  });
});

describe("proctor mock serve's arms", () => {
  it("refuses to guess the arm of a plugin whose requests cannot show it (hooks only) when a case scripts the arms apart", async () => {
    const { startMockServe } = await import("../../harness/plugin-eval/serve.js");
    const { readPluginEvalSuite } = await import("../../src/plugin-eval/read.js");
    const root = mkdtempSync(join(tmpdir(), "proctor-serve-arms-"));
    temps.push(root);
    mkdirSync(join(root, "hooky", ".claude-plugin"), { recursive: true });
    mkdirSync(join(root, "hooky", "hooks"));
    mkdirSync(join(root, "hooky", "evals", "one"), { recursive: true });
    writeFileSync(join(root, "hooky", ".claude-plugin", "plugin.json"), '{"name": "hooky"}');
    writeFileSync(join(root, "hooky", "hooks", "hooks.json"), '{"hooks": {}}');
    writeFileSync(join(root, "hooky", "evals", "one", "prompt.md"), "Say hi.");
    writeFileSync(join(root, "hooky", "evals", "one", "case.yaml"), 'schema_version: "1.1"\nname: one\ngraders:\n  - {name: hi, type: regex, pattern: hi}\n');
    const sidecar = join(root, "hooky", "evals", "one", "proctor.script.json");
    writeFileSync(sidecar, JSON.stringify({ turns: [{ text: "hi" }], without: { turns: [{ text: "no" }] } }));
    const suite = () => readPluginEvalSuite(join(root, "hooky", "evals"));
    await expect(startMockServe({ suite: suite() })).rejects.toMatchObject({ code: "SCRIPT_INVALID", message: expect.stringContaining("cannot tell the arms of plugin hooky apart") });
    // One script for both arms: nothing to tell apart.
    writeFileSync(sidecar, JSON.stringify({ turns: [{ text: "hi" }] }));
    const server = await startMockServe({ suite: suite() });
    await server.close();
  });
});
