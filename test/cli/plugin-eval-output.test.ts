/**
 * What `proctor run EVAL_DIR` prints for a claude plugin eval suite, through the built bin on the
 * mock tier: claude's notice for a grader no granted tool can satisfy, each run's score with every
 * grader's verdict and reason, the HTML report, `--allow-tools` taken space-separated as claude
 * takes it, and `--eval` picking cases. Two real claude runs.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { proctor } from "../helpers/cli.js";

const FIXTURE = new URL("../fixtures/plugin-eval/greeter", import.meta.url).pathname;
const temps: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), "proctor-pe-out-"));
  temps.push(d);
  cpSync(FIXTURE, d, { recursive: true });
  return d;
};
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});
const env = { ...(process.env as Record<string, string>), NO_COLOR: "1" };

describe("proctor run EVAL_DIR: output at claude plugin eval's level", () => {
  it("names each grader that cannot pass with the granted tools (claude's words), prints every grader's verdict per run, and writes --html", async () => {
    const dir = temp();
    const html = join(dir, "report", "suite.html");
    const r = await proctor(["run", join(dir, "evals"), "--eval", "notes", "--ablation", "none", "--output-dir", join(dir, "out"), "--html", html], { env });
    expect(r.exitCode, r.stderr).toBe(1);
    // The case allows Write, but nothing grants it: claude 2.1.332's lines, before the run.
    expect(r.stderr).toContain("  notes: not granted (missing --allow-tools grant, or a malformed entry): Write\n");
    expect(r.stderr).toContain(
      '⚠ case "notes": grader "writes-before-replying" cannot pass with the granted tools: it needs a Write call in the trace, but Write is not granted, so the run withholds it from the model and no call (not even a refused one) can occur — add Write to the case\'s allowed_tools and grant it with --allow-tools Write',
    );
    expect(r.stderr).toContain('⚠ case "notes": grader "note-written" cannot pass with the granted tools: it checks a file the run creates, but no tool the run may use can create one');
    // One run's score, then each grader's verdict and reason, as claude prints them.
    expect(r.stdout).toContain("  notes run 1/1: score 0.00\n    ✗ note-written (weight 1): notes/*.md missing (expected present)\n");
    expect(r.stdout).toMatch(/ {4}✗ writes-before-replying \(weight 0\.5\): "after" tool Write never called\n/);
    expect(r.stdout).toContain("✗ notes  score 0.00");
    expect(r.stdout).not.toMatch(/\bhello\b|\bquiet\b/); // --eval notes ran that case only
    expect(r.stdout).toContain(`wrote ${html}`);
    const page = readFileSync(html, "utf8");
    expect(page.startsWith("<!doctype html>")).toBe(true);
    expect(page).toContain("file_exists:note-written");
  }, 300_000);

  it("takes --allow-tools Bash Write space-separated, as claude plugin eval does: no notice, the case scores", async () => {
    const dir = temp();
    const r = await proctor(["run", join(dir, "evals"), "--allow-tools", "Bash", "Write", "--eval", "notes", "--ablation", "none", "--output-dir", join(dir, "out")], { env });
    expect(r.stderr).not.toContain("cannot pass");
    expect(r.stderr).not.toContain("not granted");
    expect(r.stderr).not.toContain("eval files");
    expect(r.stdout).toContain("    ✓ note-written (weight 1)");
    expect(r.stdout).toContain("✗ notes  score 0.86"); // the tool_order grader's after-call never matches, by design
    expect(existsSync(join(dir, "out", "aggregate-result.json"))).toBe(true);
  }, 300_000);

  it("refuses an --eval that names no case, listing the names there are (nothing runs)", async () => {
    const dir = temp();
    const r = await proctor(["run", join(dir, "evals"), "--eval", "note", "--list"], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--eval "note": no eval of that name in');
    expect(r.stderr).toContain("the names there: hello, notes, quiet");
    const glob = await proctor(["run", join(dir, "evals"), "--eval", "*o*", "--list"], { env });
    expect(glob.stdout.split("\n").filter(Boolean).map((l) => l.split(" ")[0])).toEqual(["hello", "notes"]);
  });
});
