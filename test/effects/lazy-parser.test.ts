import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";

/** Run a module body in a fresh node process (no setup file) and return what it printed. */
function fresh(body: string): string {
  return execFileSync(process.execPath, ["--input-type=module", "-e", body], { cwd: process.cwd(), encoding: "utf8" }).trim();
}

describe("the shell parser loads on first need", () => {
  it("importing proctor and proctor/safety loads no WebAssembly parser, and a synchronous classification that needs it says what to do", () => {
    const out = fresh(`
      const p = { ...(await import("./dist/src/index.js")), ...(await import("./dist/src/safety.js")) };
      const { shellParserLoaded } = await import("./dist/src/effects/bash/parser.js");
      let message = "";
      try { p.classifyBash("ls $HOME | wc -l"); } catch (e) { message = e.code + ": " + e.message; }
      console.log(JSON.stringify({ loadedAtImport: shellParserLoaded(), message }));
    `);
    const r = JSON.parse(out) as { loadedAtImport: boolean; message: string };
    expect(r.loadedAtImport).toBe(false);
    expect(r.message).toMatch(/^SHELL_PARSER_NOT_LOADED: .*await loadShellParser\(\)/);
  });

  it("plain and quoted words, pipelines and lists of them are judged before the parser loads, and without loading it (the fast path)", () => {
    const out = fresh(`
      const p = await import("./dist/src/safety.js");
      const { shellParserLoaded } = await import("./dist/src/effects/bash/parser.js");
      const verdicts = ["ls -la src", "git status", "rm -rf build", "sh x", "git log --format='%H %s' | head -5 && ls"].map((c) => p.explainBash(c));
      console.log(JSON.stringify({ verdicts: verdicts.map((v) => v.effect), loaded: shellParserLoaded() }));
    `);
    expect(JSON.parse(out)).toEqual({ verdicts: ["read-only", "read-only", "side-effecting", "undecidable", "read-only"], loaded: false });
  });

  it("expect() refuses instead of failing the check; evaluateChecks loads the parser and judges", () => {
    const out = fresh(`
      const p = { ...(await import("./dist/src/index.js")), ...(await import("./dist/src/safety.js")) };
      const trace = { version: 1, source: { kind: "synthetic" }, complete: true, subagents: [], skills: [], hooks: [], replies: [], errors: [], toolCalls: [{ id: "1", name: "Bash", input: { command: "ls $HOME | wc -l" }, status: "success", agent: "main" }] };
      let refused = "";
      try { p.expect(trace, [p.purity("bounded")]); } catch (e) { refused = e.code; }
      const [r] = await p.evaluateChecks(trace, [p.purity("bounded")]);
      console.log(JSON.stringify({ refused, pass: r.pass }));
    `);
    expect(JSON.parse(out)).toEqual({ refused: "SHELL_PARSER_NOT_LOADED", pass: true });
  });
});
