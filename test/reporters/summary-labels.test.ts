/** The run summary's check labels: cut to the table's width, but never so two checks read the same. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { shownLabels } from "../../reporters/summary/run-summary.js";

describe("shownLabels", () => {
  it("cuts long labels, and shows whole the ones that would read the same once cut", () => {
    const a = 'toolWith(Bash, {"command":"node scripts/check.mjs --fast"})';
    const b = 'toolWith(Bash, {"command":"node scripts/check.mjs --slow"})';
    const c = 'toolWith(Read, {"file_path":"a-very-long-path/that/goes/on/and/on.ts"})';
    const shown = shownLabels([a, b, c, "tool(Read)"], 30);
    expect(shown).toEqual([a, b, `${c.slice(0, 29)}…`, "tool(Read)"]);
  });

  it("distinct labels always stay distinct (property)", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ maxLength: 40 }), { maxLength: 8 }), fc.integer({ min: 2, max: 30 }), (labels, width) => {
        const shown = shownLabels(labels, width);
        expect(new Set(shown).size).toBe(labels.length);
      }),
      { numRuns: 500 },
    );
  });
});
