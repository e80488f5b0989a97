import { describe, expect, it } from "vitest";
import {
  claudeCodeDialect, codexDialect, classifyToolEffect, decidePurityGate, effectSurface, pureContractViolations,
  purityViolations, shellCommandOf,
} from "../../src/safety.js";

const cc = claudeCodeDialect;

describe("classifyToolEffect", () => {
  it.each([
    ["Read", "read-only"],
    ["Grep", "read-only"],
    ["Glob", "read-only"],
    ["Agent", "read-only"],
    ["Task", "read-only"],
    ["LS", "read-only"],
    ["BashOutput", "read-only"],
    ["Bash", "side-effecting"],
    ["Bash(git:*)", "side-effecting"],
    ["Write", "side-effecting"],
    ["Edit", "side-effecting"],
    ["MultiEdit", "side-effecting"],
    ["KillBash", "side-effecting"],
    ["WebFetch", "side-effecting"],
    ["mcp__github__get_issue", "unknown"],
    ["Frobnicate", "unknown"],
  ] as const)("%s is %s", (tool, effect) => {
    expect(classifyToolEffect(tool, cc)).toBe(effect);
  });

  it("classifies Codex's tools with the Codex dialect", () => {
    expect(classifyToolEffect("shell", codexDialect)).toBe("side-effecting");
    expect(classifyToolEffect("update_plan", codexDialect)).toBe("read-only");
    expect(classifyToolEffect("Read", codexDialect)).toBe("unknown");
  });
});

describe("effectSurface", () => {
  it("is pure for read-only tools", () => {
    expect(effectSurface(["Read", "Grep", "Glob"], cc)).toEqual({ readOnly: ["Read", "Grep", "Glob"], sideEffecting: [], unknown: [], purity: "pure" });
  });
  it("is bounded with decidable side-effecting tools", () => {
    expect(effectSurface(["Read", "Edit", "Write"], cc).purity).toBe("bounded");
  });
  it("is unrestricted with Bash, whatever its restriction", () => {
    expect(effectSurface(["Read", "Bash(git:*)"], cc)).toMatchObject({ sideEffecting: ["Bash"], purity: "unrestricted" });
  });
  it("is unrestricted with an MCP or unknown tool", () => {
    expect(effectSurface(["Read", "mcp__db__query"], cc)).toMatchObject({ unknown: ["mcp__db__query"], purity: "unrestricted" });
  });
  it("is unrestricted for a wildcard, which lands in no bucket", () => {
    expect(effectSurface(["*"], cc)).toEqual({ readOnly: [], sideEffecting: [], unknown: [], purity: "unrestricted" });
    expect(effectSurface([""], cc).purity).toBe("unrestricted");
  });
  it("de-duplicates by base name", () => {
    expect(effectSurface(["Bash(git:*)", "Bash(npm test)", "Read", "Read"], cc)).toMatchObject({ readOnly: ["Read"], sideEffecting: ["Bash"] });
  });
});

describe("purityViolations", () => {
  it("flags every side-effecting, unknown and wildcard tool under pure", () => {
    const v = pureContractViolations(["Read", "Bash", "Write", "mcp__x__y", "*"], cc);
    expect(v.map((x) => [x.tool, x.effect])).toEqual([
      ["Bash", "side-effecting"],
      ["Write", "side-effecting"],
      ["mcp__x__y", "unknown"],
      ["*", "unknown"],
    ]);
    expect(v[0].message).toMatch(/declare the unit bounded/);
    expect(v[2].message).toMatch(/MCP tool/);
    expect(v[3].message).toMatch(/inherits every tool/);
  });
  it("admits Bash and Write under bounded, but not unknown tools or wildcards", () => {
    expect(purityViolations(["Bash", "Write", "Edit"], cc, "bounded")).toEqual([]);
    expect(purityViolations(["Bash", "Typo"], cc, "bounded").map((v) => v.tool)).toEqual(["Typo"]);
    expect(purityViolations([""], cc, "bounded")).toHaveLength(1);
  });
  it("never flags under unrestricted", () => {
    expect(purityViolations(["*", "mcp__x__y"], cc, "unrestricted")).toEqual([]);
  });
  it("strips restrictions and reports a tool once", () => {
    expect(purityViolations(["Bash(git:*)", "Bash(ls)"], cc, "pure").map((v) => v.tool)).toEqual(["Bash"]);
  });
});

describe("decidePurityGate", () => {
  it("allows everything when unrestricted", () => {
    expect(decidePurityGate("unrestricted", "mcp__x__y", undefined, cc)).toEqual({ allow: true, message: "" });
    expect(decidePurityGate("unrestricted", "Bash", "rm -rf /", cc).allow).toBe(true);
  });
  it("allows read-only tools at every level", () => {
    expect(decidePurityGate("pure", "Read", undefined, cc).allow).toBe(true);
  });
  it("allows provably read-only Bash at pure and bounded, and denies the rest with the reason", () => {
    for (const level of ["pure", "bounded"] as const) {
      expect(decidePurityGate(level, "Bash", "git status && ls", cc).allow).toBe(true);
      const d = decidePurityGate(level, "Bash", "rm -rf build", cc);
      expect(d.allow).toBe(false);
      expect(d.message).toMatch(/side-effecting \(`rm` is not a command proctor knows to be read-only\)/);
      expect(d.message).toContain(`declared ${level}`);
    }
    expect(decidePurityGate("bounded", "Bash", "eval x", cc).message).toMatch(/undecidable/);
    expect(decidePurityGate("bounded", "Bash", undefined, cc).allow).toBe(false);
  });
  it("allows other side-effecting tools only under bounded", () => {
    expect(decidePurityGate("bounded", "Write", undefined, cc).allow).toBe(true);
    expect(decidePurityGate("pure", "Write", undefined, cc)).toMatchObject({ allow: false, message: expect.stringMatching(/Write is side-effecting/) });
  });
  it("denies unknown-effect tools under pure and bounded", () => {
    expect(decidePurityGate("bounded", "mcp__db__drop", undefined, cc)).toMatchObject({ allow: false, message: expect.stringMatching(/MCP tool/) });
    expect(decidePurityGate("pure", "Nope", undefined, cc).allow).toBe(false);
  });
  it("refines Codex's shell by command too", () => {
    expect(decidePurityGate("bounded", "shell", "ls -la", codexDialect).allow).toBe(true);
    expect(decidePurityGate("bounded", "shell", "rm x", codexDialect).allow).toBe(false);
  });
});

describe("shellCommandOf", () => {
  it("reads Claude Code's command string and Codex's argv", () => {
    expect(shellCommandOf({ command: "ls -la" })).toBe("ls -la");
    expect(shellCommandOf({ command: ["bash", "-lc", "git status"] })).toBe("git status");
    expect(shellCommandOf({ command: ["rm", "-rf", "my dir"] })).toBe("rm -rf 'my dir'");
    expect(shellCommandOf({ file_path: "x" })).toBeUndefined();
  });
});
