/** Baseline files: versioned, validated, sorted; diffs by measure's own comparison; the CLI gate. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compareReports } from "../../src/index.js";
import { BASELINE_VERSION, createBaseline, diffBaseline, parseBaseline, readBaseline, renderBaselineDiff, writeBaseline } from "../../reporters/index.js";
import { proctor } from "../helpers/cli.js";
import { measureBash, parseJunit } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "proctor-baseline-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const path = (name: string) => join(dir, name);

/** Every object's keys in sorted order, at every depth. */
function keysSorted(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(keysSorted);
  if (typeof value !== "object" || value === null) return true;
  const keys = Object.keys(value);
  return keys.join("\0") === [...keys].sort().join("\0") && Object.values(value).every(keysSorted);
}

describe("writeBaseline / readBaseline", () => {
  it("writes sorted keys and reads back exactly what was written", async () => {
    const reports = [await measureBash("b-eval", 10, 2, { min: 0.5 }), await measureBash("a-eval", 5, 0)];
    const file = path("sorted.json");
    const written = writeBaseline(file, reports);
    const text = readFileSync(file, "utf8");
    expect(keysSorted(JSON.parse(text))).toBe(true);
    expect(text.endsWith("}\n")).toBe(true);
    expect(JSON.parse(text)).toMatchObject({ format: "proctor-baseline", version: BASELINE_VERSION });
    expect(readBaseline(file)).toEqual(JSON.parse(JSON.stringify(written)));
    expect(Object.keys(readBaseline(file).evals)).toEqual(["a-eval", "b-eval"]);
  });

  it("refuses reports without a name or with a duplicate name", async () => {
    const r = await measureBash("x", 2, 0);
    const { name: _name, ...unnamed } = r;
    expect(() => createBaseline([unnamed])).toThrow(/reports\[0\] has no name/);
    expect(() => createBaseline([r, r])).toThrow(/two reports are named "x"/);
  });
});

describe("reading other format versions: read or refused, never misread", () => {
  const valid = async () => JSON.parse(JSON.stringify(createBaseline([await measureBash("e", 3, 1)]))) as Record<string, unknown>;

  it("a newer format version is refused with what to do", async () => {
    const newer = { ...(await valid()), version: BASELINE_VERSION + 1 };
    expect(() => parseBaseline(JSON.stringify(newer), "b.json")).toThrow(/b\.json: the baseline is format version 2, written by a newer proctor; this proctor reads format version 1[\s\S]*upgrade proctor/);
  });

  it("an older format version this proctor has no migration for is refused, not read as version 1", async () => {
    const older = { ...(await valid()), version: 0 };
    expect(() => parseBaseline(JSON.stringify(older), "b.json")).toThrow(/format version 0, which this proctor cannot read[\s\S]*proctor baseline --update/);
  });

  it("a missing or non-integer version is refused", async () => {
    const { version: _v, ...noVersion } = await valid();
    expect(() => parseBaseline(JSON.stringify(noVersion), "b.json")).toThrow(/no usable format version/);
    const stringVersion = { ...noVersion, version: "1" };
    expect(() => parseBaseline(JSON.stringify(stringVersion), "b.json")).toThrow(/no usable format version \(got "1"\)/);
  });

  it("a report of another report version inside is refused by measure's own check", async () => {
    const b = await valid();
    const evals = b.evals as Record<string, Record<string, unknown>>;
    evals.e = { ...evals.e, version: 2 };
    expect(() => parseBaseline(JSON.stringify(b), "b.json")).toThrow(/b\.json\.evals\["e"\]\.version: this is a version 2 report/);
  });

  it("names a measure report handed over as a baseline, and other non-baselines", async () => {
    const report = await measureBash("e", 3, 1);
    expect(() => parseBaseline(JSON.stringify(report), "r.json")).toThrow(/r\.json: this is a measure report, not a baseline/);
    expect(() => parseBaseline("[]", "r.json")).toThrow(/not a proctor baseline: expected a JSON object, got an array/);
    expect(() => parseBaseline("{nope", "r.json")).toThrow(/r\.json: not JSON/);
    expect(() => parseBaseline(JSON.stringify({ format: "proctor-baseline", version: 1, evals: {}, extra: 1 }), "r.json")).toThrow(/r\.json: unknown field "extra"/);
  });

  it("a report stored under another eval's name is refused", async () => {
    const b = await valid();
    const evals = b.evals as Record<string, unknown>;
    evals.other = evals.e;
    expect(() => parseBaseline(JSON.stringify(b), "b.json")).toThrow(/evals\["other"\]\.name: the report is named "e", but it is stored under "other"/);
  });
});

describe("diffBaseline", () => {
  it("uses measure's comparison for each eval and lists new, missing and skipped evals", async () => {
    const before = [await measureBash("guarded", 30, 0), await measureBash("gone", 4, 0), await measureBash("no key", 4, 0)];
    const now = [await measureBash("guarded", 30, 15), await measureBash("fresh", 4, 0), { ...(await measureBash("no key", 4, 0)), skipped: { reason: "ANTHROPIC_API_KEY is not set" } }];
    const diff = diffBaseline(createBaseline(before), now, { alpha: 0.05 });
    expect(diff.evals.map((e) => [e.name, e.status])).toEqual([["guarded", "compared"], ["fresh", "new"], ["no key", "skipped"], ["gone", "missing"]]);
    expect(diff.evals[0].comparison).toEqual(compareReports(before[0], now[0], { alpha: 0.05 }));
    expect(diff.regressions.map((r) => r.label)).toEqual(["notTool(Bash)", "tool(Read)"]);
    expect(diff.regressed).toBe(true);
    const text = renderBaselineDiff(diff);
    expect(text).toContain("▼ regressed notTool(Bash): 100.0% (30/30) → 50.0% (15/30)");
    expect(text).toContain("no key: skipped — this run measured nothing: ANTHROPIC_API_KEY is not set");
    expect(text).toContain("2 regressions");
  });

  it("an unchanged run does not regress", async () => {
    const diff = diffBaseline(createBaseline([await measureBash("e", 20, 2)]), [await measureBash("e", 20, 3)]);
    expect(diff.regressed).toBe(false);
    expect(diff.evals[0].comparison?.checks.map((c) => c.verdict)).toEqual(["unchanged", "unchanged"]);
  });
});

describe("proctor baseline", () => {
  it("--update writes the baseline, --check exits 0 when nothing regressed and 1 (with JUnit) when something did", async () => {
    const good = path("good.json");
    const bad = path("bad.json");
    writeFileSync(good, JSON.stringify([await measureBash("guarded", 30, 0)]));
    writeFileSync(bad, JSON.stringify(await measureBash("guarded", 30, 15)));
    const file = path("cli-baseline.json");
    const up = await proctor(["baseline", "--update", file, good]);
    expect(up.exitCode, up.stderr).toBe(0);
    expect(up.stdout).toContain(`wrote ${file}: guarded`);

    const ok = await proctor(["baseline", "--check", file, good]);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(ok.stdout).toContain("no regressions");

    const junit = path("diff.xml");
    const regressed = await proctor(["baseline", "--check", file, bad, "--junit", junit]);
    expect(regressed.exitCode).toBe(1);
    expect(regressed.stdout).toContain("▼ regressed notTool(Bash)");
    expect(parseJunit(readFileSync(junit, "utf8")).root["@failures"]).toBe("2");
  });

  it("exits 2 on bad input, naming the problem", async () => {
    const r1 = await proctor(["baseline", "--check", path("nope.json"), path("nope2.json")]);
    expect(r1.exitCode).toBe(2);
    expect(r1.stderr).toContain("nope2.json: ENOENT");
    const r2 = await proctor(["baseline", "--update", path("x.json")]);
    expect(r2.exitCode).toBe(2);
    expect(r2.stderr).toContain("expected the baseline file and at least one report file");
    const r3 = await proctor(["baseline", path("x.json"), path("y.json")]);
    expect(r3.stderr).toContain("give exactly one of --update or --check");
  });
});
