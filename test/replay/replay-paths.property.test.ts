/**
 * The replay's path refusal against an independent oracle: a segment-stack normaliser. A recorded
 * path is refused exactly when, resolved against the replay's work dir, it lands outside the work
 * dir and every allowed root.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pathsOutside } from "../../mock-model/replay/script-from-transcript.js";

/** POSIX resolution by hand: start at `base` unless absolute, apply `.` and `..` segment by segment. */
function normalise(base: string, p: string): string[] {
  const stack = p.startsWith("/") ? [] : base.split("/").filter(Boolean);
  for (const seg of p.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") stack.pop();
    else stack.push(seg);
  }
  return stack;
}
const under = (root: string[], p: string[]) => root.length <= p.length && root.every((s, i) => p[i] === s);

const segment = fc.constantFrom("..", ".", "w", "x", "y", "w x", "");
const pathArb = fc.tuple(fc.boolean(), fc.array(segment, { maxLength: 6 })).map(([abs, segs]) => `${abs ? "/" : ""}${segs.join("/")}`);

describe("pathsOutside", () => {
  it("refuses exactly the paths that resolve outside the work dir and the allowed roots", () => {
    fc.assert(
      fc.property(pathArb, fc.array(pathArb.filter((p) => p.startsWith("/")), { maxLength: 2 }), fc.constantFrom("file_path", "path", "notebook_path", "cwd", "command"), (p, allowed, field) => {
        const work = "/w/x";
        const got = pathsOutside({ [field]: p }, work, allowed);
        const checked = field !== "command" && p !== "" && p !== "~" && !p.startsWith("~/");
        const full = normalise(work, p);
        const inside = under(normalise("/", work), full) || allowed.some((a) => under(normalise("/", a), full));
        expect(got).toEqual(checked && !inside ? [{ field, path: p }] : []);
      }),
      { numRuns: 500 },
    );
  });

  it("refuses an absolute glob pattern exactly when its fixed leading directories resolve outside", () => {
    const globSegment = fc.constantFrom("..", ".", "w", "x", "y", "*", "**", "*.ts", "a?", "[ab]");
    fc.assert(
      fc.property(fc.tuple(fc.boolean(), fc.array(globSegment, { maxLength: 6 })), fc.array(pathArb.filter((p) => p.startsWith("/")), { maxLength: 2 }), ([abs, segs], allowed) => {
        const pattern = `${abs ? "/" : ""}${segs.join("/")}`;
        const work = "/w/x";
        const got = pathsOutside({ pattern }, work, allowed);
        const firstGlob = segs.findIndex((seg) => /[*?[]/.test(seg));
        const fixed = normalise("/", `/${(firstGlob === -1 ? segs : segs.slice(0, firstGlob)).join("/")}`);
        const inside = under(normalise("/", work), fixed) || allowed.some((a) => under(normalise("/", a), fixed));
        expect(got).toEqual(abs && !inside ? [{ field: "pattern", path: pattern }] : []);
      }),
      { numRuns: 500 },
    );
    expect(pathsOutside({ pattern: "/etc/**/*.conf" }, "/w/x", [])).toEqual([{ field: "pattern", path: "/etc/**/*.conf" }]);
    expect(pathsOutside({ pattern: "/w/x/src/**/*.ts" }, "/w/x", [])).toEqual([]);
    expect(pathsOutside({ pattern: "src/**/*.ts" }, "/w/x", [])).toEqual([]);
  });

  it("passes ~ paths (the trial's own HOME) and refuses a sibling that shares the prefix", () => {
    expect(pathsOutside({ file_path: "~/.claude/x" }, "/w/x", [])).toEqual([]);
    expect(pathsOutside({ file_path: "/w/xy/a" }, "/w/x", [])).toEqual([{ field: "file_path", path: "/w/xy/a" }]);
    expect(pathsOutside({ path: "../x/a" }, "/w/x", [])).toEqual([]);
  });
});
