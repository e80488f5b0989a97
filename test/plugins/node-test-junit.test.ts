/** `node --test --test-reporter=junit` shows one testcase per check — parsed by a real XML parser. */
import { execa } from "execa";
import { XMLParser } from "fast-xml-parser";
import { expect, it } from "vitest";

it("one JUnit testcase per check, the failing one carrying the check's message", async () => {
  const sample = new URL("../fixtures/node-test/sample.mjs", import.meta.url).pathname;
  const run = await execa("node", ["--test", "--test-reporter=junit", sample], { reject: false });
  expect(run.exitCode).toBe(1);
  const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(run.stdout);
  const cases: Array<{ name: string; failure?: { message?: string } }> = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const n of node) walk(n);
      return;
    }
    if (typeof node !== "object" || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "testcase") for (const tc of [value].flat()) cases.push(tc as never);
      else walk(value);
    }
  };
  walk(xml);
  const byName = Object.fromEntries(cases.map((c) => [c.name, c]));
  expect(Object.keys(byName)).toEqual(expect.arrayContaining(["denied(Write)", "tool(Agent)", "notTool(Write)"]));
  expect(byName["denied(Write)"].failure).toBeUndefined();
  expect(byName["tool(Agent)"].failure).toBeUndefined();
  expect(JSON.stringify(byName["notTool(Write)"].failure)).toContain("expected no call to Write");
});
