/**
 * `proctor run` with no paths, through the built bin in a project directory: the eval files in
 * ./evals; else ./evals as a claude plugin eval suite when it holds case directories (as
 * `claude plugin eval` reads its default eval dir); else the eval files in ./examples. Nothing
 * here spawns claude: --list names what would run, and a malformed case is refused before any run.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { proctor } from "../helpers/cli.js";

const GREETER = new URL("../fixtures/plugin-eval/greeter", import.meta.url).pathname;
const INDEX = new URL("../../dist/src/index.js", import.meta.url).pathname;
const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});
/** A project dir: the greeter suite in ./evals when `suite`, an eval file in ./examples and, when `evalsFile`, one in ./evals. */
function project(parts: { suite?: boolean; examples?: boolean; evalsFile?: boolean }): string {
  const dir = mkdtempSync(join(tmpdir(), "proctor-run-default-"));
  temps.push(dir);
  if (parts.suite) cpSync(GREETER, dir, { recursive: true });
  const evalFile = (where: string, name: string) => {
    mkdirSync(join(dir, where), { recursive: true });
    writeFileSync(join(dir, where, `${name}.eval.mjs`), `import { defineEval, tool } from ${JSON.stringify(INDEX)};\nexport default defineEval({ name: ${JSON.stringify(name)}, run: () => { throw new Error("not run") }, checks: [tool("Read")] });\n`);
  };
  if (parts.examples) evalFile("examples", "from-examples");
  if (parts.evalsFile) evalFile("evals", "from-evals");
  return dir;
}

describe("proctor run with no paths", () => {
  it("runs ./evals as a claude plugin eval suite when it holds case directories, ahead of ./examples", async () => {
    const cwd = project({ suite: true, examples: true });
    const r = await proctor(["run", "--list"], { cwd });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain("no eval files given — running the claude plugin eval suite in ./evals");
    expect(r.stdout).toMatch(/^hello {2}\(claude plugin eval case · \d+ runs · \d+ graders\) {2}evals\/hello$/m);
    expect(r.stdout).not.toContain("from-examples");
    // Without --list it is the suite that runs: a malformed case is refused in claude's words before any trial.
    const notes = join(cwd, "evals/notes/case.yaml");
    writeFileSync(notes, readFileSync(notes, "utf8").replace(/^runs: .*$/m, "").concat("\nruns: 51\n"));
    const bad = await proctor(["run", "--mock"], { cwd });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/\[SUITE_INVALID\] notes: invalid case\.yaml:\n {2}runs: Number must be less than or equal to 50/);
  });

  it("eval files in ./evals still win over its case directories; without either, ./examples", async () => {
    const both = await proctor(["run", "--list"], { cwd: project({ suite: true, evalsFile: true, examples: true }) });
    expect(both.exitCode, both.stderr).toBe(0);
    expect(both.stdout).toContain("from-evals");
    expect(both.stdout).not.toMatch(/claude plugin eval case/);
    const cwd = project({ examples: true });
    mkdirSync(join(cwd, "evals"));
    const fallback = await proctor(["run", "--list"], { cwd });
    expect(fallback.exitCode, fallback.stderr).toBe(0);
    expect(fallback.stdout).toContain("from-examples");
  });

  it("with neither, says where it looked, case directories included", async () => {
    const r = await proctor(["run"], { cwd: project({}) });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("no eval files given, and none in ./evals or ./examples (nor case directories of a claude plugin eval suite in ./evals)");
  });

  it("-q silences the note of which default directory ran, for eval files and for a suite", async () => {
    const files = await proctor(["run", "--list", "-q"], { cwd: project({ examples: true }) });
    expect(files.exitCode, files.stderr).toBe(0);
    expect(files.stdout).toContain("from-examples");
    expect(files.stderr).toBe("");
    const suite = await proctor(["run", "--list", "--quiet"], { cwd: project({ suite: true }) });
    expect(suite.exitCode, suite.stderr).toBe(0);
    expect(suite.stdout).toContain("hello");
    expect(suite.stderr).toBe("");
    // Without -q the note is there: the test above is not vacuous.
    expect((await proctor(["run", "--list"], { cwd: project({ examples: true }) })).stderr).toContain("no eval files given — running the *.eval.* files in ./examples");
  });

  it("--eval NAME runs only that eval (a * pattern too); a name that matches nothing is refused with the names there are", async () => {
    const cwd = project({ examples: true, evalsFile: true });
    const one = await proctor(["run", "evals", "examples", "--eval", "from-ex*", "--list"], { cwd });
    expect(one.exitCode, one.stderr).toBe(0);
    expect(one.stdout).toContain("from-examples");
    expect(one.stdout).not.toContain("from-evals");
    const none = await proctor(["run", "evals", "examples", "--eval", "from-nowhere"], { cwd });
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('--eval "from-nowhere": no eval of that name in evals, examples');
    expect(none.stderr).toContain("the names there: from-evals, from-examples");
  });
});
