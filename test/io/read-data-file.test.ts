/** readDataFile: one read → parse → error path for JSON, JSON lines and YAML files. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { isProctorError } from "../../src/index.js";
import { parseDataText, readDataFile } from "../../src/io/read-data-file.js";
import { thrown } from "../helpers/thrown.js";

const dir = mkdtempSync(path.join(tmpdir(), "proctor-data-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe("readDataFile", () => {
  it("reads JSON, JSON lines and YAML, by format or by the name's extension", () => {
    expect(readDataFile(file("a.json", '{"a":[1,2]}'), { what: "the file" })).toEqual({ a: [1, 2] });
    expect(readDataFile(file("a.jsonl", '{"a":1}\n\n {"b":2}\n'), { what: "the file" })).toEqual([{ a: 1 }, { b: 2 }]);
    expect(readDataFile(file("a.yaml", "a:\n  - 1\n  - two\n"), { what: "the file" })).toEqual({ a: [1, "two"] });
    expect(readDataFile(file("a.txt", "[1]"), { what: "the file" })).toEqual([1]);
    expect(readDataFile(file("b.txt", "a: 1"), { what: "the file" })).toEqual({ a: 1 });
    expect(readDataFile(file("c.yaml", '{"a":1}'), { what: "the file", format: "json" })).toEqual({ a: 1 });
  });

  it("names the file, the line and column, the code and what to do", () => {
    const bad = file("bad.json", '{\n  "a": 1,\n  "b": }\n');
    const error = thrown(() => readDataFile(bad, { what: "checks file", code: "REPORT_INVALID", hint: "expected an array of checks" }));
    expect(isProctorError(error) && error.code).toBe("REPORT_INVALID");
    expect(error.message.startsWith(`${bad} is not JSON: `)).toBe(true);
    expect(error.message.endsWith("(line 3, column 8)\n  expected an array of checks")).toBe(true);
    expect(thrown(() => readDataFile(file("bad.jsonl", '{"a":1}\n{"a":\n'), { what: "the log" })).message).toMatch(/bad\.jsonl line 2 is not JSON: /);
    expect(thrown(() => readDataFile(file("bad.yaml", "a: [1\n"), { what: "the policy" })).message).toMatch(/bad\.yaml is not YAML: .*line/s);
  });

  it("says why it could not read, and what to do when the file is missing", () => {
    const missing = path.join(dir, "missing.json");
    const error = thrown(() => readDataFile(missing, { what: "the baseline", code: "BASELINE_INVALID", ifMissing: "create it with proctor baseline --update" }));
    expect(isProctorError(error) && error.code).toBe("BASELINE_INVALID");
    expect(error.message).toBe(`cannot read the baseline ${missing}: ENOENT\n  create it with proctor baseline --update`);
    expect(thrown(() => readDataFile(dir, { what: "the report" })).message).toBe(`cannot read the report ${dir}: EISDIR`);
    expect(thrown(() => readDataFile(file("big.json", "[1]".padEnd(5000)), { what: "the report", limits: { maxLineBytes: Infinity, maxBytes: 4096 } })).message).toBe(
      `cannot read the report ${path.join(dir, "big.json")}: it is larger than 4 KiB`,
    );
  });

  it("refuses JSON nested past the cap, naming what it is", () => {
    const deep = file("deep.json", `${"[".repeat(600)}${"]".repeat(600)}`);
    expect(thrown(() => readDataFile(deep, { what: "the report" })).message).toMatch(/^the report .*deep\.json nests deeper than 512 levels/);
  });
});

describe("parseDataText", () => {
  it("parses any JSON value as JSON.parse does, and places every syntax error inside the text", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), fc.nat(), (value, cut) => {
        const text = JSON.stringify(value, null, 1);
        expect(parseDataText(text, "x.json")).toEqual(JSON.parse(text));
        const broken = text.slice(0, cut % text.length);
        let expected: unknown;
        try {
          expected = JSON.parse(broken);
        } catch {
          const m = /\(line (\d+), column (\d+)\)/.exec(thrown(() => parseDataText(broken, "x.json")).message);
          expect(m).not.toBeNull();
          expect(Number(m![1])).toBeLessThanOrEqual(broken.split("\n").length);
          return;
        }
        expect(parseDataText(broken, "x.json")).toEqual(expected);
      }),
    );
  });
});
