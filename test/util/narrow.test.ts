import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { asArray, asRecord, asString, at, isRecord } from "../../src/util/narrow.js";
import { InternalError } from "../../src/errors/proctor-error.js";

describe("at", () => {
  it("reads an in-range index exactly as indexing does, and throws an INTERNAL error outside the list", () => {
    fc.assert(
      fc.property(fc.array(fc.anything()), fc.integer({ min: -5, max: 20 }), (list, index) => {
        const inRange = index >= 0 && index < list.length;
        if (inRange) expect(at(list, index)).toBe(list[index]);
        else expect(() => at(list, index)).toThrow(InternalError);
      }),
    );
  });

  it("says out of range is a bug in proctor: code INTERNAL, with a hint to report it", () => {
    expect(() => at([1], 1)).toThrow(expect.objectContaining({ code: "INTERNAL", shortMessage: "index 1 outside a list of 1", hint: expect.stringMatching(/bug in proctor/) }));
  });

  it("returns an element that is itself undefined (a hole is not out of range)", () => {
    expect(at([undefined, 1], 0)).toBeUndefined();
  });
});

describe("isRecord and its readers", () => {
  it("accepts exactly the non-null, non-array objects", () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const oracle = Object.prototype.toString.call(value) !== "[object Array]" && value !== null && typeof value === "object";
        expect(isRecord(value)).toBe(oracle);
        expect(asRecord(value)).toEqual(oracle ? value : {});
        expect(asString(value)).toBe(typeof value === "string" ? value : undefined);
        expect(asArray(value)).toEqual(Array.isArray(value) ? value : []);
      }),
    );
  });
});
