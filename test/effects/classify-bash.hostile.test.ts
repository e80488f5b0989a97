/**
 * Hostile sizes and shapes: nothing throws, nothing overflows the stack, and what is too big or
 * too deep to read is undecidable (never read-only). Timings are the benchmark's business
 * (bench/safety.mjs); these tests only check answers.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { explainBash, simpleCommands } from "../../src/safety.js";
import { rescanShell } from "../../src/effects/bash/rescan.js";

const HOSTILE: Array<[string, string, RegExp]> = [
  ["1,000 nested `$(`", `echo ${"$(".repeat(1000)}ls${")".repeat(1000)}`, /more than 2048 words/],
  ["70 nested `$(`", `echo ${"$(".repeat(70)}ls${")".repeat(70)}`, /nest deeper than 64/],
  ["10,000 nested `(`", `${"(".repeat(10_000)}ls${")".repeat(10_000)}`, /more than 2048 words/],
  ["100 nested `(`", `${"(".repeat(100)}ls${")".repeat(100)}`, /nest deeper than 64/],
  ["a 60 KB `&&` chain", `ls${" && ls".repeat(10_000)}`, /more than 2048 words/],
  ["a 1 MB command", `ls ${"a".repeat(1 << 20)}`, /longer than 64 KiB/],
  ["5,000 nested `${`", `echo ${"${x:-".repeat(5000)}${"}".repeat(5000)}`, /more than 2048 words/],
  ["100 nested `${`", `echo ${"${x:-".repeat(100)}${"}".repeat(100)}`, /nest deeper than 64/],
  ["3,000 nested for loops", `${"for f in a; do ".repeat(3000)}ls${"; done".repeat(3000)}`, /more than 2048 words/],
  ["8,000 nested groups", `${"{ ".repeat(8000)}ls;${" }".repeat(8000)}`, /more than 2048 words/],
];

describe("classifyBash on hostile input", () => {
  it.each(HOSTILE)("%s is undecidable, with the reason", (_, command, reason) => {
    const verdict = explainBash(command);
    expect(verdict.effect).toBe("undecidable");
    expect(verdict.reason).toMatch(reason);
  });

  it("a long but ordinary command is still read", () => {
    const command = `cat ${Array.from({ length: 500 }, (_, i) => `f${i}`).join(" ")} | wc -l`;
    expect(explainBash(command).effect).toBe("read-only");
  });

  it("a long `&&` chain is walked in a loop, not refused", () => {
    // The parser nests each `&&` one level deeper to the left; the walk does not recurse on them.
    expect(explainBash(`ls${" && ls".repeat(600)}`).effect).toBe("read-only");
    expect(explainBash(`ls${" && ls".repeat(600)} && rm x`).effect).toBe("side-effecting");
  });

  it("a tree deeper than the cap is refused before the walk recurses", () => {
    // 250 nested `if`s: within the rescan's limits, past the tree's.
    const command = `${"if true; then ".repeat(250)}ls${"; fi".repeat(250)}`;
    expect(rescanShell(command).ok).toBe(true);
    expect(explainBash(command)).toMatchObject({ effect: "undecidable", reason: expect.stringMatching(/nests deeper than 200 levels/) });
  });

  it("simpleCommands lists nothing where Bash and the parser read the line differently", () => {
    expect(simpleCommands("git log \r# ; rm x")).toBeUndefined();
    expect(simpleCommands("cat <<EOF\n  $(rm x)\nEOF")).toBeUndefined();
    expect(simpleCommands("git log | head -3 # done")).toEqual(["git log", "head -3"]);
  });

  it("simpleCommands gives up on what is too deep, without throwing", () => {
    expect(simpleCommands(`${"( ".repeat(5000)}ls${" )".repeat(5000)}`)).toBeUndefined();
    expect(simpleCommands(`ls ${"a".repeat(70_000)}`)).toBeUndefined();
    expect(simpleCommands(`ls${" && ls".repeat(600)}`)).toHaveLength(601);
  });

  it("never throws, on any string", () => {
    const shellish = fc.string({ unit: fc.constantFrom(..."$(){}[]`'\"\\\n\t #;&|<>-=:%/^,!@*?~0aEOF".split(""), "<<", "<<-", "$((", "\r", "\u00a0") , maxLength: 80 });
    fc.assert(
      fc.property(fc.oneof(shellish, fc.string({ unit: "binary", maxLength: 40 })), (command) => {
        const verdict = explainBash(command);
        expect(["read-only", "side-effecting", "undecidable"]).toContain(verdict.effect);
        expect(typeof verdict.reason).toBe("string");
      }),
      { numRuns: 3000 },
    );
  });
});

describe("rescanShell, Bash's own reading", () => {
  it("finds the substitutions Bash performs, and none inside single quotes or quoted here-documents", () => {
    const scan = rescanShell("echo $(a) '$(b)' \"`c`\" ${d} $((1)) <(e)\ncat <<'X'\n$(f)\nX\ncat <<Y\n  $(g)\nY");
    if (!scan.ok) throw new Error(scan.reason);
    expect(scan.scan.substitutions).toEqual([5, 18, 23, 28, 35, 67]);
  });

  it("ends a `<<-` here-document at a tab-indented delimiter and a `<<` one only at the bare delimiter", () => {
    const strip = rescanShell("cat <<-E\n\tE\nrm x");
    const plain = rescanShell("cat <<E\n\tE\nE");
    if (!strip.ok || !plain.ok) throw new Error("unreadable");
    expect(strip.scan.heredocs).toEqual([{ operator: 4, end: 10, quoted: false }]);
    expect(plain.scan.heredocs).toEqual([{ operator: 4, end: 11, quoted: false }]);
  });

  it("starts a comment only at the start of a word", () => {
    const scan = rescanShell("ls a#b \\# c # d");
    if (!scan.ok) throw new Error(scan.reason);
    expect(scan.scan.comments).toEqual([[12, 15]]);
  });

  it("reads a continuation inside double quotes as Bash does: `\"$\\⏎(…)\"` is a substitution", () => {
    const scan = rescanShell('echo "$\\\n(rm x)"');
    if (!scan.ok) throw new Error(scan.reason);
    expect(scan.scan.substitutions).toEqual([6]);
  });

  it.each([
    ["quotes inside ${…}", "echo \"${x:-'$(rm x)'}\"", /quoting inside/],
    ["quotes inside $((…))", "echo $(( '$(rm x)' ))", /quoting inside/],
    ["a backslash inside backticks", "echo `echo \\`rm x\\``", /backslash inside backticks/],
    ["a here-document inside a substitution", "echo \"$(cat <<E\nx\nE\n)\"", /here-document inside a substitution/],
    ["a here-document that never ends", "cat <<E\nx", /never comes/],
    ["an unterminated quote", "echo 'a", /unterminated/],
  ])("gives up on %s", (_, command, reason) => {
    const scan = rescanShell(command);
    expect(scan.ok).toBe(false);
    if (!scan.ok) expect(scan.reason).toMatch(reason);
  });
});
