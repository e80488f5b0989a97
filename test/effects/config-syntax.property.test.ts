/**
 * proctor's git configuration parser against git's own: for generated files full of the syntax
 * that trips parsers (quotes, escapes, continuations, comments, old-style and quoted subsections,
 * case), either git refuses the file and so does proctor, or both read exactly the same keys and
 * values. proctor may refuse more (it then answers undecidable), never read differently.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { entryKey, parseConfig } from "../../src/effects/bash/context/config-syntax.js";

const dir = mkdtempSync(join(tmpdir(), "proctor-config-syntax-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, GIT_CONFIG_NOSYSTEM: "1" };

/** git's reading of `text`: `key\nvalue` pairs (a valueless key has no newline), or undefined when git refuses it. */
function gitReads(text: string): string[] | undefined {
  const file = join(dir, "config");
  writeFileSync(file, text);
  const r = spawnSync("git", ["config", "-z", "--no-includes", "--file", file, "--list"], { env, encoding: "utf8" });
  if (r.status !== 0) return undefined;
  return r.stdout.split("\0").filter((x) => x !== "");
}

const piece = fc.constantFrom(
  "[core]", "[Core]", "[diff \"Ex\"]", "[diff.Ex]", "[filter \"a\\\"b\"]", "[man \"x\\\\y\"]", "[ core ]", "[core", "[diff \"x\" ]", "[a.b.c]",
  "\tfsmonitor = touch m", "FsMonitor=\"a b\"", "textconv = \"x;y\" ; c", "textconv = x # c", "external", "external # c",
  "cmd = a\\\n b", "cmd = \"a\\tb\\nc\\\\d\\\"e\"", "cmd = a\\qb", "cmd = \"open", "cmd = a  b   ", "cmd=", "1bad = x", "bad_key = x",
  "# comment", "; comment", "", "   ", "\tclean = \"\" x \"\"", "driver = \"a\" \"b\"", "path = ~/x",
);

describe("the configuration parser agrees with git", () => {
  it("reads what git reads, or refuses", () => {
    const seen = { compared: 0, bothRefused: 0, stricter: 0 };
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 8 }), fc.constantFrom("\n", "\r\n"), (lines, eol) => {
        const text = lines.join(eol) + eol;
        const theirs = gitReads(text);
        const ours = parseConfig(text, "config");
        if (theirs === undefined) {
          expect(ours, JSON.stringify(text)).toHaveProperty("error");
          seen.bothRefused++;
          return;
        }
        if ("error" in ours) {
          seen.stricter++; // stricter than git: answered undecidable, which is safe
          return;
        }
        seen.compared++;
        const mine = ours.entries.map((e) => (e.value === undefined ? entryKey(e) : `${entryKey(e)}\n${e.value}`));
        expect(mine, JSON.stringify(text)).toEqual(theirs);
      }),
      { numRuns: 150 },
    );
    // Not vacuous: most files are read by both and compared; proctor is never much stricter.
    expect(seen.compared, JSON.stringify(seen)).toBeGreaterThan(20);
    expect(seen.stricter, JSON.stringify(seen)).toBeLessThan(seen.compared);
  });
});
