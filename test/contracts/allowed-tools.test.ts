/**
 * withinAllowedTools: a slash command's or skill's `allowed-tools` frontmatter, held as Claude Code's
 * permission rules over the calls made while it was active — invoked by the model (a Skill call)
 * or given as the prompt (`/commit`, seen in the captured model requests).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkFromJSON, InvalidCheckError, withinAllowedTools, type Trace } from "../../src/index.js";
import { readAllowedToolsDeclaration } from "../../src/contracts/allowed-tools.js";
import { makeTrace, type CallSpec } from "../helpers/trace.js";

const FIX = "test/fixtures/allowed-tools";
const COMMIT = `${FIX}/commands/commit.md`;
const dir = mkdtempSync(path.join(tmpdir(), "proctor-allowed-tools-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bash = (command: string, over: Partial<CallSpec> = {}): CallSpec => ({ name: "Bash", input: { command }, ...over });
/** A run whose prompt was `prompt`, as the mock model captured it. */
const promptRun = (prompt: string, calls: CallSpec[], over: Partial<Trace> = {}) =>
  makeTrace({ calls, modelRequests: [{ agent: "main", system: "", messages: `[user] <command-message>x</command-message>\n<command-name>${prompt}</command-name>\n`, tools: [] }], ...over });

describe("reading the declaration", () => {
  it("reads a command's comma string and a skill's YAML list, by folder or by SKILL.md", () => {
    expect(readAllowedToolsDeclaration(COMMIT)).toEqual({ path: COMMIT, name: "commit", type: "command", allowed: ["Bash(git add:*)", "Bash(git status:*)", "Bash(git commit:*)"] });
    const skill = { name: "release-notes", type: "skill", allowed: ["Read", "Bash(git log:*)", "Write(./CHANGELOG.md)"] };
    expect(readAllowedToolsDeclaration(`${FIX}/skills/release`)).toMatchObject(skill);
    expect(readAllowedToolsDeclaration(`${FIX}/skills/release/SKILL.md`)).toMatchObject(skill);
  });

  it("refuses a missing file, a file without frontmatter or without allowed-tools, with INVALID_CHECK and what to do", () => {
    const bad = path.join(dir, "bad.md");
    writeFileSync(bad, "---\nallowed-tools: 42\n---\n");
    const cases: [string, RegExp][] = [
      [path.join(dir, "missing.md"), /cannot read it \(ENOENT\)/],
      [path.join(dir), /cannot read .*SKILL\.md \(ENOENT\)/],
      [`${FIX}/commands/plain.md`, /has no frontmatter, so it declares no allowed-tools to hold the command to/],
      [`${FIX}/skills/no-rules`, /declares no allowed-tools, so there is nothing to hold the skill to/],
      [bad, /allowed-tools must be a string \("Read, Grep"\) or a list of rules; got 42/],
    ];
    for (const [input, why] of cases) {
      let error: unknown;
      try {
        withinAllowedTools(input);
      } catch (e) {
        error = e;
      }
      expect(error, input).toBeInstanceOf(InvalidCheckError);
      expect((error as InvalidCheckError).code).toBe("INVALID_CHECK");
      expect((error as InvalidCheckError).message).toMatch(why);
      expect((error as InvalidCheckError).hint).toBeTruthy();
    }
  });
});

describe("the calls made while the command or skill was active", () => {
  const check = withinAllowedTools(COMMIT);

  it("a prompt command: the main agent's calls from the start; git push is not git add", () => {
    const ok = promptRun("/commit", [bash("git status"), bash("git add a.txt && git commit -m x")]);
    expect(check.eval(ok)).toMatchObject({ pass: true, message: "while /commit was active (invoked by the prompt (/commit)), all 2 call(s) were allowed by Bash(git add:*), Bash(git status:*), Bash(git commit:*)" });
    const r = check.eval(promptRun("/commit", [bash("git add ."), bash("git push --force origin main")]));
    expect(r).toMatchObject({ pass: false, callIndex: 1, actual: ["Bash(git push --force origin main)"] });
    expect(r.message).toMatch(/1 of 2 call\(s\) went outside its allowed-tools .*\n {4}#1 Bash \{"command":"git push --force origin main"\} → success\n {2}add a rule to allowed-tools in test\/fixtures/);
  });

  it("a denied call still counts: the command reached for it", () => {
    expect(check.eval(promptRun("/commit", [bash("git push", { status: "denied", deniedBy: "hook" })])).pass).toBe(false);
  });

  it("a model-invoked command or skill: from its Skill call to the next one, which is judged too; a plugin's name answers to the bare one", () => {
    const calls: CallSpec[] = [bash("rm -rf x"), { name: "Skill", input: { skill: "tools:commit" } }, bash("git add ."), { name: "Skill", input: { skill: "deploy" } }, bash("git push")];
    const skills = [
      { name: "tools:commit", callIndex: 1, agent: "main", status: "success" as const },
      { name: "deploy", callIndex: 3, agent: "main", status: "success" as const },
    ];
    const r = check.eval(makeTrace({ calls, skills }));
    expect(r).toMatchObject({ pass: false, callIndex: 3, actual: ["Skill"] });
    expect(r.message).toMatch(/invoked by 1 Skill call\(s\)\), 1 of 2 call\(s\)/);
  });

  it("calls of a subagent it dispatched are the subagent's; its Agent call is judged", () => {
    const calls: CallSpec[] = [{ id: "toolu_A", name: "Agent", input: { subagent_type: "x" } }, bash("git push", { agent: "toolu_A", agentType: "x" })];
    const r = check.eval(promptRun("/commit", calls));
    expect(r).toMatchObject({ pass: false, actual: ["Agent"] });
  });

  it("fails when it never ran, and is inconclusive when the trace cannot show the prompt", () => {
    expect(check.eval(promptRun("/other", [bash("git push")])).message).toBe(
      "/commit never ran, so what it did while active cannot be checked: the prompt was /other, and the model invoked no skill or command",
    );
    expect(check.eval(makeTrace({ calls: [bash("git push")] }))).toMatchObject({ pass: false, inconclusive: true, message: expect.stringMatching(/cannot tell whether \/commit ran: .* no recorded model requests/) });
  });

  it("refuses a run that did not happen as designed, and a rule naming no real tool", () => {
    const unhealthy = promptRun("/commit", [bash("git status")], { errors: [{ kind: "no-model-request", message: "the model was never asked" }] });
    expect(check.eval(unhealthy).message).toMatch(/cannot confirm \/commit stayed inside its allowed-tools: the run did not happen as designed/);
    const typo = path.join(dir, "typo.md");
    writeFileSync(typo, "---\nallowed-tools: [Bsh(git add:*)]\n---\n");
    const offered = promptRun("/typo", [bash("git add .")], { source: { kind: "synthetic", cwd: "/work", tools: ["Bash", "Read"] } });
    expect(withinAllowedTools(typo).eval(offered).message).toMatch(/did you mean Bash\?/);
  });

  it("round-trips through JSON carrying its rules; a bare path is read when rebuilt", () => {
    const json = check.toJSON();
    expect(json).toEqual({ kind: "withinAllowedTools", path: COMMIT, name: "commit", type: "command", allowed: ["Bash(git add:*)", "Bash(git status:*)", "Bash(git commit:*)"] });
    expect(checkFromJSON(json).toJSON()).toEqual(json);
    expect(checkFromJSON({ kind: "withinAllowedTools", path: COMMIT }).toJSON()).toEqual(json);
    expect(() => checkFromJSON({ kind: "withinAllowedTools", path: path.join(dir, "gone.md") })).toThrow(/cannot read it \(ENOENT\)/);
  });
});
