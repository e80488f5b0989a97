/** The README's check table is the full vocabulary: every kind checkFromJSON knows has its row. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { knownCheckKinds } from "../../src/index.js";

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
/** The first cell of each row of the table under "## Checks". */
const section = readme.slice(readme.indexOf("## Checks"), readme.indexOf("### The JSON form"));
const firstCells = [...section.matchAll(/^\| (.+?) \|/gm)].map((m) => m[1] as string).join(" ");

describe("the README check table", () => {
  it("has a row for every check kind", () => {
    expect(knownCheckKinds().filter((kind) => !firstCells.includes(`\`${kind}(`))).toEqual([]);
  });
});
