/**
 * In a sandboxed run a failed Bash call whose output is a read-only / not-permitted / network
 * refusal becomes `denied` by `sandbox`; nothing else changes. Checked over random calls against an
 * oracle that lists the refusal phrases itself, plus the outputs measured from real sandboxed runs.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { attributeSandboxDenials } from "../../harness/claude/hermetic.js";
import { makeTrace } from "../helpers/trace.js";

const RUNS = Number(process.env.PROCTOR_PROPERTY_RUNS ?? 200);
const REFUSALS = ["Read-only file system", "EROFS", "Operation not permitted", "EPERM", "Connection blocked by network allowlist"];
const OTHER = ["No such file or directory", "command not found", "Exit code 1", "permission denied (publickey)", "EROFSX", "erofs"];

describe("sandbox refusals in a sandboxed run", () => {
  it("a failed Bash call with a refusal in its output is denied by sandbox; every other call is left as it was", () => {
    const call = fc.record({
      name: fc.constantFrom("Bash", "Write", "mcp__x__y"),
      status: fc.constantFrom("success" as const, "failure" as const, "denied" as const),
      result: fc.tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...REFUSALS, ...OTHER), fc.string({ maxLength: 8 })).map((parts) => parts.join(" ")),
    });
    fc.assert(
      fc.property(fc.array(call, { maxLength: 6 }), (calls) => {
        const trace = makeTrace({ calls });
        const out = attributeSandboxDenials(trace);
        out.toolCalls.forEach((c, i) => {
          const before = trace.toolCalls[i]!;
          const refused = before.name === "Bash" && before.status === "failure" && REFUSALS.some((r) => new RegExp(`\\b${r}\\b`).test(before.result ?? ""));
          expect(c).toEqual(refused ? { ...before, status: "denied", deniedBy: "sandbox" } : before);
        });
      }),
      { numRuns: RUNS },
    );
  });

  it.each([
    ["Exit code 1\n/bin/bash: line 1: /tmp/proctor-run-x/home/h.txt: Read-only file system"],
    ["Exit code 1\nTraceback (most recent call last):\nOSError: [Errno 30] Read-only file system: '/tmp/pyw'"],
    ["Exit code 1\nnode:fs:2380\nError: EROFS: read-only file system, open '/tmp/nodew'"],
  ])("recognises a refusal measured in a real sandboxed run: %j", (result) => {
    const out = attributeSandboxDenials(makeTrace({ calls: [{ name: "Bash", status: "failure", result }] }));
    expect(out.toolCalls[0]).toMatchObject({ status: "denied", deniedBy: "sandbox" });
  });
});
