/**
 * docs/errors.md and the code the errors come from stay in step: every code of the
 * `ProctorErrorCode` union has a section in the doc and every section a code, and the class each
 * section says raises the code does declare it.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as proctor from "../../src/index.js";
import * as harness from "../../harness/index.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

/** The string literals of `export type ProctorErrorCode = | "A" | "B";`, from the source. */
function unionCodes(): string[] {
  const source = read("src/errors/proctor-error.ts");
  const block = /export type ProctorErrorCode =([^;]+);/.exec(source)?.[1];
  if (!block) throw new Error("ProctorErrorCode not found in src/errors/proctor-error.ts");
  return [...block.matchAll(/"([A-Z_]+)"/g)].map((m) => m[1] as string);
}

/** `### \`CODE\`` section headings of docs/errors.md, each with the classes its "Raised by" line names. */
function documentedCodes(): Map<string, string[]> {
  const doc = read("docs/errors.md");
  const sections = new Map<string, string[]>();
  for (const m of doc.matchAll(/^### `([A-Z_]+)`\n+([\s\S]*?)(?=^##|$(?![\s\S]))/gm)) {
    const body = m[2] as string;
    const raisedBy = /Raised by ([^.]+)\./.exec(body)?.[1] ?? "";
    sections.set(m[1] as string, [...raisedBy.matchAll(/`(\w+Error)`/g)].map((c) => c[1] as string));
  }
  return sections;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => path.join(e.parentPath, e.name));
}

/** Each ProctorError subclass in the library and the codes it declares (inherited when it declares none). */
function classCodes(): Map<string, string[]> {
  const declared = new Map<string, { parent: string; codes?: string[] }>();
  for (const file of ["src", "harness", "mock-model", "reporters"].flatMap(sourceFiles)) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/export (?:abstract )?class (\w+)(?:<[^>]*>)? extends (\w+)[^{]*\{\s*(?:declare readonly code: ([^;]+);)?/g)) {
      const codes = m[3] ? [...m[3].matchAll(/"([A-Z_]+)"/g)].map((c) => c[1] as string) : undefined;
      declared.set(m[1] as string, { parent: m[2] as string, ...(codes ? { codes } : {}) });
    }
  }
  const resolve = (name: string, depth = 0): string[] | undefined => {
    const entry = declared.get(name);
    if (!entry || depth > 10) return undefined;
    return entry.codes ?? resolve(entry.parent, depth + 1);
  };
  const out = new Map<string, string[]>();
  for (const name of declared.keys()) {
    const codes = resolve(name);
    if (codes) out.set(name, codes);
  }
  return out;
}

describe("docs/errors.md", () => {
  it("documents every code of ProctorErrorCode, and no other", () => {
    const codes = unionCodes();
    expect(codes.length).toBeGreaterThan(10);
    expect([...documentedCodes().keys()].sort()).toEqual([...codes].sort());
  });

  it("names, for each code, classes that declare that code", () => {
    const classes = classCodes();
    for (const [code, raisers] of documentedCodes()) {
      expect(raisers, `${code}: its section names no raising class`).not.toEqual([]);
      for (const name of raisers) {
        expect(classes.get(name), `${code}: ${name} is not a ProctorError subclass declaring its codes`).toBeDefined();
        expect(classes.get(name), `${code}: ${name} does not declare it`).toContain(code);
      }
    }
  });

  it("gives every code a class: each code is declared by some subclass", () => {
    const declared = new Set([...classCodes().values()].flat());
    expect(unionCodes().filter((c) => !declared.has(c))).toEqual([]);
  });

  it("names classes a user can import: each is exported from proctor (HarnessError from proctor/harness)", () => {
    const table = /^## The classes\n([\s\S]*?)^## /m.exec(read("docs/errors.md"))?.[1] ?? "";
    const named = [...table.matchAll(/^\| `(\w+Error)`/gm)].map((m) => m[1] as string);
    expect(named.length).toBeGreaterThan(8);
    const exported: Record<string, unknown> = { ...proctor, HarnessError: harness.HarnessError };
    expect(named.filter((name) => typeof exported[name] !== "function")).toEqual([]);
  });
});
