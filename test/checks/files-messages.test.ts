/**
 * File checks' failures name the file: under a glob ("**") "it was created" would not say which
 * one, so every failing message carries the path of each change it is about.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deleted, didNotWrite } from "../../src/index.js";
import type { FileChange } from "../../src/trace/types.js";
import { makeTrace } from "../helpers/trace.js";

const snapshot = (changes: FileChange[]) => makeTrace({ files: { source: "snapshot", changes } });

describe("file check messages name the file", () => {
  it('didNotWrite("**") names the file that was created', () => {
    const r = didNotWrite("**").eval(snapshot([{ path: "notes/today.md", change: "created" }]));
    expect(r.pass).toBe(false);
    expect(r.message).toBe("expected ** to be left alone; notes/today.md was created");
  });

  it("didNotWrite under a glob names every matching change, and only those", () => {
    const r = didNotWrite("src/**").eval(
      snapshot([
        { path: "src/a.ts", change: "modified" },
        { path: "README.md", change: "modified" },
        { path: "src/old.ts", change: "deleted" },
      ]),
    );
    expect(r.message).toBe("expected src/** to be left alone; src/a.ts was modified, src/old.ts was deleted");
  });

  it("deleted names the file that was changed some other way", () => {
    expect(deleted("*.txt").eval(snapshot([{ path: "old.txt", change: "modified" }])).message).toBe("expected *.txt to be deleted; old.txt was modified, not deleted");
  });

  it("property: a failing didNotWrite names every matched path (up to ten) and no unmatched one", () => {
    const name = fc.stringMatching(/^[a-z]{1,6}$/);
    fc.assert(
      fc.property(fc.uniqueArray(fc.record({ dir: fc.constantFrom("in", "out"), name, change: fc.constantFrom("created" as const, "modified" as const, "deleted" as const) }), { minLength: 1, maxLength: 14, selector: (c) => `${c.dir}/${c.name}` }), (cs) => {
        const changes = cs.map((c) => ({ path: `${c.dir}/${c.name}.md`, change: c.change }));
        const r = didNotWrite("in/**").eval(snapshot(changes));
        const inside = changes.filter((c) => c.path.startsWith("in/"));
        expect(r.pass).toBe(inside.length === 0);
        if (inside.length === 0) return;
        for (const c of inside.slice(0, 10)) expect(r.message).toContain(`${c.path} was ${c.change}`);
        if (inside.length > 10) expect(r.message).toContain(`… ${inside.length - 10} more`);
        for (const c of changes.filter((c) => !c.path.startsWith("in/"))) expect(r.message).not.toContain(c.path);
      }),
    );
  });
});
