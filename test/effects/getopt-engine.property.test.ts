/**
 * The option engine (src/effects/bash/tools/getopt.ts) against glibc's getopt_long, through
 * util-linux `getopt(1)`: for real tools' option tables (option-tables.json), random argument
 * vectors — clusters with attached values, long options whole or abbreviated, `--opt=value`,
 * values in the next word, operands before and after options, `-`, `--` — must be read the same:
 * the same options with the same values in the same order, the same operands, and an error
 * (unknown, ambiguous, missing value) exactly where getopt reports one. With and without
 * POSIXLY_CORRECT, and for a non-permuting tool (`+` in the getopt string).
 *
 * getopt(1) gives every long option its own identity, so the grammar here does too (no aliases).
 * PROCTOR_FUZZ_RUNS scales the number of vectors; PROCTOR_FC_SEED picks the seed.
 */
import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import tables from "../../src/effects/bash/tools/option-tables.json" with { type: "json" };
import { parseArgs, type Grammar, type OptionDef } from "../../src/effects/bash/tools/getopt.js";

type Kind = "none" | "required" | "optional";
interface Table {
  short: Record<string, Kind>;
  long: Record<string, Kind>;
}
const TABLES = tables as unknown as Record<string, Table>;
const RUNS = Number(process.env.PROCTOR_FUZZ_RUNS ?? 100);
const SEED = Number(process.env.PROCTOR_FC_SEED ?? 20261205);
const HAS_GETOPT = spawnSync("getopt", ["-T"]).status === 4; // util-linux's enhanced getopt answers 4

function grammarOf(tool: string, permute: boolean): Grammar {
  const t = TABLES[tool] as Table;
  const short: Record<string, OptionDef> = {};
  const long: Record<string, OptionDef> = {};
  for (const [c, value] of Object.entries(t.short)) short[c] = { id: `-${c}`, value };
  for (const [n, value] of Object.entries(t.long)) if (!n.startsWith("-")) long[n] = { id: `--${n}`, value };
  return { command: tool, short, long, permute };
}

function optstring(g: Grammar): string {
  const suffix = { none: "", required: ":", optional: "::" } as const;
  const s = Object.entries(g.short).map(([c, d]) => c + suffix[d.value ?? "none"]).join("");
  const l = Object.entries(g.long).map(([n, d]) => n + suffix[d.value ?? "none"]).join(",");
  return `${g.permute === false ? "+" : ""}${s}\u0000${l}`;
}

/** getopt(1)'s output words (it single-quotes each, `'\''` for a quote). */
function shellWords(text: string): string[] {
  const words: string[] = [];
  const re = /'((?:[^']|'\\'')*)'|(\S+)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) words.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : (m[2] ?? ""));
  return words;
}

const q = (w: string) => `'${w.replace(/'/g, "'\\''")}'`;

/** Run getopt(1) over every vector in one bash; per vector its words, or "error". */
function oracle(g: Grammar, vectors: readonly string[][], posix: boolean): (string[] | "error")[] {
  const [s, l] = optstring(g).split("\u0000");
  const script = vectors.map((v, i) => `if o=$(getopt -q -o ${q(s ?? "")} -l ${q(l ?? "")} -- ${v.map(q).join(" ")}); then printf '@@%d %s\\n' ${i} "$o"; else echo '@@${i} ERROR'; fi`).join("\n");
  const env: NodeJS.ProcessEnv = { PATH: "/usr/bin:/bin", LC_ALL: "C", ...(posix ? { POSIXLY_CORRECT: "1" } : {}) };
  // On stdin: one argument may not exceed 128 KiB.
  const r = spawnSync("bash", ["--norc", "-s"], { input: script, env, encoding: "utf8", timeout: 120_000 });
  if (r.status !== 0) throw new Error(`the getopt(1) batch failed: ${r.error?.message ?? r.stderr}`);
  const out: (string[] | "error")[] = [];
  for (const line of (r.stdout ?? "").split("\n")) {
    const m = /^@@(\d+) (.*)$/.exec(line);
    if (m) out[Number(m[1])] = m[2] === "ERROR" ? "error" : shellWords(m[2] ?? "");
  }
  return out;
}

/** The engine's reading in getopt(1)'s normal form: options with values, `--`, operands. */
function engine(g: Grammar, v: readonly string[], posix: boolean): string[] | "error" {
  const p = parseArgs(g, v.map((value) => ({ value, text: value })), { posixlyCorrect: posix });
  if (p.verdict) return "error";
  const words: string[] = [];
  for (const o of p.options) {
    words.push(o.id);
    const kind = (o.id.startsWith("--") ? g.long[o.id.slice(2)] : g.short[o.id.slice(1)])?.value ?? "none";
    if (kind !== "none") words.push(o.value?.value ?? "");
  }
  return [...words, "--", ...p.operands.map((a) => a.value ?? "")];
}

/** Argument vectors built from a table's own options. */
function vectors(g: Grammar): fc.Arbitrary<string[]> {
  const shorts = Object.keys(g.short);
  const longs = Object.keys(g.long);
  // Mostly words getopt accepts, so that one error does not hide the rest of the vector.
  const word = fc.oneof({ arbitrary: fc.constantFrom("a", "b", "in", "-", "--", "x=y", ""), weight: 6 }, { arbitrary: fc.constantFrom("-z9", "--nope", "-?"), weight: 1 });
  const cluster = fc.tuple(fc.array(fc.constantFrom(...shorts), { minLength: 1, maxLength: 3 }), fc.option(fc.constantFrom("1", "x", ".bak", "=v"), { nil: undefined, freq: 2 })).map(([cs, tail]) => `-${cs.join("")}${tail ?? ""}`);
  const longOpt = fc
    .tuple(fc.constantFrom(...longs), fc.integer({ min: 1, max: 12 }), fc.option(fc.constantFrom("=1", "=x", "="), { nil: undefined }))
    .map(([name, cut, eq]) => `--${name.slice(0, Math.max(1, Math.min(name.length, cut)))}${eq ?? ""}`);
  return fc.array(fc.oneof(word, cluster, longOpt), { maxLength: 6 });
}

describe.runIf(HAS_GETOPT)("the option engine reads argument vectors as glibc's getopt_long does", () => {
  it.each([
    ["sed", true],
    ["uniq", true],
    ["sort", true],
    ["diff", true],
    ["grep", true],
    ["xargs", false],
  ] as const)("%s (permutes: %s), with and without POSIXLY_CORRECT", (tool, permute) => {
    const g = grammarOf(tool, permute);
    const sample = fc.sample(vectors(g), { numRuns: RUNS, seed: SEED + tool.length });
    for (const posix of [false, true]) {
      const expected = oracle(g, sample, posix);
      const differ = sample.flatMap((v, i) => {
        const mine = engine(g, v, posix);
        return JSON.stringify(mine) === JSON.stringify(expected[i]) ? [] : [{ argv: v, engine: mine, getopt: expected[i] }];
      });
      expect(differ.slice(0, 5), `${differ.length} of ${sample.length} vectors differ (POSIXLY_CORRECT ${posix})`).toEqual([]);
    }
  });
});
