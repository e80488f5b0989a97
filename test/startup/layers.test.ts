/**
 * The ES build's chunk layout (scripts/bundle/layers.mjs), on a small package built with the real
 * esbuild the way scripts/bundle.mjs builds proctor, then imported by real node processes: each
 * layer loads as one chunk, lazy imports and entries keep their exports (a default one too), a
 * module two unrelated entries share is hoisted into the core, and the order guard fails a chunk
 * that places a module before one it imports.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a build script, plain JavaScript without types
import { buildLayered, layeredChunks, splitOptions } from "../../scripts/bundle/layers.mjs";

interface Layout {
  plugin: unknown;
  checkModuleOrder(outputs: Record<string, { inputs: Record<string, unknown> }>): void;
}

const FILES: Record<string, string> = {
  // The core: two modules and a lazy import that shares one of them.
  "core.js": `import { util } from "./util.js"; import { shared } from "./shared.js";
export const core = () => util() + shared;
export const lazy = async () => (await import("./lazy.js")).default();
export * from "node:os";
export const hostname = () => "mine";`,
  "util.js": `export const util = () => "u";`,
  "shared.js": `export const shared = "s";`,
  "lazy.js": `import { util } from "./util.js"; export default () => "lazy:" + util();`,
  // A layer on top: its own modules, one of them also a lazy target inside the layer.
  "tool.js": `import { core } from "./core.js"; import { step } from "./step.js"; import { inner } from "./inner.js";
export const tool = () => core() + step + inner();
export const later = async () => (await import("./inner")).inner();
export { plug } from "./plug.js";`,
  // An entry of its own that the layer re-exports, using nothing else of the layer.
  "plug.js": `import { util } from "./util.js"; export const plug = () => "p" + util();`,
  "step.js": `import { inner } from "./inner.js"; export const step = "step(" + inner() + ")";`,
  "inner.js": `import { util } from "./util.js"; export const inner = () => "i" + util();`,
  // Two unrelated entries sharing one module outside the core: it is hoisted into the core.
  // Whole packages re-exported as a parser sees them, not as lines of text: after another statement,
  // through a local module or directory, after a comment, and not inside a template string.
  "left.js": `import { dialect } from "./dialect.js"; import { core } from "./core.js"; export default () => "left:" + dialect + core();
const odd = 1; export { odd as "odd-name", odd as "\u{10D50}" }; export * from "./stars.js";
export * from "./more"; export * from "./query.js?v=2";`,
  "query.js": `export * from "node:events";`,
  "stars.js": `export * from "node:url";`,
  "more/index.js": `export * from "node:util";`,
  "right.js": `import { dialect } from "./dialect.js"; import { own } from "./right-own.js"; export const right = "right:" + dialect + own;
export const doc = \`
export * from "no-such-package";
\`;
/* the path helpers */ export * from "node:path";`,
  "right-own.js": `export const own = "r";`,
  "dialect.js": `export const dialect = "d";`,
};

let dir: string;
let dist: string;
let layout: Layout;
const reports: string[] = [];

/** proctor's files (below dist) that a node process importing `entry` reads statically, found by following its import statements. */
function staticFiles(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const m of readFileSync(file, "utf8").matchAll(/^(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"|^import\s+"(\.[^"]+)"/gms)) visit(path.resolve(path.dirname(file), m[1] ?? m[2] ?? ""));
  };
  visit(path.join(dist, entry));
  return [...seen];
}

/** What `expression` evaluates to in a fresh node process that imported `entry` as `m`. */
function evaluate(entry: string, expression: string): string {
  const code = `const m = await import(${JSON.stringify(pathToFileURL(path.join(dist, entry)).href)}); console.log(await (${expression}));`;
  return execFileSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" }).trim();
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "proctor-layers-test-"));
  dist = path.join(dir, "dist");
  mkdirSync(dist);
  for (const [name, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(dist, name)), { recursive: true });
    writeFileSync(path.join(dist, name), `${text}\n`);
  }
  const entries = ["core.js", "tool.js", "left.js", "right.js", "plug.js"].map((e) => path.join(dist, e));
  const options = splitOptions({ root: dir, dist, entries });
  // Built as scripts/bundle.mjs builds; the layout is kept to test its guard on chunks written by hand.
  ({ layout } = await buildLayered(build, options, { dist, layers: ["core.js", "tool.js"], report: (line: string) => reports.push(line) }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The layout of a package of `files` in a directory of its own, removed after. */
async function layoutOf(files: Record<string, string>, entries: string[], layers: string[]): Promise<Layout> {
  const other = mkdtempSync(path.join(tmpdir(), "proctor-layers-test-"));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(other, name), text);
    const options = splitOptions({ root: other, dist: other, entries: entries.map((e) => path.join(other, e)) }, { outdir: path.join(other, "out"), logLevel: "silent" });
    return await layeredChunks(build, options, { dist: other, layers });
  } finally {
    rmSync(other, { recursive: true, force: true });
  }
}

/** The order check on a chunk of `text` that holds `modules` (as esbuild's metafile lists them), to be called. */
function written(text: string, ...modules: string[]): () => void {
  const chunk = path.join(dist, "chunks", "by-hand.js");
  writeFileSync(chunk, text);
  const outputs = { [path.relative(dir, chunk)]: { inputs: Object.fromEntries(modules.map((m) => [`dist/${m}`, {}])) } };
  return () => layout.checkModuleOrder(outputs);
}

describe("layered chunks", () => {
  it("loads each layer as one chunk: the core entry reads two files, the layer above it three", () => {
    expect(staticFiles("core.js")).toHaveLength(2);
    expect(staticFiles("tool.js")).toHaveLength(4); // the entry, the core, the layer, plug.js
    // An entry inside a layer that uses nothing else of it does not load the layer.
    expect(staticFiles("plug.js").some((f) => /^\/\/ dist\/step\.js$/m.test(readFileSync(f, "utf8")))).toBe(false);
    // Unlayered, esbuild gives util.js (shared with the lazy import) and shared.js chunks of their own.
    expect(reports.join("\n")).toMatch(/layer core\.js: \d+ modules \(1 hoisted: dialect\.js\)/);
  });

  it("keeps every entry's and lazy import's exports, a default export too", () => {
    expect(evaluate("core.js", "m.core()")).toBe("us");
    expect(evaluate("core.js", "m.lazy()")).toBe("lazy:u");
    expect(evaluate("core.js", "typeof m.tmpdir")).toBe("function"); // export * from a package
    expect(evaluate("core.js", "m.hostname()")).toBe("mine"); // a local name shadows the package's, as in ESM
    expect(evaluate("plug.js", "m.plug()")).toBe("pu");
    expect(evaluate("tool.js", "m.tool()")).toBe("usstep(iu)iu");
    expect(evaluate("tool.js", "m.later()")).toBe("iu");
    expect(evaluate("left.js", "m.default()")).toBe("left:dus");
    expect(evaluate("right.js", "m.right")).toBe("right:dr");
  });

  it("keeps names only a parser reads right: a string export name, and packages re-exported whole", () => {
    expect(evaluate("left.js", 'm["odd-name"]')).toBe("1");
    expect(evaluate("left.js", 'm["\\u{10D50}"]')).toBe("1"); // a letter newer than esbuild's Unicode tables
    expect(evaluate("left.js", "typeof m.EventEmitter")).toBe("function"); // a specifier with a query
    expect(evaluate("left.js", "typeof m.fileURLToPath")).toBe("function"); // through ./stars.js, after another statement
    expect(evaluate("left.js", "typeof m.inspect")).toBe("function"); // through the directory ./more
    expect(evaluate("right.js", "typeof m.basename")).toBe("function"); // after a comment
    expect(evaluate("right.js", "m.doc.includes('no-such-package')")).toBe("true"); // text, not a statement
  });

  it("hoists a module two unrelated entries share into the core's chunk", () => {
    const holders = (module: string) => staticFiles("right.js").filter((f) => new RegExp(`^// dist/${module}$`, "m").test(readFileSync(f, "utf8")));
    const [holder] = holders("dialect.js");
    expect(holder).toBeDefined();
    expect(holders("util.js")).toEqual([holder]);
  });

  it("refuses to hoist a layer into the core", async () => {
    const files = {
      "c.js": `export const c = 1;`,
      "big.js": `import { c } from "./c.js"; export const big = c;`,
      "x.js": `import { big } from "./big.js"; import { xo } from "./xo.js"; export const x = big + xo;`,
      "xo.js": `export const xo = 1;`,
      "y.js": `import { big } from "./big.js"; import { yo } from "./yo.js"; export const y = big + yo;`,
      "yo.js": `export const yo = 2;`,
    };
    await expect(layoutOf(files, ["c.js", "big.js", "x.js", "y.js"], ["c.js", "big.js"])).rejects.toThrow(/would hoist the layer big\.js into the core/);
  });

  it("refuses an import cycle, held by a layer or not", async () => {
    // Found by attacking the layout. Held by a layer: the core's body loaded the hoisted h.js first,
    // which entered the cycle at c2.js where left.js enters it at c1.js, and c1.js read b unset.
    const held = {
      "core.js": `export const core = () => "core";`,
      "c1.js": `import { b } from "./c2.js"; export const a = "a" + b;`,
      "c2.js": `import { a } from "./c1.js"; export const b = "b"; export const getA = () => a;`,
      "h.js": `import { getA } from "./c2.js"; export const h = () => getA();`,
      "hl.js": `import { h } from "./h.js"; export const hl = () => h();`,
      "hr.js": `import { h } from "./h.js"; export const hr = () => h();`,
      "lo.js": `import { a } from "./c1.js"; export const lo = "L" + a;`,
      "ro.js": `import { a } from "./c1.js"; export const ro = "R" + a;`,
      "left.js": `import { lo } from "./lo.js"; import { hl } from "./hl.js"; export const v = lo + hl();`,
      "right.js": `import { ro } from "./ro.js"; import { hr } from "./hr.js"; export const v = ro + hr();`,
    };
    await expect(layoutOf(held, ["core.js", "left.js", "right.js"], ["core.js"])).rejects.toThrow(/bundle: c[12]\.js, c[12]\.js import each other; the layered build refuses import cycles/);
    // Held by no layer: e1.js's stand-in (it imports the core) made esbuild order the shared chunk
    // from e1's side, and e1 saw a.js's aSaw undefined where the source and plain esbuild give "b".
    const unheld = {
      "core.js": `export const core = "core";`,
      "a.js": `import { b } from "./b.js"; export var a = "a"; export var aSaw = b;`,
      "b.js": `import { a } from "./a.js"; export var b = "b"; export var bSaw = a;`,
      "e1.js": `import "./core.js"; import { aSaw } from "./a.js"; export const seen = String(aSaw);`,
      "e2.js": `import { bSaw } from "./b.js"; export const seen = String(bSaw);`,
    };
    await expect(layoutOf(unheld, ["core.js", "e2.js", "e1.js"], ["core.js"])).rejects.toThrow(/bundle: [ab]\.js, [ab]\.js import each other/);
  });

  it("fails the build when a chunk places a module before one it imports", () => {
    expect(written("// dist/step.js\nvar step;\n// dist/inner.js\nfunction inner() {}\n", "step.js", "inner.js")).toThrow(/places step\.js before inner\.js, which it depends on/);
    expect(written("// dist/inner.js\nfunction inner() {}\n// dist/step.js\nvar step;\n", "step.js", "inner.js")).not.toThrow();
    // A module's path in a template string is text, not esbuild's comment.
    expect(written("// dist/inner.js\nfunction inner() {}\n// dist/step.js\nvar step = `\n// dist/inner.js\n`;\n", "step.js", "inner.js")).not.toThrow();
    // Nor is the path of a module the chunk does not hold.
    expect(written("// dist/step.js\nvar step;\n// dist/inner.js\nvar x;\n", "step.js")).not.toThrow();
  });
});
