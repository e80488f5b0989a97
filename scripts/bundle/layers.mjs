// The chunk layout of the ES build (scripts/bundle.mjs). esbuild's code splitting gives every set of
// entry points that shares modules its own chunk, and counts each lazy import() as an entry point:
// with a dozen package entries and a dozen lazy imports, `import("proctor")` read 33 files, and
// Node's ES-module loader pays ~1 ms per file (resolve, package scope, open, read, link) — more than
// compiling the code in them. Layers make each package entry's static imports a few chunks instead:
//
// - A layer is a package entry (src/index.js first, the core). Its *own* modules are those it
//   imports statically that no earlier layer does, less other package entries' own files.
// - Every root (package entry or lazy import() target) that statically reaches a layer's own
//   modules imports the whole layer, so all of those modules are reached by the same roots and
//   esbuild puts them in one chunk. It does so through a stand-in module that replaces the root as
//   entry point or lazy target (imports of the layers, then the root's exports re-exported), so no
//   import cycle is added and the source stays as tsc wrote it.
// - Modules two unrelated package entries share outside the core (neither entry imports what the
//   other does) are hoisted into the core, so that, say, `proctor/vitest` and `proctor/safety`
//   sharing one small module does not make either load the other's whole layer. Hoisting that would
//   pull a layer's entry into the core fails the build instead; a hoisted module that imports only
//   part of a layer takes that part with it, and the build's log lists what was hoisted.
// - A package entry that a layer re-exports but that uses nothing else of it (the promptfoo
//   provider) keeps its own small chunk.
//
// - No static import cycle is allowed: a layer's body loads its modules ahead of the roots that use
//   them, and a stand-in changes the root esbuild orders a shared chunk from; either can enter a
//   cycle from another side than the source does. The build fails and names the cycle.
//
// What the layout changes: a root now evaluates all of its layers' modules, not only those it
// imports, when it loads. proctor's modules do nothing at import but define (process handlers are
// installed on first use; shared state is keyed on globalThis with `??=`), and must keep it so.
// The order within a chunk is esbuild's; `checkModuleOrder` fails the build (after it has written,
// so run it again after a fix) if a chunk places a module before one it depends on statically.
// Order between chunks is the ES module loader's (a chunk's imports first) and is not checked.
// A package that a `data:` URL module re-exports whole is not seen, as by esbuild itself.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * The options of an ES build with code splitting that writes each entry (absolute paths below
 * `dist`) over itself and its shared code into `dist/<chunks>/`, as scripts/bundle.mjs builds
 * proctor; `more` adds to them or overrides them.
 */
export function splitOptions({ root, dist, entries, chunks = "chunks" }, more = {}) {
  return {
    absWorkingDir: root,
    entryPoints: entries.map((e) => ({ in: e, out: path.relative(dist, e).replace(/\.js$/, "") })),
    outdir: dist,
    outbase: dist,
    allowOverwrite: true,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    chunkNames: `${chunks}/[name]-[hash]`,
    metafile: true,
    logLevel: "warning",
    ...more,
  };
}

/**
 * Builds with `options` in layers (see layeredChunks) and returns esbuild's result and the layout.
 * Throws if the layout cannot be made, and after writing if a chunk's module order is wrong.
 */
export async function buildLayered(build, options, layers) {
  const layout = await layeredChunks(build, options, layers);
  const result = await build({ ...options, plugins: [layout.plugin] });
  layout.checkModuleOrder(result.metafile.outputs);
  return { result, layout };
}

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
  const resolvedSpecs = new Map(); // module -> specifier as written -> { path, external }
  for (const [input, meta] of Object.entries(pre.metafile.inputs)) {
    const from = abs(input);
    edges.set(from, []);
    resolvedSpecs.set(from, new Map(meta.imports.map((i) => [i.original ?? i.path, { path: i.external ? i.path : abs(i.path), external: i.external === true }])));
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

  // No static import cycle: inside one, what a module's top level reads depends on the side the
  // cycle is entered from, and a chunk has one order for every root. Stand-ins and layer bodies
  // change which root esbuild orders a shared chunk from, and a layer's body loads its modules
  // ahead of the roots that use them, so either can flip a cycle that the source evaluates one way.
  for (const m of edges.keys()) {
    if (!edges.get(m).some((d) => closure(d).has(m))) continue;
    const cycle = [...closure(m)].filter((x) => closure(x).has(m)).map((x) => path.relative(dist, x));
    throw new Error(`bundle: ${cycle.join(", ")} import each other; the layered build refuses import cycles, whose order a chunk can keep for one side only and the layout may flip, so break the cycle (move what they share into a module of its own, or import one side lazily)`);
  }

  const entries = options.entryPoints.map((e) => path.resolve(cwd, typeof e === "string" ? e : e.in));
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
  for (const m of hoisted) {
    const layer = layerEntries.slice(1).find((l) => closure(m).has(l));
    if (layer) throw new Error(`bundle: ${path.relative(dist, m)}, shared by two unrelated entries, would hoist the layer ${path.relative(dist, layer)} into the core; import that layer from one of them, or list the entries in LAYERS so that one builds on the other`);
  }

  /** The layers each root imports through its stand-in. Every layer entry has one (the core's imports the hoisted modules). */
  const inject = new Map(layerEntries.map((l) => [l, []]));
  const add = (root, entry) => inject.set(root, [...(inject.get(root) ?? []), entry]);
  const below = new Set(inCore);
  for (const m of hoisted) for (const x of closure(m)) below.add(x);
  const roots = [...new Set([...entries, ...lazyTargets])];
  // A package entry's own file is not part of a layer: an entry that uses nothing else of the layer
  // it sits in (the promptfoo provider, which harness/index.js re-exports and which loads the harness
  // on first call) then stays a small chunk of its own instead of loading the whole layer. A lazy
  // target inside a layer is part of it: whoever loads it lazily pays for the layer then.
  const isRoot = new Set(entries.filter((r) => !layerEntries.includes(r)));
  const own = new Map([[core, new Set([...below].filter((m) => !isRoot.has(m)))]]);
  for (const l of layerEntries.slice(1)) {
    own.set(l, new Set([...closure(l)].filter((m) => !below.has(m) && !isRoot.has(m))));
    for (const m of closure(l)) below.add(m);
  }
  for (const l of layerEntries.slice(1)) {
    if (own.get(l).size === 0) throw new Error(`bundle: the layer ${path.relative(dist, l)} has no modules of its own (earlier layers or the core hold them all); drop it from LAYERS or reorder them`);
  }
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

  // Exports of each root, from the first build (all but those of packages it re-exports whole).
  const exportsOf = new Map();
  for (const meta of Object.values(pre.metafile.outputs)) if (meta.entryPoint) exportsOf.set(abs(meta.entryPoint), meta.exports);
  /**
   * The external packages whose every export `r` re-exports (`export * from "pkg"`, directly or
   * through an `export *` of a bundled module): esbuild lists such names only in an entry's own
   * file, so the stand-in, which makes r an inner module, repeats them. Read with a real parser
   * (a comment or a template string is not a statement) and resolved as the first build resolved it.
   */
  const packageStars = (r, seen = new Set()) => {
    if (seen.has(r) || !resolvedSpecs.has(r)) return [];
    seen.add(r);
    const found = [];
    const file = r.replace(/[?#].*$/, ""); // a query or hash names the module, not the file
    if (!existsSync(file)) return found; // a module of a plugin's or a data: URL, not a file
    const source = ts.createSourceFile(r, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
    for (const statement of source.statements) {
      if (!ts.isExportDeclaration(statement) || statement.exportClause || statement.isTypeOnly || !statement.moduleSpecifier || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const spec = statement.moduleSpecifier.text;
      const target = resolvedSpecs.get(r).get(spec);
      // An external import that an alias rewrote is recorded under its new name only: the stand-in,
      // built with the same options, rewrites the name as written again.
      if (target === undefined && !/^[./]/.test(spec)) found.push(spec);
      else if (target === undefined) throw new Error(`bundle: ${path.relative(dist, r)} re-exports ${JSON.stringify(spec)}, which the first build did not resolve`);
      else if (target.external) found.push(target.path);
      else found.push(...packageStars(target.path, seen));
    }
    return found;
  };
  /**
   * A name as an export clause spells it: an ASCII identifier bare, any other string quoted (ES2022).
   * Not every Unicode identifier: node's Unicode tables can be newer than esbuild's.
   */
  const exportName = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));
  // Two kinds of virtual module. A root's *stand-in* replaces it as entry point or lazy target: it
  // imports the bodies of r's layers, then re-exports r (appending the imports to r itself would
  // close an import cycle wherever a layer already imports r). A layer's *body* is what other roots
  // import: the layer's own file, after the bodies of the layers under it (and, for the core, the
  // hoisted modules). Nothing imports a stand-in, so each stays its entry's own file, where esbuild
  // can write an `export *` from a package.
  const STAND_IN = "layer-stand-in";
  const BODY = "layer-body";
  const line = (spec) => `import ${JSON.stringify(spec)};`;
  const bodyOf = (l) => [...(l === core ? [...hoisted] : []), ...inject.get(l).map((under) => `${BODY}:${under}`), l].map(line).join("\n");
  const standIn = (r) => {
    const from = JSON.stringify(r);
    const layersOf = layerEntries.includes(r) ? [`${BODY}:${r}`] : inject.get(r).map((l) => `${BODY}:${l}`);
    // r's own names by name (a default too), so they shadow a package's names of the same spelling
    // as they do in r; then the packages r re-exports whole, whose names the first build cannot list.
    const names = exportsOf.get(r) ?? [];
    const reexports = [names.length > 0 ? `export { ${names.map(exportName).join(", ")} } from ${from};` : `import ${from};`, ...[...new Set(packageStars(r))].map((spec) => `export * from ${JSON.stringify(spec)};`)];
    return [...layersOf.map(line), ...reexports, ""].join("\n");
  };
  const plugin = {
    name: "layered-chunks",
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: new RegExp(`^${BODY}:`) }, (args) => ({ path: args.path.slice(BODY.length + 1), namespace: BODY }));
      pluginBuild.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== "entry-point" && args.kind !== "dynamic-import") return undefined;
        if (args.namespace === STAND_IN || args.pluginData?.[STAND_IN]) return undefined;
        // Resolved as esbuild would (extensions, directories, aliases), then replaced by its stand-in.
        const resolved = await pluginBuild.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir || cwd, importer: args.importer, pluginData: { [STAND_IN]: true } });
        if (resolved.errors.length > 0 || resolved.external || !inject.has(resolved.path)) return undefined;
        return { path: resolved.path, namespace: STAND_IN };
      });
      pluginBuild.onLoad({ filter: /.*/, namespace: STAND_IN }, (args) => ({ contents: standIn(args.path), loader: "js", resolveDir: path.dirname(args.path) }));
      pluginBuild.onLoad({ filter: /.*/, namespace: BODY }, (args) => ({ contents: `${bodyOf(args.path)}\n`, loader: "js", resolveDir: path.dirname(args.path) }));
    },
  };
  return {
    plugin,
    /**
     * Fails the build if a chunk places a module after one that depends on it: everything m's
     * imports reach must come before m (with no import cycle, an ES module graph evaluates an
     * import's whole closure before the importer, whichever root loads it).
     */
    checkModuleOrder(outputs) {
      for (const [output, meta] of Object.entries(outputs)) {
        if (!output.endsWith(".js")) continue;
        const text = readFileSync(abs(output), "utf8");
        // esbuild writes each module's path in a comment before its code (no minification here).
        // Read as comments by a parser: a template string may hold the same text.
        const chunk = ts.createSourceFile(output, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
        const held = new Set(Object.keys(meta.inputs).map(abs));
        const order = [];
        for (const node of [...chunk.statements, chunk.endOfFileToken]) {
          for (const range of ts.getLeadingCommentRanges(text, node.pos) ?? []) {
            const comment = /^\/\/ (.+)$/.exec(text.slice(range.pos, range.end));
            const m = comment && abs(comment[1]);
            if (m && held.has(m) && edges.has(m)) order.push(m);
          }
        }
        // A module can be written in parts (esbuild puts the code of what it re-exports whole
        // between them); its own code ends with its last part.
        const at = new Map(order.map((m, i) => [m, i]));
        for (const m of at.keys()) {
          // Every module it reaches, not only those it names: a module of re-exports only has no code, so no comment.
          for (const dep of closure(m)) {
            if (dep !== m && at.has(dep) && at.get(dep) > at.get(m)) {
              throw new Error(`bundle: ${output} places ${path.relative(dist, m)} before ${path.relative(dist, dep)}, which it depends on: the layer imports changed the module order`);
            }
          }
        }
      }
    },
  };
}
