/**
 * Every ```ts block in README.md and docs/*.md compiles as written against the built package, the
 * way a user's project imports it ("proctor", "proctor/harness", …): each block is its own module
 * in a folder inside this package (so "proctor" resolves to the package itself through its
 * exports map), type-checked by one tsc run. A block that needs names from elsewhere declares them.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = new URL("../..", import.meta.url).pathname;
const work = join(root, "test", ".docs-compile");

interface Block {
  readonly doc: string;
  readonly line: number;
  readonly code: string;
}

function blocks(): Block[] {
  const docs = ["README.md", ...readdirSync(join(root, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
  const out: Block[] = [];
  for (const doc of docs) {
    const lines = readFileSync(join(root, doc), "utf8").split("\n");
    for (let i = 0; i < lines.length; i++) {
      if (lines[i].trim() !== "```ts") continue;
      const start = i + 1;
      let end = start;
      while (end < lines.length && lines[end].trim() !== "```") end++;
      out.push({ doc, line: start + 1, code: lines.slice(start, end).join("\n") });
      i = end;
    }
  }
  return out;
}

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the docs' TypeScript", () => {
  const all = blocks();

  it("has blocks to check", () => {
    expect(all.length).toBeGreaterThan(10);
  });

  it("imports from the package, never from this repository's paths", () => {
    const repoImports = all.filter((b) => /from\s+["']\.{1,2}\//.test(b.code)).map((b) => `${b.doc}:${b.line}`);
    expect(repoImports).toEqual([]);
  });

  it("compiles, block by block, against the built package", () => {
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    const names = all.map((b) => {
      const name = `${b.doc.replace(/[^a-z0-9]+/gi, "_")}_${b.line}.ts`;
      // `export {}` makes each block a module of its own (top-level await, no shared names).
      writeFileSync(join(work, name), `${b.code}\nexport {};\n`);
      return [name, b] as const;
    });
    writeFileSync(
      join(work, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, skipLibCheck: true, types: ["node"], lib: ["ES2023"] },
        include: ["*.ts"],
      }),
    );
    let output = "";
    try {
      execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", work], { encoding: "utf8" });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    // Point each error back at the doc and line it came from.
    const located = output
      .split("\n")
      .filter((l) => /error TS/.test(l))
      .map((l) => {
        const m = /^(?:.*\/)?([^/(]+\.ts)\((\d+),\d+\): (.*)$/.exec(l);
        const hit = m && names.find(([n]) => n === m[1]);
        return hit ? `${hit[1].doc}:${hit[1].line + Number(m![2]) - 1}: ${m![3]}` : l;
      });
    expect(located).toEqual([]);
  }, 120_000);
});
