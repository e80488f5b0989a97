import { describe, expect as vexpect, it } from "vitest";
import { matchArgs } from "../../src/match/arg-match.js";
import type { ArgMatcher } from "../../src/index.js";

const input = {
  command: "git push origin main",
  edits: [{ old_string: "a", new_string: "b" }],
  options: { force: true, remote: { name: "origin" } },
  count: 3,
  "dotted.key": "literal",
};

describe("ArgMatcher", () => {
  it.each<[string, ArgMatcher, boolean]>([
    ["literal equal", { command: "git push origin main" }, true],
    ["literal is exact, not substring", { command: "git push" }, false],
    ["RegExp on a string", { command: /push origin (main|master)/ }, true],
    ["RegExp on a number", { count: /^3$/ }, true],
    ["RegExp on an object tests its JSON text", { options: /"force":true/ }, true],
    ["dot path into objects", { "options.remote.name": "origin" }, true],
    ["dot path into arrays", { "edits.0.new_string": "b" }, true],
    ["dot path that does not exist", { "options.remote.url": "x" }, false],
    ["a key that literally contains a dot", { "dotted.key": "literal" }, true],
    ["nested object is a deep-partial match", { options: { remote: { name: "origin" } } }, true],
    ["nested object mismatch", { options: { force: false } }, false],
    ["nested RegExp", { options: { remote: { name: /^orig/ } } }, true],
    ["array literal compares element-wise", { edits: [{ old_string: "a" }] }, true],
    ["array length must match", { edits: [] }, false],
    ["a string literal against an object compares JSON text", { options: JSON.stringify(input.options) }, true],
    ["every key must hold", { command: /push/, count: 4 }, false],
    ["a missing key never matches a RegExp", { missing: /.*/ }, false],
    ["null literal", { absent: null }, false],
  ])("%s", (_name, matcher, expected) => {
    vexpect(matchArgs(input, matcher)).toBe(expected);
  });

  it("a global RegExp does not carry state between calls", () => {
    const re = /push/g;
    vexpect(matchArgs(input, { command: re })).toBe(true);
    vexpect(matchArgs(input, { command: re })).toBe(true);
  });
});
