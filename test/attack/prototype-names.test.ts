/**
 * Names of Object.prototype (`__proto__`, `constructor`, `toString`) arriving from a transcript,
 * a policy file or a command line must be names like any other: a trajectory reference does not
 * "list" `__proto__`, a policy may name a tool `__proto__`, `dialect: "constructor"` is an
 * invalid dialect, and `proctor constructor` an unknown command — never a pass, a dropped rule or
 * a stack trace.
 */
import { describe, expect, it } from "vitest";
import { trajectory } from "../../src/index.js";
import { parsePolicy } from "../../src/policy/policy-file.js";
import { parseRuleOfTwo } from "../../cli/commands/gate.js";
import { filesFromCalls } from "../../src/trace/files-from-calls.js";
import { proctor } from "../helpers/cli.js";
import { makeTrace } from "../helpers/trace.js";

describe("Object.prototype names from outside proctor", () => {
  it("trajectory with args subset: an input key the reference does not list fails, __proto__ included", () => {
    const check = trajectory([{ name: "Bash", args: { command: "ls" } }], { args: "subset" });
    const withInput = (input: Record<string, unknown>) => makeTrace({ calls: [{ name: "Bash", input }] });
    expect(check.eval(withInput({ command: "ls" })).pass).toBe(true);
    expect(check.eval(withInput({ command: "ls", extra: {} })).pass).toBe(false);
    for (const key of ["__proto__", "constructor", "toString"]) {
      const input = JSON.parse(`{"command":"ls",${JSON.stringify(key)}:{}}`) as Record<string, unknown>;
      expect(Object.keys(input)).toContain(key);
      expect(check.eval(withInput(input)).pass, key).toBe(false);
    }
  });

  it("a policy's tools may name a tool __proto__, and its facts apply", () => {
    const file = parsePolicy(JSON.parse('{"rules":[],"tools":{"__proto__":{"sensitive":true}}}'));
    expect(file.factsFor("__proto__", {}).sensitive).toBe(true);
    expect(file.factsFor("Other", {}).sensitive).toBe(false);
  });

  it("a policy's dialect named after an Object.prototype property is refused as a dialect, not a crash", () => {
    for (const dialect of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      expect(() => parsePolicy({ rules: [], dialect }), dialect).toThrow(/dialect: must be one of claude-code, codex/);
    }
  });

  it("proctor constructor / __proto__ / help toString are unknown commands", async () => {
    for (const args of [["constructor"], ["__proto__"], ["help", "toString"]]) {
      const r = await proctor(args);
      expect(r.stderr, args.join(" ")).not.toMatch(/internal error|TypeError/);
      if (args[0] === "help") expect(r.exitCode).toBe(0);
      else {
        expect(r.exitCode).toBe(2);
        expect(r.stderr).toMatch(/unknown command/);
      }
    }
  });

  it("a call named toString is not a file tool, whatever its input holds", () => {
    const trace = makeTrace({ calls: [{ name: "toString", input: { [String(Object.prototype.toString)]: "secret.txt", file_path: "secret.txt" } }] });
    expect(filesFromCalls(trace.toolCalls, "/work").changes).toEqual([]);
  });

  it("--rule-of-two legs named after Object.prototype properties are unknown legs", () => {
    for (const leg of ["constructor", "__proto__", "toString"]) expect(() => parseRuleOfTwo(leg), leg).toThrow(/unknown leg/);
  });
});
