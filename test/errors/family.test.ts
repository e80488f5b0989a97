/** The error family itself: what a message shows, what `restate` keeps, and the brand across copies. */
import { describe, expect, it } from "vitest";
import { ConfigError, InvalidInputError, isProctorError, ProctorError, ReportError, restate, RunError, TranscriptError } from "../../src/errors/proctor-error.js";
import { InvalidCheckError } from "../../src/checks/validate.js";
import { HarnessError } from "../../harness/run/failure.js";

describe("ProctorError", () => {
  it("shows the reason, the detail, the input (unless the reason names it) and the hint, one per line", () => {
    const e = new InvalidInputError("INVALID_INPUT", "k must be a positive integer; got 0", { detail: "  k counts draws", input: "k", hint: "pass k ≥ 1" });
    expect(e.message).toBe("k must be a positive integer; got 0\n  k counts draws\n  hint: pass k ≥ 1");
    const f = new InvalidInputError("INVALID_INPUT", "must be a positive integer; got 0", { input: "passAtK.k" });
    expect(f.message).toBe("must be a positive integer; got 0\n  input: passAtK.k");
    expect(f.shortMessage).toBe("must be a positive integer; got 0");
    expect(f.input).toBe("passAtK.k");
    expect(f.hint).toBeUndefined();
    expect(Object.hasOwn(f, "hint")).toBe(false);
  });

  it("names each class, and every class is a ProctorError", () => {
    const all = [
      new InvalidInputError("INVALID_INPUT", "x"),
      new TranscriptError("INVALID_TRACE", "x"),
      new ConfigError("NO_API_KEY", "x"),
      new ReportError("BASELINE_INVALID", "x"),
      new RunError("BINARY_MISSING", "x"),
      new InvalidCheckError("tool", "name", "must be a non-empty string", ""),
      new InvalidCheckError("INVALID_CHECK", "checks[0].kind: unknown", { input: "checks[0].kind", kind: "nope" }),
      new HarnessError({ reason: "timed-out", command: "claude -p", stderrTail: "", exitCode: null, signal: "SIGKILL", timedOut: true, durationMs: 5 }, "timed out"),
    ];
    expect(all.map((e) => e.name)).toEqual(["InvalidInputError", "TranscriptError", "ConfigError", "ReportError", "RunError", "InvalidCheckError", "InvalidCheckError", "HarnessError"]);
    for (const e of all) {
      expect(e).toBeInstanceOf(ProctorError);
      expect(isProctorError(e)).toBe(true);
    }
    expect(all[5]).toMatchObject({ kind: "tool", field: "name", input: "name", code: "INVALID_CHECK" });
    expect(all[6]).toMatchObject({ kind: "nope", field: "checks[0].kind", input: "checks[0].kind" });
    expect(all[7]).toBeInstanceOf(RunError);
    expect(all[7]?.code).toBe("TIMEOUT");
  });

  it("keeps the cause, and none when there is none", () => {
    const cause = new SyntaxError("Unexpected token");
    expect(new ReportError("REPORT_INVALID", "x", { cause }).cause).toBe(cause);
    expect("cause" in new ReportError("REPORT_INVALID", "x")).toBe(false);
  });
});

describe("restate", () => {
  it("prefixes the reason and keeps the class, code, fields and the original as cause", () => {
    const original = new InvalidCheckError("tool", "name", "must be a non-empty string", "");
    const e = restate(original, "evals/a.eval.ts: ");
    expect(e).toBeInstanceOf(InvalidCheckError);
    expect(isProctorError(e)).toBe(true);
    expect(e.name).toBe("InvalidCheckError");
    expect(e.code).toBe("INVALID_CHECK");
    expect(e.kind).toBe("tool");
    expect(e.shortMessage).toBe(`evals/a.eval.ts: ${original.shortMessage}`);
    expect(e.message).toBe(`evals/a.eval.ts: ${original.message}`);
    expect(e.cause).toBe(original);
    expect(original.shortMessage).not.toMatch(/^evals/);
  });
});

describe("across two copies of the package", () => {
  it("isProctorError recognises an error from the built copy, which instanceof cannot", async () => {
    const built = (await import(new URL("../../dist/src/errors/proctor-error.js", import.meta.url).href)) as typeof import("../../src/errors/proctor-error.js");
    const foreign = new built.ConfigError("POLICY_INVALID", "policy.yaml: rules must be an array", { input: "policy.yaml" });
    expect(foreign).not.toBeInstanceOf(ProctorError);
    expect(isProctorError(foreign)).toBe(true);
    expect(built.isProctorError(new InvalidInputError("INVALID_INPUT", "x"))).toBe(true);
    expect(isProctorError(new Error("plain"))).toBe(false);
    expect(isProctorError({ code: "INVALID_INPUT", name: "InvalidInputError" })).toBe(false);
  });
});
