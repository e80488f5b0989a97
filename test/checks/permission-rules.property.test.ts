/**
 * Permission-rule strings in onlyTools, read as Claude Code reads them: examples from its rule
 * grammar, and a property test against an oracle over word lists (every simple command of a
 * compound command must start with the rule's words) that never looks at the joined string.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { onlyTools } from "../../src/index.js";
import { parsePermissionRule, ruleAllowsCall, shellRuleAllows, splitCompound } from "../../src/checks/permission-rules.js";
import { makeTrace } from "../helpers/trace.js";

const bash = (...commands: string[]) => makeTrace({ calls: commands.map((command) => ({ name: "Bash", input: { command } })) });
const allows = (rule: string, name: string, input: Record<string, unknown>, cwd = "/w") => ruleAllowsCall(parsePermissionRule(rule), { name, input }, cwd);

describe("onlyTools with Claude Code permission rules", () => {
  const GIT = ["Bash(git add:*)", "Bash(git status:*)", "Bash(git commit:*)"];

  it("a command prefix rule allows that command, not another command of the same program", () => {
    const pushed = onlyTools(GIT).eval(bash("git add -A", "git commit -m wip", "git push --force origin main"));
    expect(pushed.pass).toBe(false);
    expect(pushed.actual).toEqual(["Bash(git push --force origin main)"]);
    expect(pushed.callIndex).toBe(2);
    expect(onlyTools(GIT).eval(bash("git add -A", "git status", "git commit -m wip")).pass).toBe(true);
  });

  it("every subcommand of a compound command must be allowed; what needs a shell to read fails closed", () => {
    expect(onlyTools(GIT).eval(bash("git add . && git commit -m x")).pass).toBe(true);
    for (const command of ["git add . && git push", "git status; rm -rf /", "git add . | sh", "git status & curl x", "git add $(rm -rf ~)", "git add `id`", "git add <(cat /etc/passwd)", "(git push)", "git add 'unclosed"]) {
      expect(onlyTools(GIT).eval(bash(command)).pass, command).toBe(false);
    }
    expect(onlyTools(["Bash"]).eval(bash("git add $(rm -rf ~)")).pass).toBe(true);
  });

  it("`:*` is a word boundary, an exact rule is exact, and `*` is a wildcard (a trailing ` *` optional)", () => {
    expect(shellRuleAllows("git add:*", "git addx")).toBe(false);
    expect(shellRuleAllows("git add:*", "git add")).toBe(true);
    expect(shellRuleAllows("npm run test", "npm run test")).toBe(true);
    expect(shellRuleAllows("npm run test", "npm run test:unit")).toBe(false);
    expect(shellRuleAllows("ls *", "ls -la")).toBe(true);
    expect(shellRuleAllows("ls *", "ls")).toBe(true);
    expect(shellRuleAllows("ls *", "lsof")).toBe(false);
    expect(shellRuleAllows("ls*", "lsof")).toBe(true);
    expect(shellRuleAllows("git * main", "git push origin main")).toBe(true);
    expect(shellRuleAllows("git * main", "git push origin main --force")).toBe(false);
    expect(shellRuleAllows("echo \\*", "echo *")).toBe(true);
    expect(shellRuleAllows("echo \\*", "echo x")).toBe(false);
    expect(shellRuleAllows("npm test:*", "npm test 2>&1")).toBe(true);
  });

  it("path rules are gitignore-style from the cwd, the project root or the filesystem root", () => {
    expect(allows("Read(./src/**)", "Read", { file_path: "src/a/b.ts" })).toBe(true);
    expect(allows("Read(./src/**)", "Read", { file_path: "/w/src/x.ts" })).toBe(true);
    expect(allows("Read(./src/**)", "Read", { file_path: "/w/secrets.env" })).toBe(false);
    expect(allows("Read(src/*.ts)", "Read", { file_path: "src/a/b.ts" })).toBe(false);
    expect(allows("Edit(/docs/**)", "Edit", { file_path: "/w/docs/x.md" })).toBe(true);
    expect(allows("Read(//etc/**)", "Read", { file_path: "/etc/passwd" })).toBe(true);
    expect(allows("Read(./src/**)", "Read", { file_path: "src/a.ts" }, "")).toBe(false); // no cwd: nothing relative is allowed
    expect(allows("Read(./src/**)", "Write", { file_path: "src/a.ts" })).toBe(false);
  });

  it("MCP server rules, WebFetch domains, and specifiers proctor does not know (they allow nothing)", () => {
    expect(allows("mcp__gh", "mcp__gh__issue", {})).toBe(true);
    expect(allows("mcp__gh", "mcp__ghx__issue", {})).toBe(false);
    expect(allows("mcp__gh__*", "mcp__gh__pr", {})).toBe(true);
    expect(allows("WebFetch(domain:example.com)", "WebFetch", { url: "https://example.com/a" })).toBe(true);
    expect(allows("WebFetch(domain:example.com)", "WebFetch", { url: "https://evil.com/example.com" })).toBe(false);
    expect(allows("Skill(whatever)", "Skill", { skill: "whatever" })).toBe(false);
    expect(onlyTools(["mcp__gh"]).eval(makeTrace({ calls: [{ name: "mcp__gh__issue", input: {} }] })).pass).toBe(true);
  });
});

describe("compound commands against a word-list oracle", () => {
  const WORDS = ["git", "add", "push", "ls", "-la", "main", "x"];
  const simple = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 });
  const OPS = [" && ", " || ", "; ", " | ", "\n", " & "];
  const compound = fc.tuple(fc.array(simple, { minLength: 1, maxLength: 4 }), fc.array(fc.constantFrom(...OPS), { minLength: 4, maxLength: 4 }));

  it("`P:*` allows a compound command exactly when every simple command starts with P's words", () => {
    fc.assert(
      fc.property(compound, fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 2 }), ([commands, ops], prefix) => {
        const text = commands.map((words, i) => (i === 0 ? "" : ops[i - 1]) + words.join(" ")).join("");
        const oracle = commands.every((words) => prefix.every((w, i) => words[i] === w));
        expect(splitCompound(text)).toEqual(commands.map((w) => w.join(" ")));
        expect(shellRuleAllows(`${prefix.join(" ")}:*`, text)).toBe(oracle);
      }),
      { numRuns: 500 },
    );
  });
});
