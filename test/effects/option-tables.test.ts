/**
 * The option tables (src/effects/bash/tools/option-tables.json) against the installed tools:
 * read again from `--help` they must be the same; each option's value kind must be the one the
 * tool's own getopt enforces (a required value missing, a value given to an option that takes
 * none: the tool's error says so); and the classifier's hand-written grammars must list exactly
 * the table's options with the table's value kinds.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error a plain .mjs script without types
import { readTool } from "../../scripts/option-tables.mjs";
import tables from "../../src/effects/bash/tools/option-tables.json" with { type: "json" };
import type { Grammar } from "../../src/effects/bash/tools/getopt.js";
import { SED } from "../../src/effects/bash/tools/sed.js";
import { UNIQ } from "../../src/effects/bash/tools/uniq.js";
import { XARGS } from "../../src/effects/bash/tools/xargs.js";

type Kind = "none" | "required" | "optional";
interface Table {
  version: string;
  short: Record<string, Kind>;
  long: Record<string, Kind>;
  pairs: Record<string, string>;
}
const TABLES = tables as unknown as Record<string, Table>;
/** Tools whose options the classifier reads (their grammars are compared below or they have rules). */
const FULL = new Set(["sed", "xargs", "uniq", "sort", "date", "diff", "tee"]);
const installed = (tool: string) => spawnSync("sh", ["-c", `command -v ${tool}`]).status === 0;
const dir = mkdtempSync(join(tmpdir(), "proctor-option-tables-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const q = (w: string) => `'${w.replace(/'/g, "'\\''")}'`;

/** Each probe's stderr, all run by one bash in an empty directory with nothing on stdin. */
function stderrsOf(tool: string, probes: readonly string[][]): string[] {
  const script = probes.map((args, i) => `printf '\\n@@%d\\n' ${i} >&2; timeout 3 ${q(tool)} ${args.map(q).join(" ")} >/dev/null </dev/null`).join("\n");
  const r = spawnSync("bash", ["--norc", "-c", script], { cwd: dir, env: { PATH: "/usr/bin:/bin", LC_ALL: "C", HOME: dir }, timeout: 60_000, encoding: "utf8" });
  const out: string[] = Array<string>(probes.length).fill("");
  for (const part of (r.stderr ?? "").split(/\n@@/).slice(1)) {
    const nl = part.indexOf("\n");
    out[Number(part.slice(0, nl))] = part.slice(nl + 1);
  }
  return out;
}

describe("option tables read from the installed tools", () => {
  it.each(Object.keys(TABLES).filter(installed))("%s: --help still gives the recorded table and version", (tool) => {
    const now = readTool(tool) as Table;
    expect(now.version, "installed version differs; run node scripts/option-tables.mjs").toBe(TABLES[tool]?.version);
    expect(now).toEqual(TABLES[tool]);
  });

  it.each(Object.keys(TABLES).filter(installed))("%s: each value kind is what the tool's getopt enforces", (tool) => {
    const t = TABLES[tool] as Table;
    const checks: Array<{ args: string[]; ok: RegExp; expect: boolean; what: string }> = [];
    for (const [c, kind] of Object.entries(t.short)) {
      if (kind === "required" && !/\d/.test(c)) checks.push({ args: [`-${c}`], ok: /requires an argument/, expect: true, what: `-${c} should require a value` });
    }
    // The tools the classifier reads options of are probed in full; for the others, CI probes
    // every option that takes a value and a few that take none (PROCTOR_FUZZ_RUNS probes all).
    let flags = FULL.has(tool) || process.env.PROCTOR_FUZZ_RUNS ? Number.POSITIVE_INFINITY : 3;
    for (const [name, kind] of Object.entries(t.long)) {
      if (name === "help" || name === "version" || name.startsWith("-")) continue;
      if (kind === "none" && flags-- <= 0) continue;
      const withValue = [`--${name}=x`, "/nonexistent/a", "/nonexistent/b"];
      checks.push({ args: withValue, ok: /doesn't allow an argument/, expect: kind === "none", what: `--${name} should ${kind === "none" ? "refuse" : "take"} a value` });
      if (kind === "required") checks.push({ args: [`--${name}`], ok: /requires an argument/, expect: true, what: `--${name} should require a value` });
    }
    const stderrs = stderrsOf(tool, checks.map((c) => c.args));
    const wrong = checks.filter((c, i) => c.ok.test(stderrs[i] ?? "") !== c.expect).map((c) => c.what);
    expect(wrong).toEqual([]);
  });
});

/** The grammar's options as `-x`/`--name` → kind, for comparison with a table. */
function grammarKinds(g: Grammar): Record<string, Kind> {
  const out: Record<string, Kind> = {};
  for (const [c, d] of Object.entries(g.short)) out[`-${c}`] = d.value ?? "none";
  for (const [n, d] of Object.entries(g.long)) out[`--${n}`] = d.value ?? "none";
  return out;
}
function tableKinds(t: Table): Record<string, Kind> {
  const out: Record<string, Kind> = {};
  for (const [c, k] of Object.entries(t.short)) out[`-${c}`] = k;
  for (const [n, k] of Object.entries(t.long)) out[`--${n}`] = k;
  return out;
}

describe("the classifier's grammars are the tools' tables", () => {
  it.each([
    ["sed", SED(), ["--zero-terminated", "-b", "--binary"]],
    ["xargs", XARGS(), []],
    ["uniq", UNIQ(), []],
  ] as const)("%s", (tool, grammar, extra) => {
    const table = TABLES[tool] as Table;
    const g = grammarKinds(grammar);
    // Options the grammar knows beyond the help of this build (other versions, other platforms).
    for (const e of extra) delete g[e];
    expect(g).toEqual(tableKinds(table));
  });
});
