/**
 * The numbers the README quotes come from running its example: the measure block is run as
 * written (20 trials through the real claude binary, seeded, so the draws repeat), and the
 * shortfall `assertRates` reports must be the one the comment shows.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = new URL("../..", import.meta.url).pathname;
const work = join(root, "test", ".docs-run");

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the README's measure example", () => {
  it("reports what its comment says it reports", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## measure: rates, intervals, gates"));
    const code = section.slice(section.indexOf("```ts") + 6, section.indexOf("```", section.indexOf("```ts") + 6));
    const claim = /assertRates\(report\); \/\/ (✗ .*)$/m.exec(code)?.[1];
    expect(claim, "the example's assertRates line states its result").toBeDefined();
    // In this package's folder, "proctor" resolves to the package itself, as in a user's project.
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, "measure.mjs"), code.replace(/assertRates\(report\);/, "try { assertRates(report); } catch (e) { console.log(`RESULT ${e.message}`); }"));
    const out = execFileSync(process.execPath, [join(work, "measure.mjs")], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    const shortfalls = out.slice(out.indexOf("RESULT ")).split("\n").map((l) => l.trim());
    expect(shortfalls).toContain(claim);
  }, 360_000);
});
