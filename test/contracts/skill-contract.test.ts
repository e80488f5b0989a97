import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkFromJSON, evalChecks, type Trace } from "../../src/index.js";
import { readSkillDeclaration, simpleCommands, skillContract } from "../../src/safety.js";
import { commandMatchesPattern } from "../../src/effects/bash/simple-commands.js";
import { makeTrace, type CallSpec } from "../helpers/trace.js";

const root = mkdtempSync(join(tmpdir(), "proctor-skill-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
function skillDir(frontmatter: string | undefined, name = `skill-${++n}`): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "SKILL.md"), frontmatter === undefined ? "# no frontmatter\n" : `---\n${frontmatter}\n---\n\nDo the thing.\n`);
  return dir;
}

/** A run: some calls, then the Skill call, then `during`, then another skill and `after`. */
function run(skill: string, during: CallSpec[], after: CallSpec[] = []): Trace {
  const calls: CallSpec[] = [{ name: "Read" }, { name: "Skill", input: { skill } }, ...during, { name: "Skill", input: { skill: "other" } }, ...after];
  const trace = makeTrace({ calls });
  return {
    ...trace,
    skills: [
      { name: skill, callIndex: 1, agent: "main", status: "success" },
      { name: "other", callIndex: 2 + during.length, agent: "main", status: "success" },
    ],
  };
}
const bash = (command: string): CallSpec => ({ name: "Bash", input: { command } });
const verdicts = (checks: ReturnType<typeof skillContract>, trace: Trace) => evalChecks(trace, checks).map((r) => [r.kind, r.pass]);

describe("skillContract", () => {
  it("checks that the skill ran and used only its allowed tools while active", () => {
    const dir = skillDir("name: release-notes\ndescription: Write release notes\nallowed-tools: Read, Grep, Bash(git log:*)");
    const checks = skillContract(dir);
    expect(checks.map((c) => c.label)).toEqual(["skill(release-notes)", 'skillTools(release-notes, ["Read","Grep","Bash(git log:*)"])']);
    expect(verdicts(checks, run("release-notes", [{ name: "Grep" }, bash("git log --oneline -5")], [{ name: "Write" }]))).toEqual([
      ["skill", true],
      ["skillTools", true],
    ]);
    const bad = evalChecks(run("release-notes", [{ name: "Write" }, bash("git log -1 && git push")]), checks)[1];
    expect(bad.pass).toBe(false);
    expect(bad.message).toMatchInlineSnapshot(`
      "while skill release-notes was active, 2 call(s) went outside its allowed-tools (Read, Grep, Bash(git log:*)):
          #2 Write {} → success
            Write is not among the declared tools
          #3 Bash {"command":"git log -1 && git push"} → success
            \`git push\` matches none of Bash(git log:*)
        add the tool to allowed-tools if it is intended, or find why the skill reached for it"
    `);
  });

  it("reads allowed-tools as a list, and Bash(git *) forms", () => {
    const dir = skillDir("name: tidy\nallowed-tools:\n  - Read\n  - Bash(git *)\n  - Bash(npm run lint:*)");
    expect(readSkillDeclaration(dir).declaration.allowedTools).toEqual(["Read", "Bash(git *)", "Bash(npm run lint:*)"]);
    const [, tools] = skillContract(dir);
    expect(tools.eval(run("tidy", [bash("git status"), bash("npm run lint -- --fix")])).pass).toBe(true);
    expect(tools.eval(run("tidy", [bash("npm test")])).pass).toBe(false);
    expect(tools.eval(run("tidy", [bash("git status $(rm -rf ~)")])).message).toMatch(/cannot be split into simple commands/);
  });

  it("matches a plugin skill by its bare name, and ignores a subagent's calls", () => {
    const dir = skillDir("name: audit\nallowed-tools: Read Agent");
    const [ran, tools] = skillContract(dir);
    const trace = run("plugin:audit", [{ name: "Agent" }, { name: "Bash", agent: "toolu_sub", input: { command: "rm -rf /" } }]);
    expect(ran.eval(trace).pass).toBe(true);
    expect(tools.eval(trace).pass).toBe(true);
  });

  it("adds the purity floor, checked per call like the gate: a bounded skill may read with Bash, not rm", () => {
    const dir = skillDir("name: inspect\nallowed-tools: Read, Bash, Edit\npurity: bounded");
    const checks = skillContract(dir);
    expect(checks.map((c) => c.kind)).toEqual(["skill", "skillTools", "skillPurity"]);
    expect(verdicts(checks, run("inspect", [bash("git diff --stat"), { name: "Edit" }], [bash("rm -rf /")]))).toEqual([
      ["skill", true],
      ["skillTools", true],
      ["skillPurity", true],
    ]);
    const r = evalChecks(run("inspect", [bash("rm -rf build")]), checks)[2];
    expect(r.pass).toBe(false);
    expect(r.message).toMatch(/^skill inspect is declared bounded, but 1 call\(s\) while it was active broke that floor:\n {4}#2 Bash .*\n {6}Bash command is side-effecting/);
  });

  it("fails, saying what is wrong, when a declared purity contradicts allowed-tools", () => {
    const checks = skillContract(skillDir("name: pure-one\nallowed-tools: Read, Write\npurity: pure"));
    const problem = checks.find((c) => c.kind === "skillContract")!;
    expect(problem.eval(makeTrace()).message).toMatch(/declares purity: pure, but Write is side-effecting; a pure unit may only observe/);
  });

  it.each([
    ["no SKILL.md", null, /cannot read .*SKILL\.md \(ENOENT\)/],
    ["no frontmatter", undefined, /has no frontmatter/],
    ["bad YAML", "allowed-tools: [Read", /the frontmatter is not valid YAML/],
    ["no allowed-tools", "name: x\ndescription: y", /declares no allowed-tools, so there is nothing to hold the skill to/],
    ["allowed-tools of the wrong type", "allowed-tools: 3", /allowed-tools must be a string .* or a list of tool names; got 3/],
    ["an unknown purity", "allowed-tools: Read\npurity: spotless", /purity must be one of pure, bounded, unrestricted; got "spotless"/],
  ])("gives a failing check, never a throw, for %s", (_, front, message) => {
    const dir = front === null ? join(root, "missing") : skillDir(front as string | undefined);
    const checks = skillContract(dir);
    const problems = checks.filter((c) => c.kind === "skillContract");
    expect(problems).toHaveLength(1);
    const r = problems[0].eval(makeTrace());
    expect(r.pass).toBe(false);
    expect(r.message).toMatch(message);
  });

  it("fails closed when the skill never ran", () => {
    const [, tools] = skillContract(skillDir("name: never\nallowed-tools: Read"));
    expect(tools.eval(makeTrace({ calls: [{ name: "Read" }] })).message).toMatch(/skill never never ran/);
  });

  it("round-trips its checks through JSON", () => {
    for (const check of skillContract(skillDir("name: rt\nallowed-tools: Read, Bash(git:*)\npurity: bounded"))) {
      expect(checkFromJSON(JSON.parse(JSON.stringify(check))).toJSON()).toEqual(check.toJSON());
    }
  });
});

describe("Bash permission patterns", () => {
  it("splits a line into the simple commands it runs", () => {
    expect(simpleCommands("git status && (cd x; ls -la) | wc -l 2>/dev/null")).toEqual(["git status", "cd x", "ls -la", "wc -l"]);
    expect(simpleCommands("echo $(rm x)")).toBeUndefined();
    expect(simpleCommands("for f in *; do ls; done")).toBeUndefined();
  });
  it.each([
    ["git:*", "git", true],
    ["git:*", "git status", true],
    ["git:*", "gitk", false],
    ["git *", "git log -1", true],
    ["git *", "git", true],
    ["npm run test", "npm run test", true],
    ["npm run test", "npm run test -- -u", false],
    ["*", "anything at all", true],
  ])("%s against %s → %s", (pattern, command, expected) => {
    expect(commandMatchesPattern(command, pattern)).toBe(expected);
  });
});
