/** `proctor trace` and `proctor check`, as real processes. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { validateTrace } from "../../src/index.js";
import { proctor } from "../helpers/cli.js";

const fixture = new URL("../fixtures/transcripts/explore-subagent-lockfile-hook.jsonl", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "proctor-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string) => {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
};

describe("proctor trace", () => {
  it("prints the Trace as schema-valid JSON", async () => {
    const r = await proctor(["trace", fixture]);
    expect(r.exitCode).toBe(0);
    const trace = validateTrace(JSON.parse(r.stdout));
    expect(trace.toolCalls.map((c) => c.name)).toEqual(["Agent", "Glob", "Write"]);
  });
  it("reports malformed lines on stderr and still prints the rest", async () => {
    const r = await proctor(["trace", file("bad.jsonl", '{"type":"system","subtype":"init","cwd":"/x"}\nnot json\n')]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain("line 2 is not JSON");
    expect(JSON.parse(r.stdout).errors.map((e: { kind: string }) => e.kind)).toEqual(["malformed-line", "incomplete"]);
  });
  it("exits 2 on a missing file, naming it", async () => {
    const r = await proctor(["trace", join(dir, "nope.jsonl")]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("nope.jsonl: ENOENT");
  });
});

describe("proctor check", () => {
  const checks = file(
    "checks.json",
    JSON.stringify([
      { kind: "denied", name: "Write", args: { file_path: { $regex: "lock\\.json$" } } },
      { kind: "notTool", name: "Write" },
      { kind: "subagent", name: "Explore", checks: [{ kind: "onlyTools", allowed: ["Glob"] }] },
      { kind: "tool", name: "Bash" },
    ]),
  );

  it("--json prints every result in the order given; exit 1 when any fails", async () => {
    const r = await proctor(["check", fixture, "--checks", checks, "--json"]);
    expect(r.exitCode).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.pass).toBe(false);
    expect(out.results.map((x: { kind: string; pass: boolean }) => [x.kind, x.pass])).toEqual([
      ["denied", true],
      ["notTool", false],
      ["subagent", true],
      ["tool", false],
    ]);
    expect(out.results[3]).toMatchObject({ score: 0, message: "expected a call to Bash; the agent made Agent, Glob, Write (3 calls)" });
  });

  it("text output lists all failures; exit 0 when all hold", async () => {
    const fail = await proctor(["check", fixture, "--checks", checks]);
    expect(fail.stdout).toContain("✗ notTool(Write)");
    expect(fail.stdout).toContain("2 of 4 checks failed");
    const ok = await proctor(["check", fixture, "--checks", file("ok.json", '[{"kind":"tool","name":"Glob"}]')]);
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout).toContain("all 1 checks passed");
  });

  it("judges several transcripts one by one and writes JUnit (one suite each, one case per check)", async () => {
    const other = new URL("../fixtures/transcripts/edit-write-bash-fail.jsonl", import.meta.url).pathname;
    const junit = join(dir, "check.xml");
    const r = await proctor(["check", fixture, other, "--checks", checks, "--junit", junit]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain(`✗ ${other}`);
    expect(r.stdout).toContain("across 2 transcripts");
    const { XMLParser } = await import("fast-xml-parser");
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(readFileSync(junit, "utf8"));
    const suites = [xml.testsuites.testsuite].flat();
    expect(suites.map((s: { name: string }) => s.name)).toEqual([fixture, other]);
    expect(suites.map((s: { testcase: unknown[] }) => [s.testcase].flat().length)).toEqual([4, 4]);
    const json = JSON.parse((await proctor(["check", fixture, other, "--checks", checks, "--json"])).stdout);
    expect(json.map((x: { file: string; pass: boolean }) => [x.file, x.pass])).toEqual([[fixture, false], [other, false]]);
  });

  it.each([
    ["unknown kind", '[{"kind":"toll","name":"Bash"}]', 'bad.json[0].kind: unknown check kind "toll"'],
    ["bad field", '[{"kind":"tool","name":"Bash"},{"kind":"turns","min":"2"}]', 'bad.json[1].min: turns: min must be a number; got "2" (string)'],
    ["not JSON", "[{kind:", "is not JSON"],
    ["not an array", '{"kind":"tool","name":"Bash"}', "must be an array of checks"],
  ])("exit 2 on bad checks (%s), naming the field", async (_n, content, message) => {
    const r = await proctor(["check", fixture, "--checks", file("bad.json", content)]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it("exit 2 with usage when arguments are missing or unknown", async () => {
    expect((await proctor(["check", fixture])).stderr).toContain("usage: proctor check");
    expect((await proctor(["check", fixture, "--checks", checks, "--frobnicate"])).exitCode).toBe(2);
    expect((await proctor(["nope"])).exitCode).toBe(2);
  });
});

describe("a file that holds no transcript events is refused at every door", () => {
  const notes = () => file("notes.txt", "Keep this file.\nIt is not a transcript.\n");
  const checks = () => file("checks.json", JSON.stringify([{ kind: "notTool", name: "Bash" }]));

  it.each([
    ["trace", () => ["trace", notes()]],
    ["check", () => ["check", notes(), "--checks", checks()]],
    ["show", () => ["show", notes()]],
  ])("proctor %s exits 2 naming the file", async (_, args) => {
    const argv = args();
    const r = await proctor(argv);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${argv[1]} holds no transcript events`);
    expect(r.stdout).toBe("");
  });

  it("an empty file is no transcript either", async () => {
    const r = await proctor(["trace", file("empty.jsonl", "")]);
    expect(r.exitCode).toBe(2);
  });

  it("check with a $regex that would backtrack forever answers at once", async () => {
    const t = file("long.jsonl", [
      JSON.stringify({ type: "assistant", message: { id: "m1", content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: `${"a".repeat(40)}!` } }] }, parent_tool_use_id: null }),
      JSON.stringify({ type: "result", subtype: "success", is_error: false, result: "ok", num_turns: 1 }),
    ].join("\n"));
    const c = file("redos.json", JSON.stringify([{ kind: "notTool", name: "Bash", args: { command: { $regex: "(a+)+$" } } }]));
    const r = await proctor(["check", t, "--checks", c]);
    expect(r.exitCode, r.stderr).toBe(0);
  });
});
