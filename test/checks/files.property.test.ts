/**
 * wrote / didNotWrite / deleted over random snapshots, against an oracle that just looks the path
 * up: on a complete run with a snapshot exactly one of wrote and didNotWrite holds, and deleted
 * holds exactly when the change there is a deletion (a deleted file used to fail both).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deleted, didNotWrite, wrote } from "../../src/index.js";
import type { FileChange } from "../../src/trace/types.js";
import { makeTrace } from "../helpers/trace.js";

const PATHS = ["a.txt", "b.txt", "src/c.ts", "old.txt"];
const change = fc.record({ path: fc.constantFrom(...PATHS), change: fc.constantFrom("created" as const, "modified" as const, "deleted" as const) });
/** A snapshot names each path at most once. */
const changes = fc.uniqueArray(change, { selector: (c) => c.path, maxLength: 4 });

describe("wrote, didNotWrite and deleted on a snapshot", () => {
  it("exactly one of wrote and didNotWrite holds; deleted holds for a deletion alone", () => {
    fc.assert(
      fc.property(changes, fc.constantFrom(...PATHS), (cs: FileChange[], path) => {
        const trace = makeTrace({ files: { source: "snapshot", changes: cs } });
        const there = cs.find((c) => c.path === path);
        expect(wrote(path).eval(trace).pass).toBe(there !== undefined);
        expect(didNotWrite(path).eval(trace).pass).toBe(there === undefined);
        expect(deleted(path).eval(trace).pass).toBe(there?.change === "deleted");
      }),
      { numRuns: 300 },
    );
  });
});
