/**
 * Relative paths in an eval's spec belong to the module that declared it: an eval file that
 * re-exports an eval from another module must not move its fixture, plugins or script file.
 * Through the built bin: one mock run (the fixture is found) and one export (the script file is).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { definedIn, defineEval, tool } from "../../src/index.js";
import { evalFileOf, loadEvalFiles } from "../../src/eval/load.js";
import { proctor } from "../helpers/cli.js";

const INDEX = new URL("../../dist/src/index.js", import.meta.url).pathname;
const APP = new URL("../../examples/fixtures/app", import.meta.url).pathname;
const root = mkdtempSync(join(tmpdir(), "proctor-defined-in-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// shared/listing.mjs declares the eval, with paths relative to shared/; evals/ re-exports it.
mkdirSync(join(root, "shared"), { recursive: true });
mkdirSync(join(root, "evals"), { recursive: true });
cpSync(APP, join(root, "shared", "fixtures", "app"), { recursive: true });
writeFileSync(join(root, "shared", "script.json"), JSON.stringify({ turns: [{ tools: [{ name: "Read", input: { file_path: "notes.txt" } }] }, { text: "Summary: read it." }] }));
writeFileSync(
  join(root, "shared", "listing.mjs"),
  `import { defineEval, tool, output } from ${JSON.stringify(INDEX)};
export const listing = defineEval({ name: "reads the notes", mock: { prompt: "Read notes.txt.", fixture: "./fixtures/app", script: "./script.json", allowedTools: ["Read"] }, checks: [tool("Read"), output(/^Summary:/m)], trials: 1 });
`,
);
writeFileSync(join(root, "evals", "listing.eval.mjs"), `export { listing } from "../shared/listing.mjs";\n`);

describe("an eval's relative paths resolve against the module that declared it", () => {
  it("definedIn names the declaring module; evalFileOf prefers it to the re-exporting eval file", async () => {
    const here = defineEval({ name: "here", run: () => ({}) as never, checks: [tool("Read")] });
    expect(definedIn(here)).toBe(new URL(import.meta.url).pathname);
    const loaded = await loadEvalFiles([join(root, "evals")]);
    const [[definition, file]] = [...evalFileOf(loaded)] as [[unknown, string]];
    expect(loaded[0]?.file).toBe(join(root, "evals", "listing.eval.mjs"));
    expect(file).toBe(join(root, "shared", "listing.mjs"));
    expect(definition).toBe(loaded[0]?.evals[0]);
  });

  it("proctor run finds the fixture and the script file of a re-exported eval (one mock run)", async () => {
    const r = await proctor(["run", join(root, "evals"), "--quiet", "--json", join(root, "run.json")], { env: { ...(process.env as Record<string, string>), NO_COLOR: "1" } });
    expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(0);
    const [report] = JSON.parse(readFileSync(join(root, "run.json"), "utf8")) as { trials: { completed: number; errored: number } }[];
    expect(report?.trials).toMatchObject({ completed: 1, errored: 0 });
  }, 300_000);

  it("proctor export claude-plugin-eval reads the script file next to the declaring module", async () => {
    const out = join(root, "suite");
    const r = await proctor(["export", "claude-plugin-eval", join(root, "evals", "listing.eval.mjs"), "-o", out]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(out, "reads-the-notes", "proctor.script.json"), "utf8")).turns[1]).toEqual({ text: "Summary: read it." });
  });
});
