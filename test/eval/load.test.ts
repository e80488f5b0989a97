/** Which evals a loaded module holds, whatever shape its loader gave it. */
import { describe, expect, it } from "vitest";
import { defineEval, tool } from "../../src/index.js";
import { evalsOfModule } from "../../src/eval/load.js";

const one = defineEval({ name: "one", mock: { prompt: "p", script: { turns: [{ text: "hi" }] } }, checks: [tool("Read")] });
const two = defineEval({ name: "two", mock: { prompt: "p", script: { turns: [{ text: "hi" }] } }, checks: [tool("Read")] });

describe("evalsOfModule", () => {
  it("takes an ES module's default and named exports, each once", () => {
    expect(evalsOfModule({ default: one, two, again: one })).toEqual([one, two]);
  });

  it("takes a TypeScript file's `export default` that tsx compiled to CommonJS (it arrives as default.default)", () => {
    expect(evalsOfModule({ default: { __esModule: true, default: one, two } })).toEqual([one, two]);
  });

  it("takes arrays of evals, and finds none in other values", () => {
    expect(evalsOfModule({ default: [one, two], x: 1 })).toEqual([one, two]);
    expect(evalsOfModule({ default: { x: 1 }, y: "z" })).toEqual([]);
  });
});
