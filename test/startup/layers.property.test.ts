/**
 * The layered build against node itself: random module graphs (imports read at the top level,
 * import cycles read at the top level or only when called, modules that only re-export, lazy
 * imports, one or two layers) are built with the real esbuild through buildLayered, then every
 * entry is imported in a fresh module graph (a worker thread) from the source, from esbuild's own
 * splitting and from the layered build. Whatever the build accepts must give what the source gives
 * wherever plain esbuild does (a module evaluated before one it reads at its top level yields
 * `undefined` or throws); the order guard may refuse only a build that node evaluates differently.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { build } from "esbuild";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a build script, plain JavaScript without types
import { buildLayered, splitOptions } from "../../scripts/bundle/layers.mjs";

interface Graph {
  size: number;
  /** For each module, the later modules it reads at its top level. */
  forward: number[][];
  /** For each module, the modules it imports but reads only when called (those it shares a cycle with). */
  back: number[][];
  /** Modules that only re-export their first forward import. */
  barrel: boolean[];
  /** For each module, a later module it may import lazily. */
  lazy: (number | null)[];
  entries: number[];
  layers: number[];
}

const graphs: fc.Arbitrary<Graph> = fc.integer({ min: 3, max: 8 }).chain((size) => {
  const later = (i: number) => (i + 1 < size ? fc.uniqueArray(fc.integer({ min: i + 1, max: size - 1 }), { maxLength: 3 }) : fc.constant([]));
  // Few cycles: the layers refuse any that they hold.
  const earlier = (i: number) => (i > 0 ? fc.oneof({ weight: 4, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 0, max: i - 1 })) }) : fc.constant([]));
  const lazyOf = (i: number) => (i + 1 < size ? fc.option(fc.integer({ min: i + 1, max: size - 1 }), { freq: 3 }) : fc.constant(null));
  const ids = Array.from({ length: size }, (_, i) => i);
  return fc
    .record({
      forward: fc.tuple(...ids.map(later)),
      back: fc.tuple(...ids.map(earlier)),
      barrel: fc.tuple(...ids.map(() => fc.boolean())),
      lazy: fc.tuple(...ids.map(lazyOf)),
      others: fc.uniqueArray(fc.integer({ min: 1, max: size - 1 }), { maxLength: 3 }),
      layered: fc.nat(),
      cycleReads: fc.boolean(),
    })
    .map(({ forward: drawnForward, back: drawnBack, barrel, lazy, others, layered, cycleReads }) => {
      let forward: number[][] = drawnForward.map((js) => [...js]);
      let back: number[][] = drawnBack.map((js) => [...js]);
      const entries = [0, ...others];
      const second = others.length > 0 && layered % 2 === 0 ? [others[layered % others.length] as number] : [];
      // Half the graphs read across an import cycle only when called. In the others a top-level
      // read across a cycle works or fails in the source depending on where the cycle is entered.
      const reaches = (from: number, to: number): boolean => {
        const seen = new Set([from]);
        const stack = [from];
        while (stack.length > 0) {
          const m = stack.pop() as number;
          if (m === to) return true;
          for (const n of [...(forward[m] ?? []), ...(back[m] ?? [])]) {
            if (seen.has(n)) continue;
            seen.add(n);
            stack.push(n);
          }
        }
        return false;
      };
      if (!cycleReads) {
        const top = forward.map((js, i) => js.filter((j) => !reaches(j, i)));
        back = back.map((js, i) => [...js, ...(forward[i] ?? []).filter((j) => reaches(j, i))]);
        forward = top;
      }
      // A barrel needs something to re-export; the core entry is never one (it holds the lazy calls).
      const isBarrel = barrel.map((b, i) => b && i > 0 && (forward[i]?.length ?? 0) > 0 && (back[i]?.length ?? 0) === 0 && lazy[i] === null);
      return { size, forward, back, barrel: isBarrel, lazy, entries, layers: [0, ...second] };
    });
});

/** The source of module i: its value is built from the values of what it reads at the top level. */
function moduleText(g: Graph, i: number): string {
  const forward = g.forward[i] ?? [];
  if (g.barrel[i]) return `export { v, late } from "./m${forward[0]}.js";\n`;
  const lines = [
    ...forward.map((j) => `import { v as f${j} } from "./m${j}.js";`),
    ...(g.back[i] ?? []).map((j) => `import * as b${j} from "./m${j}.js";`),
    `export const v = "m${i}(" + [${forward.map((j) => `f${j}`).join(", ")}].join(",") + ")";`,
    `export const late = () => [${(g.back[i] ?? []).map((j) => `b${j}.v`).join(", ")}].join(";");`,
  ];
  const target = g.lazy[i];
  if (target !== null && target !== undefined) lines.push(`export const lazy = async () => (await import("./m${target}.js")).v;`);
  return `${lines.join("\n")}\n`;
}

/** What importing `file` gives in a fresh module graph (a worker thread): its value, its late value, its lazy value, or the error. */
function observe(file: string): Promise<string> {
  const code = `const { parentPort } = require("node:worker_threads");
(async () => {
  try {
    const m = await import(${JSON.stringify(pathToFileURL(file).href)});
    return JSON.stringify([m.v, m.late?.(), await m.lazy?.()]);
  } catch (e) {
    return "threw " + e.message;
  }
})().then((out) => parentPort.postMessage(out));`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true });
    worker.once("message", (out: string) => {
      resolve(out);
      void worker.terminate();
    });
    worker.once("error", reject);
  });
}

/** Found by this property. */
const KEPT: Graph[] = [
  // Seed 1812117408: the first order guard refused a cycle's module placed before what only another module of the cycle imports.
  { size: 6, forward: [[], [], [], [], [], []], back: [[4], [], [], [], [5], [0, 1]], barrel: [false, false, false, false, false, false], lazy: [null, null, null, null, null, null], entries: [0, 4], layers: [0] },
  // With layered cycles allowed: the layer m3.js entered the cycle m1 -> m2 -> m3 -> m1 at m3, and m2 read m3's value before it was set.
  { size: 4, forward: [[], [2], [3], []], back: [[], [], [], [1]], barrel: [false, false, false, false], lazy: [null, null, null, null], entries: [0, 2, 1, 3], layers: [0, 3] },
];

describe("layered chunks against node", () => {
  it("evaluate every entry as its source and esbuild's own splitting do, or the build refuses", async () => {
    let built = 0;
    await fc.assert(
      fc.asyncProperty(graphs, async (g) => {
        const dir = mkdtempSync(path.join(tmpdir(), "proctor-layers-property-"));
        try {
          const src = path.join(dir, "src");
          mkdirSync(src);
          for (let i = 0; i < g.size; i++) writeFileSync(path.join(src, `m${i}.js`), moduleText(g, i));
          const out = path.join(dir, "out");
          const options = splitOptions({ root: dir, dist: src, entries: g.entries.map((e) => path.join(src, `m${e}.js`)) }, { outdir: out, outbase: src, logLevel: "silent" });
          let refusal = "";
          try {
            await buildLayered(build, options, { dist: src, layers: g.layers.map((l) => `m${l}.js`) });
          } catch (error) {
            refusal = String(error);
            // A layout it cannot make is refused by name; a chunk in the wrong order only after it was written.
            expect(refusal).toMatch(/^Error: bundle: (the layer \S+ has no modules of its own|\S+, shared by two unrelated entries, would hoist|(\S+, )*\S+ import each other; the layered build refuses import cycles|\S+ places )/);
            if (!/ places /.test(refusal)) return;
          }
          // The oracles: node on the source, and node on esbuild's own code splitting, whose order
          // inside a cycle two entries enter from different sides is right for one of them only.
          const plain = path.join(dir, "plain");
          await build({ ...options, outdir: plain });
          const differs: string[] = [];
          let unknown = 0;
          for (const e of g.entries) {
            const expected = await observe(path.join(src, `m${e}.js`));
            if (expected.startsWith("threw") || (await observe(path.join(plain, `m${e}.js`))) !== expected) {
              unknown++;
              continue;
            }
            const got = await observe(path.join(out, `m${e}.js`));
            if (got !== expected) differs.push(`m${e}.js: ${got} instead of ${expected}`);
          }
          if (refusal === "") {
            expect(differs).toEqual([]);
            built++;
          } else {
            // The order guard refuses only builds that node evaluates differently.
            expect(differs.length + unknown, refusal).toBeGreaterThan(0);
          }
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: Number(process.env.LAYERS_RUNS ?? 40), examples: KEPT.map((g) => [g]) },
    );
    // The property says nothing if every graph was refused.
    if (process.env.LAYERS_RUNS) console.log(`${built} of ${process.env.LAYERS_RUNS} built`);
    expect(built).toBeGreaterThan(Number(process.env.LAYERS_RUNS ?? 40) / 3);
  }, 120_000);
});
