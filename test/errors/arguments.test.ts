/** The boundary argument checks: what they refuse, and that the refusal names the call, the argument and what to pass. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { optional, requireArray, requireNumber, requireObject, requireString } from "../../src/errors/arguments.js";
import { InvalidInputError, isProctorError } from "../../src/errors/proctor-error.js";

/** The JavaScript type a value has, as the oracle for each check. */
const kind = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

const CHECKS = [
  ["requireString", requireString, (v: unknown) => kind(v) === "string"],
  ["requireNumber", requireNumber, (v: unknown) => kind(v) === "number" && !Number.isNaN(v)],
  ["requireArray", requireArray, (v: unknown) => kind(v) === "array"],
  ["requireObject", requireObject, (v: unknown) => kind(v) === "object"],
] as const;

describe("argument checks", () => {
  for (const [name, check, accepts] of CHECKS) {
    it(`${name} accepts exactly its type and refuses the rest with INVALID_INPUT`, () => {
      fc.assert(
        fc.property(fc.anything(), (value) => {
          let error: unknown;
          try {
            check("someFn", "arg", value, "the right thing");
          } catch (e) {
            error = e;
          }
          if (accepts(value)) return error === undefined;
          return isProctorError(error) && error instanceof InvalidInputError && error.code === "INVALID_INPUT";
        }),
      );
    });
  }

  it("names the function, the argument, what to pass and what was given", () => {
    let error: unknown;
    try {
      requireString("classifyToolEffect", "tool", undefined, 'a tool name such as "Bash"');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidInputError);
    const e = error as InvalidInputError;
    expect(e.shortMessage).toBe('classifyToolEffect: tool must be a tool name such as "Bash"; got undefined');
    expect(e.input).toBe("classifyToolEffect.tool");
    expect(e.hint).toBe('pass a tool name such as "Bash" as tool');
  });

  it("optional lets undefined through and checks anything else", () => {
    expect(() => optional(requireArray, "f", "xs", undefined)).not.toThrow();
    expect(() => optional(requireArray, "f", "xs", [])).not.toThrow();
    expect(() => optional(requireArray, "f", "xs", null)).toThrow(InvalidInputError);
    expect(() => optional(requireArray, "f", "xs", 42)).toThrow(/f: xs must be an array; got a number \(42\)/);
  });
});
