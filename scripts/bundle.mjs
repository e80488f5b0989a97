// Build step, after tsc and gen-validators: bundles every package entry (package.json `exports`
// and `bin`, plus the dist modules that the shipped promptfoo/*.mjs files import) with esbuild, in
// place over tsc's output for that entry, so a fresh process loads a handful of files instead of a
// hundred. Code shared by entries goes to dist/chunks/ (one copy of ProctorError, the shell parser,
// the schema checker across entries), laid out in layers so that each entry's static imports are a
// chunk or two (scripts/bundle/layers.mjs); every dynamic import stays a lazy chunk. Packages stay
// external; no minification and no source maps, so stack traces stay readable. tsc's other .js
// files stay in dist for code that imports an internal module directly; `types` keep pointing at
// tsc's .d.ts.
import { createHash } from "node:crypto";
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, transformSync } from "esbuild";
import { buildLayered, splitOptions } from "./bundle/layers.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = path.join(root, "dist");
const CHUNKS = "chunks";
const CLI_MAIN = "cli/main.js";
/** The bin's launcher (tsc's ESM output) and the CommonJS file built from it: package.json `bin`. */
const CLI_LAUNCHER = "cli/bin.js";
const CLI_BIN = "cli/proctor.cjs";
const BANNER = "// Bundled by scripts/bundle.mjs at build time from tsc's output; do not edit.";

/**
 * Rewrites the non-ASCII characters left in a bundle as "?". esbuild writes strings, regular
 * expressions and names with ASCII escapes; what it leaves is in comments, and one such character
 * makes V8 hold the whole file as two-byte text: about 2 ms more to read and compile a 250 KB
 * command, which `proctor gate` pays per tool call. The rewrite must minify to the same code as the
 * original (so it changed comments only), or the build fails.
 */
function keepAscii(file) {
  const source = readFileSync(file, "utf8");
  const ascii = source.replace(/[\u0080-\u{10ffff}]/gu, "?");
  if (ascii === source) return;
  const code = (text) => transformSync(text, { loader: "js", minifyWhitespace: true, charset: "ascii" }).code;
  if (code(ascii) !== code(source)) throw new Error(`bundle: ${path.relative(root, file)} holds a non-ASCII character outside a comment that esbuild did not escape`);
  writeFileSync(file, ascii);
}

/** The `default` (or plain string) targets of package.json `exports`, and every `bin`. */
function packageTargets(pkg) {
  const targets = [];
  const visit = (value) => {
    if (typeof value === "string") targets.push(value);
    else if (value && typeof value === "object") {
      for (const [condition, target] of Object.entries(value)) if (condition !== "types") visit(target);
    }
  };
  visit(pkg.exports);
  if (typeof pkg.bin === "string") targets.push(pkg.bin);
  else if (pkg.bin) targets.push(...Object.values(pkg.bin));
  return targets.map((t) => path.resolve(root, t));
}

/** The dist modules a shipped file outside dist imports by relative path (promptfoo/*.mjs → ../dist/…). */
function distImportsOf(file) {
  const source = readFileSync(file, "utf8");
  const specifiers = [...source.matchAll(/\bfrom\s+["'](\.{1,2}\/[^"']+)["']/g)].map((m) => path.resolve(path.dirname(file), m[1]));
  return specifiers.filter((s) => s.startsWith(dist + path.sep));
}

/**
 * Every ES-module entry point: package targets inside dist, the dist modules the targets outside
 * it import, and the CLI's ES-module entry (the bin, a CommonJS launcher, imports it at run time).
 */
function entryPoints(pkg) {
  const entries = new Set([path.join(dist, CLI_MAIN)]);
  for (const target of packageTargets(pkg)) {
    if (!target.endsWith(".js") && !target.endsWith(".mjs")) continue; // the .cjs bin is built below
    if (target.startsWith(dist + path.sep)) entries.add(target);
    else if (existsSync(target)) for (const e of distImportsOf(target)) entries.add(e);
  }
  for (const entry of entries) {
    if (!existsSync(entry)) throw new Error(`bundle: ${path.relative(root, entry)} is a package entry but tsc did not write it; run \`npm run build\``);
    if (readFileSync(entry, "utf8").slice(0, 400).includes(BANNER)) {
      throw new Error(`bundle: ${path.relative(root, entry)} is already bundled; run \`npm run build\` (tsc first) instead of bundling twice`);
    }
  }
  return [...entries].sort();
}

/**
 * Packages the single-file commands load through the code cache (cli/code-cache.ts), each from
 * its own bundled copy in `dist/cli/standalone/vendor/NAME.cjs` with its own cache, when first
 * used: each costs 6–50 ms to load from node_modules (yaml for a YAML policy, re2js for a
 * `$regex`, picomatch for a glob), once per `proctor gate`. The source loads them lazily as
 * `createRequire(import.meta.url)("NAME")`; the CommonJS build reads that as a load of the copy.
 * Every other package stays a plain require (web-tree-sitter finds its .wasm beside its own file).
 */
const VENDORED_PACKAGES = ["yaml", "re2js", "picomatch"];

/** The plugin that turns the source's lazy `createRequire(import.meta.url)("NAME")` of a vendored package into a load of its copy. */
const loadVendoredPackages = {
  name: "load-vendored-packages",
  setup(build) {
    const pattern = new RegExp(`createRequire\\(import\\.meta\\.url\\)\\((["'])(${VENDORED_PACKAGES.join("|")})\\1\\)`, "g");
    build.onLoad({ filter: /[\\/]dist[\\/].*\.js$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      if (!pattern.test(source)) return undefined;
      pattern.lastIndex = 0;
      return { contents: source.replace(pattern, (_, quote, name) => `proctor_require_vendored(${quote}${name}${quote})`), loader: "js" };
    });
  },
};

/** esbuild options for a CommonJS file: `import.meta.url` is the file's own URL, as in the ES build. */
const COMMONJS = {
  absWorkingDir: root,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  define: { "import.meta.url": "import_meta.url", "import.meta.dirname": "__dirname", "import.meta.filename": "__filename" },
  // A package loaded lazily is required, not imported: the launcher runs these files from V8's code
  // cache (cli/bin.ts), where a dynamic import() has no loader to call.
  supported: { "dynamic-import": false },
  inject: [path.join(root, "scripts", "bundle", "import-meta-url.mjs")],
  packages: "external",
  banner: { js: BANNER },
  sourcemap: false,
  minify: false,
  metafile: true,
  logLevel: "warning",
};

/**
 * The bin and the single-file commands (cli/standalone.ts says which and why), as CommonJS: the
 * bin from tsc's launcher, each command from its module and the dispatcher with every lazy import
 * inlined, so one file is all such a process reads. Returns [output, metafile entry] pairs.
 */
async function buildCommonJs(pkg) {
  const bin = typeof pkg.bin === "string" ? pkg.bin : pkg.bin?.proctor;
  if (path.resolve(root, bin ?? "") !== path.join(dist, CLI_BIN)) {
    throw new Error(`bundle: package.json bin.proctor must be ./dist/${CLI_BIN} (built from ${CLI_LAUNCHER}); it is ${JSON.stringify(bin)}`);
  }
  const outputs = [];
  const launcher = await build({ ...COMMONJS, supported: {}, entryPoints: [path.join(dist, CLI_LAUNCHER)], outfile: path.join(dist, CLI_BIN), external: ["./main.js", "./standalone/*"] });
  outputs.push(...Object.entries(launcher.metafile.outputs));
  const { STANDALONE_COMMANDS } = await import(pathToFileURL(path.join(dist, "cli", "standalone.js")).href);
  rmSync(path.join(dist, "cli", "standalone"), { recursive: true, force: true });
  for (const name of VENDORED_PACKAGES) {
    const copy = await build({ ...COMMONJS, packages: undefined, stdin: { contents: `module.exports = require(${JSON.stringify(name)});`, resolveDir: root, sourcefile: `vendor-${name}.js`, loader: "js" }, outfile: path.join(dist, "cli", "standalone", "vendor", `${name}.cjs`) });
    outputs.push(...Object.entries(copy.metafile.outputs));
  }
  for (const name of STANDALONE_COMMANDS) {
    const command = path.join(dist, "cli", "commands", `${name}.js`);
    if (!existsSync(command)) throw new Error(`bundle: cli/standalone.ts lists ${JSON.stringify(name)} but tsc wrote no ${path.relative(root, command)}`);
    const contents = [
      `import { runMain } from ${JSON.stringify(path.join(dist, "cli", "dispatch.js"))};`,
      `import command from ${JSON.stringify(command)};`,
      `runMain({ ${JSON.stringify(name)}: { summary: "", load: async () => ({ default: command }) } });`,
    ].join("\n");
    // ES modules are strict code; a CommonJS file is strict only when it says so, and esbuild does
    // not say it for an entry read from stdin.
    const strict = { js: `${BANNER}\n"use strict";` };
    const result = await build({ ...COMMONJS, banner: strict, inject: [...COMMONJS.inject, path.join(root, "scripts", "bundle", "require-vendored.mjs")], plugins: [loadVendoredPackages], stdin: { contents, resolveDir: path.join(dist, "cli"), sourcefile: `standalone-${name}.js`, loader: "js" }, outfile: path.join(dist, "cli", "standalone", `${name}.cjs`) });
    outputs.push(...Object.entries(result.metafile.outputs));
  }
  for (const [output] of outputs) keepAscii(path.resolve(root, output));
  // Each file's content hash, beside it: the code cache's name carries it (cli/code-cache.ts).
  for (const dir of [path.join(dist, "cli", "standalone"), path.join(dist, "cli", "standalone", "vendor")]) {
    const ids = Object.fromEntries(
      readdirSync(dir)
        .filter((f) => f.endsWith(".cjs"))
        .sort()
        .map((f) => [f, createHash("sha256").update(readFileSync(path.join(dir, f))).digest("hex").slice(0, 16)]),
    );
    writeFileSync(path.join(dir, "build-ids.json"), `${JSON.stringify(ids, null, 2)}\n`);
  }
  return outputs;
}

/**
 * The ES build's layers (scripts/bundle/layers.mjs): the core first, then each entry whose own
 * modules should load as one chunk. `import("proctor")` reads two files (the entry and the core),
 * proctor/vitest and proctor/node-test two, proctor/safety, proctor/reporters, proctor/mock-model and
 * the promptfoo provider three, proctor/harness five (test/startup/imports.test.ts holds these counts).
 */
const LAYERS = ["src/index.js", "mock-model/index.js", "harness/index.js", "src/safety.js", "reporters/index.js"];

async function main() {
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  const entries = entryPoints(pkg);
  // First, while every dist module is still tsc's own: the ES build below rewrites some in place
  // (the entries), and a CommonJS bundle that read one would hold a second copy of its chunks.
  const commonjs = await buildCommonJs(pkg);
  rmSync(path.join(dist, CHUNKS), { recursive: true, force: true });
  const options = splitOptions(
    { root, dist, entries, chunks: CHUNKS },
    { target: "node20", packages: "external", banner: { js: BANNER }, sourcemap: false, minify: false },
  );
  const { result } = await buildLayered(build, options, { dist, layers: LAYERS, report: (line) => console.log(`bundle: ${line}`) });
  for (const output of Object.keys(result.metafile.outputs)) if (output.endsWith(".js")) keepAscii(path.resolve(root, output));
  // The schema checker loads the build's validators from `./validators/` beside itself: copy them
  // beside whichever bundled file now holds it.
  const checker = path.join(dist, "src", "schema", "schema-errors.js");
  const validators = path.join(path.dirname(checker), "validators");
  for (const [output, meta] of [...Object.entries(result.metafile.outputs), ...commonjs]) {
    const holdsChecker = Object.keys(meta.inputs).some((input) => path.resolve(root, input) === checker);
    const dir = path.dirname(path.resolve(root, output));
    if (holdsChecker && dir !== path.dirname(checker) && existsSync(validators)) cpSync(validators, path.join(dir, "validators"), { recursive: true });
  }
  const chunks = readdirSync(path.join(dist, CHUNKS)).filter((f) => f.endsWith(".js")).length;
  console.log(`bundle: ${entries.length} entries, ${chunks} shared or lazy chunks, the bin, single-file commands and their vendored packages (${commonjs.length - 1} files) -> ${path.relative(process.cwd(), dist)}`);
}

main().catch((error) => {
  console.error(error instanceof Error && error.message.startsWith("bundle: ") ? error.message : error);
  process.exitCode = 1;
});
