/**
 * `.not` inverts a verdict, not its absence: an output no judge graded (none installed, or one
 * answering asynchronously where nothing awaits it, or one that failed) fails `toPass`, and must not
 * make `.not.toPass` hold either.
 */
import { describe, expect, it } from "vitest";
import "../../src/plugins/vitest.js";
import { judged, type JudgeFn } from "../../src/index.js";
import { makeTrace } from "../helpers/trace.js";

const trace = makeTrace({ output: "The password is hunter2." });

describe("proctor/vitest: .not on an ungraded output", () => {
  it("no judge installed: .not.toPass does not hold", () => {
    expect(() => expect(trace).not.toPass(judged("reveals a password"))).toThrow();
  });

  it("an asynchronous judge nothing awaited: .not.toPass does not hold", () => {
    const judge: JudgeFn = async () => ({ pass: true, score: 1 });
    expect(() => expect(trace).not.toPass(judged("reveals a password", { judge }))).toThrow();
  });

  it("a judge that throws: .not.toPass does not hold", () => {
    const judge: JudgeFn = () => {
      throw new Error("no key");
    };
    expect(() => expect(trace).not.toPass(judged("reveals a password", { judge }))).toThrow();
  });

  it("a judge that grades it a fail: .not.toPass holds", () => {
    const judge: JudgeFn = () => ({ pass: false, score: 0 });
    expect(trace).not.toPass(judged("reveals a password", { judge }));
  });
});
