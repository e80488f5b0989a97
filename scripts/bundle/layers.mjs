// The chunk layout of the ES build (scripts/bundle.mjs). esbuild's code splitting gives every set of
// entry points that shares modules its own chunk, and counts each lazy import() as an entry point:
// with a dozen package entries and a dozen lazy imports, `import("proctor")` read 33 files, and
// Node's ES-module loader pays ~1 ms per file (resolve, package scope, open, read, link) — more than
// compiling the code in them. Layers make each package entry's static imports a few chunks instead:
//
// - A layer is a package entry (src/index.js first, the core). Its *own* modules are those it
//   imports statically that no earlier layer does.
// - Every root (package entry or lazy import() target) that statically reaches a layer's own
//   modules also imports the layer's entry — a bare `import "…"`, appended, that binds nothing — so
//   all of those modules are reached by the same roots and esbuild puts them in one chunk.
// - Modules two unrelated package entries share outside the core (neither entry imports the
//   other) are hoisted into the core, so that, say, `proctor/vitest` and `proctor/safety` sharing
//   one small module does not make either load the other's whole layer.
//
// A bare import can close an import cycle (a lazy target inside its own layer imports the layer's
// entry); that binds nothing, but it could change the order in which esbuild places modules in a
// chunk. `checkModuleOrder` fails the build if any chunk then places a module before one it
// imports.
import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * The esbuild plugin that lays chunks out in `layers` (package entries, dist-relative, core first),
 * worked out from a first build with the same options that writes nothing. `report` receives one
 * line per layer for the build's log.
 */
export async function layeredChunks(build, options, { dist, layers, report }) {
  const pre = await build({ ...options, write: false, metafile: true, plugins: [] });
  const cwd = options.absWorkingDir ?? process.cwd();
  const abs = (p) => path.resolve(cwd, p);
  const edges = new Map(); // module -> modules it imports statically
  const lazyTargets = new Set();
  for (const [input, meta] of Object.entries(pre.metafile.inputs)) {
    const from = abs(input);
    edges.set(from, []);
    for (const i of meta.imports) {
      if (i.external || !(i.path in pre.metafile.inputs)) continue;
      if (i.kind === "import-statement") edges.get(from).push(abs(i.path));
      else if (i.kind === "dynamic-import") lazyTargets.add(abs(i.path));
    }
  }
  const closures = new Map();
  /** Every module `start` imports statically, itself included. */
  const closure = (start) => {
    const known = closures.get(start);
    if (known) return known;
    const seen = new Set([start]);
    const stack = [start];
    while (stack.length > 0) {
      for (const next of edges.get(stack.pop()) ?? []) {
        if (seen.has(next)) continue;
        seen.add(next);
        stack.push(next);
      }
    }
    closures.set(start, seen);
    return seen;
  };

  const entries = options.entryPoints.map((e) => path.resolve(typeof e === "string" ? e : e.in));
  const layerEntries = layers.map((l) => path.join(dist, l));
  for (const l of layerEntries) if (!entries.includes(l)) throw new Error(`bundle: layer ${path.relative(dist, l)} is not a package entry`);
  const [core] = layerEntries;
  const inCore = closure(core);

  /** Whether entry `a` imports every module entry `b` does (b's own file aside: an entry is often a list of re-exports). */
  const buildsOn = (a, b) => [...closure(b)].every((m) => m === b || closure(a).has(m));
  const hoisted = new Set();
  for (const a of entries) {
    for (const b of entries) {
      if (a >= b || a === core || b === core || buildsOn(a, b) || buildsOn(b, a)) continue;
      for (const m of closure(a)) if (closure(b).has(m) && !inCore.has(m)) hoisted.add(m);
    }
  }

  /** The layers each root imports through its stand-in. Every layer entry has one (the core's imports the hoisted modules). */
  const inject = new Map(layerEntries.map((l) => [l, []]));
  const add = (root, entry) => inject.set(root, [...(inject.get(root) ?? []), entry]);
  const below = new Set(inCore);
  for (const m of hoisted) for (const x of closure(m)) below.add(x);
  const own = new Map([[core, new Set(below)]]);
  for (const l of layerEntries.slice(1)) {
    own.set(l, new Set([...closure(l)].filter((m) => !below.has(m))));
    for (const m of closure(l)) below.add(m);
  }
  const roots = [...new Set([...entries, ...lazyTargets])];
  for (const l of layerEntries) {
    const mine = own.get(l);
    for (const r of roots) {
      if (r === l) continue;
      for (const m of closure(r)) {
        if (mine.has(m)) {
          add(r, l);
          break;
        }
      }
    }
  }
  for (const l of layerEntries) {
    const extra = l === core && hoisted.size > 0 ? ` (${hoisted.size} hoisted: ${[...hoisted].map((m) => path.relative(dist, m)).join(", ")})` : "";
    report?.(`layer ${path.relative(dist, l)}: ${own.get(l).size} modules${extra}`);
  }

  // Exports of each root, from the first build: a stand-in re-exports them by name (`export *`
  // would drop a default export).
  const exportsOf = new Map();
  for (const meta of Object.values(pre.metafile.outputs)) if (meta.entryPoint) exportsOf.set(abs(meta.entryPoint), meta.exports);
  /**
   * The module that stands in for root `r`: it imports r's layers, then re-exports r. Appending the
   * imports to r itself would close an import cycle wherever a layer already imports r.
   */
  const NAMESPACE = "layer-stand-in";
  const standIn = (r) => {
    const names = exportsOf.get(r) ?? [];
    const from = JSON.stringify(r);
    const imports = r === core ? [...hoisted] : inject.get(r).map((l) => `${NAMESPACE}:${l}`);
    return [...imports.map((i) => `import ${JSON.stringify(i)};`), names.length > 0 ? `export { ${names.join(", ")} } from ${from};` : `import ${from};`, ""].join("\n");
  };
  const plugin = {
    name: "layered-chunks",
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: new RegExp(`^${NAMESPACE}:`) }, (args) => ({ path: args.path.slice(NAMESPACE.length + 1), namespace: NAMESPACE }));
      pluginBuild.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind !== "entry-point" && args.kind !== "dynamic-import") return undefined;
        if (args.namespace === NAMESPACE) return undefined;
        const target = path.resolve(args.resolveDir || cwd, args.path);
        return inject.has(target) ? { path: target, namespace: NAMESPACE } : undefined;
      });
      pluginBuild.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({ contents: standIn(args.path), loader: "js", resolveDir: path.dirname(args.path) }));
    },
  };
  return {
    plugin,
    /** Fails the build if a chunk places a module before a module it imports (outside an import cycle of the source). */
    checkModuleOrder(outputs) {
      for (const output of outputs) {
        // esbuild writes each module's path in a comment before its code (no minification here).
        const order = [...readFileSync(abs(output), "utf8").matchAll(/^\/\/ (\S+\.js)$/gm)].map((m) => abs(m[1]));
        const at = new Map(order.map((m, i) => [m, i]));
        for (const m of order) {
          for (const dep of edges.get(m) ?? []) {
            if (at.has(dep) && at.get(dep) > at.get(m) && !closure(dep).has(m)) {
              throw new Error(`bundle: ${output} places ${path.relative(dist, m)} before ${path.relative(dist, dep)}, which it imports: the layer imports changed the module order`);
            }
          }
        }
      }
    },
  };
}
