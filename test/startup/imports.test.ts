/**
 * What importing proctor costs: the modules a fresh process loads for `import("proctor")` and
 * `import("proctor/harness")` (the built package, as users get it), listed by a resolve hook for
 * ES modules plus the CommonJS cache. The shell parser, ajv and yaml are each tens of milliseconds,
 * junit-report-builder over a hundred, picomatch, re2js and p-limit ten to twenty; most importers
 * never need them, so they must load only when used.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(fileURLToPath(import.meta.url), "../../..");
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { exports: Record<string, { default: string } | string> };

/** The built file an export of package.json points at (`"."`, `"./harness"`), as an absolute path. */
function entryFile(subpath: string): string {
  const target = pkg.exports[subpath];
  if (target === undefined) throw new Error(`package.json exports no ${subpath}`);
  return path.join(root, typeof target === "string" ? target : target.default);
}
const dir = mkdtempSync(path.join(tmpdir(), "proctor-startup-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The hook appends each resolved file synchronously, so the list is complete when the import settles. */
const HOOK = `
import { appendFileSync } from "node:fs";
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (result.url.startsWith("file:")) appendFileSync(log, result.url + "\\n");
  return result;
}`;

/** Runs in the child: register the hook, import PROCTOR_TARGET, run PROCTOR_THEN, add the CommonJS cache. */
const CHILD = `
import { register, createRequire } from "node:module";
import { appendFileSync } from "node:fs";
const log = process.env.PROCTOR_LOG;
register("data:text/javascript," + encodeURIComponent(process.env.PROCTOR_HOOK), import.meta.url, { data: { log } });
async function main() {
  const mod = await import(process.env.PROCTOR_TARGET);
  const then = process.env.PROCTOR_THEN;
  if (then) await new Function("mod", "return (async () => { " + then + " })()")(mod);
  appendFileSync(log, Object.keys(createRequire(import.meta.url).cache).map((f) => "file://" + f).join("\\n") + "\\n");
}
main().catch((error) => { console.error(error); process.exitCode = 1; });`;

let runs = 0;

/** The files (paths below node_modules where they are packages, else the path) a fresh process loads for `target`, then `then`. */
function loadedFiles(target: string, then = ""): string[] {
  const log = path.join(dir, `modules-${runs++}.log`);
  execFileSync(process.execPath, ["--input-type=module", "-e", CHILD], {
    cwd: root,
    env: { ...process.env, PROCTOR_LOG: log, PROCTOR_HOOK: HOOK, PROCTOR_TARGET: target, PROCTOR_THEN: then },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const files = readFileSync(log, "utf8").split("\n").filter(Boolean).map((url) => url.replace(/^file:\/\//, ""));
  return [...new Set(files)];
}

/** The packages among `files`: `ajv`, `yaml`, `web-tree-sitter` … (the first name after the last node_modules). */
function packagesIn(files: readonly string[]): string[] {
  const names = files.map((f) => /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(f)?.[1]).filter((n): n is string => n !== undefined);
  return [...new Set(names)].sort();
}

const SLOW = ["web-tree-sitter", "tree-sitter-bash", "ajv", "yaml"];
/** Loaded at first use only: a `$regex` from data, a glob, a measurement, a JUnit file. */
const LAZY = ["re2js", "picomatch", "p-limit", "junit-report-builder"];

/**
 * The built files among `files` that hold the shell classifier: the bundle gives each source
 * module a `// dist/src/…` comment, so the chunk is found by the module it contains, whatever
 * the bundler named it.
 */
function classifierFiles(files: readonly string[]): string[] {
  const own = files.filter((f) => f.startsWith(path.join(root, "dist") + path.sep) && f.endsWith(".js"));
  return own.filter((f) => /^\/\/ dist\/src\/effects\/bash\/classify\.js$/m.test(readFileSync(f, "utf8")));
}

/** The built files among `files` that hold the source module `module` (`measure/measure.js`), found by the bundle's `// dist/src/…` comment. */
function filesHolding(files: readonly string[], module: string): string[] {
  const marker = new RegExp(`^// dist/src/${module.replace(/[.]/g, "\\.")}$`, "m");
  return files.filter((f) => f.startsWith(path.join(root, "dist") + path.sep) && f.endsWith(".js") && marker.test(readFileSync(f, "utf8")));
}

/** A PROCTOR_THEN that lists the Node built-ins loaded so far as `builtin:NativeModule NAME` lines. */
const LIST_BUILTINS = `process.getBuiltinModule("node:fs").appendFileSync(process.env.PROCTOR_LOG, process.moduleLoadList.map((m) => "builtin:" + m).join("\\n") + "\\n");`;

const bin = path.join(root, (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { bin: { proctor: string } }).bin.proctor);

/**
 * The files `proctor gate …` loads deciding one PreToolUse event: ES modules through the resolve
 * hook registered by `--import`, CommonJS files (the bin and its single-file commands) from the
 * require cache as the process exits.
 */
function gateLoads(args: readonly string[], event: Record<string, unknown>, env: Record<string, string> = {}): { files: string[]; stdout: string } {
  const log = path.join(dir, `modules-${runs++}.log`);
  const register = `import { register } from "node:module"; register("data:text/javascript," + encodeURIComponent(process.env.PROCTOR_HOOK), import.meta.url, { data: { log: process.env.PROCTOR_LOG } });`;
  const atExit = path.join(dir, "require-cache-at-exit.cjs");
  writeFileSync(atExit, `process.on("exit", () => require("node:fs").appendFileSync(process.env.PROCTOR_LOG, Object.keys(require.cache).map((f) => "file://" + f).join("\\n") + "\\n"));\n`);
  const stdout = execFileSync(process.execPath, ["--import", `data:text/javascript,${encodeURIComponent(register)}`, "--require", atExit, bin, "gate", ...args], {
    cwd: root,
    input: JSON.stringify(event),
    encoding: "utf8",
    env: { ...process.env, PROCTOR_LOG: log, PROCTOR_HOOK: HOOK, ...env },
  });
  const files = readFileSync(log, "utf8").split("\n").filter(Boolean).map((url) => url.replace(/^file:\/\//, ""));
  return { files: [...new Set(files)], stdout };
}

describe("start-up", () => {
  it("sees a package a process does load (the listing itself works)", () => {
    const loaded = packagesIn(loadedFiles("proctor/mock-model", 'mod.parseScript("turns: [{text: hi}]", "s.yaml")'));
    expect(loaded).toContain("yaml");
    expect(packagesIn(loadedFiles("ajv"))).toContain("ajv");
  });

  it('import("proctor") loads neither the shell parser, nor ajv, nor yaml, nor re2js, picomatch, p-limit or junit-report-builder', () => {
    const files = loadedFiles("proctor");
    expect(files).toContain(entryFile("."));
    expect(packagesIn(files).filter((p) => SLOW.includes(p) || LAZY.includes(p))).toEqual([]);
  });

  it('import("proctor") loads neither node:crypto nor node:perf_hooks, nor the measurement and eval runner until one is called', () => {
    const builtins = (files: readonly string[]) => files.filter((f) => /^builtin:NativeModule (?:crypto|perf_hooks)$/.test(f));
    const files = loadedFiles("proctor", LIST_BUILTINS);
    expect(files).toContain("builtin:NativeModule fs"); // the listing itself works
    expect(builtins(files)).toEqual([]);
    for (const module of ["measure/measure.js", "eval/run-evals.js", "eval/load.js", "measure/arms.js"]) expect(filesHolding(files, module), module).toEqual([]);
    // Calling measure loads it.
    const measured = loadedFiles(
      "proctor",
      `const trace = await mod.readTranscript(${JSON.stringify(path.join(root, "test/fixtures/transcripts/edit-write-bash-fail.jsonl"))});
      await mod.measure({ run: () => trace, checks: [mod.tool("Bash")], trials: 1, progress: false });`,
    );
    expect(filesHolding(measured, "measure/measure.js")).toHaveLength(1);
  });

  it('import("proctor") leaves out the shell classifier (the safety layer) until a safety check is evaluated', () => {
    // The marker finds the classifier where it is: proctor/safety loads it at import.
    expect(classifierFiles(loadedFiles("proctor/safety"))).toHaveLength(1);
    expect(classifierFiles(loadedFiles("proctor"))).toEqual([]);
    // Rebuilding safety checks from JSON, and using the core checks, loads none of it either.
    const build = `
      const trace = await mod.readTranscript(${JSON.stringify(path.join(root, "test/fixtures/transcripts/edit-write-bash-fail.jsonl"))});
      const checks = mod.checksFromJSON([{ kind: "purity", level: "bounded" }, { kind: "skillTools", skill: "lint", allowed: ["Read"] }, { kind: "toolStatus", name: "Bash", status: "failure" }]);
      JSON.stringify(checks);
      mod.evalChecks(trace, [mod.tool("Bash"), checks[2]]);`;
    expect(classifierFiles(loadedFiles("proctor", build))).toEqual([]);
    // Evaluating one loads it.
    expect(classifierFiles(loadedFiles("proctor", `${build}\n      await mod.evaluateChecks(trace, checks);`))).toHaveLength(1);
  });

  it("proctor gate judges a read-only `git status` without the shell parser, and loads it for a command that needs it", () => {
    const repo = mkdtempSync(path.join(dir, "repo-"));
    execFileSync("git", ["init", "-q", repo]);
    const event = (command: string) => ({ hook_event_name: "PreToolUse", session_id: "s", tool_name: "Bash", tool_input: { command }, cwd: repo });
    // Nothing objects, and the call passes on the classifier's word: the gate lets it run confined.
    const confined = (stdout: string) => expect(JSON.parse(stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: "allow", updatedInput: { command: expect.stringContaining("bwrap") } } });
    const plain = gateLoads(["--purity", "bounded"], event("git status"));
    confined(plain.stdout);
    expect(packagesIn(plain.files)).toEqual([]);
    const piped = gateLoads(["--purity", "bounded"], event("git status | head -$((2 + 3))"));
    confined(piped.stdout);
    expect(packagesIn(piped.files)).toContain("web-tree-sitter");
    const write = gateLoads(["--purity", "bounded"], event("rm -rf build"));
    expect(JSON.parse(write.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
    // A YAML policy loads yaml: the bin's single-file gate carries its own copy (dist/cli/standalone/vendor/), loaded when first used.
    const policy = path.join(repo, "policy.yaml");
    writeFileSync(policy, "rules:\n  - tool: Write\n    effect: deny\n");
    const vendored = (files: string[]) => files.filter((f) => f.includes("/dist/cli/standalone/vendor/")).map((f) => path.basename(f));
    expect(vendored(gateLoads(["--policy", policy], event("git status"), { PROCTOR_COMPILE_CACHE: "0" }).files)).toEqual(["yaml.cjs"]);
    expect(vendored(gateLoads(["--purity", "bounded"], event("git status"), { PROCTOR_COMPILE_CACHE: "0" }).files)).toEqual([]);
  });

  it("the bin runs `proctor gate` from two files of its own, the launcher and the command's single-file bundle", () => {
    const repo = mkdtempSync(path.join(dir, "repo-"));
    const event = { hook_event_name: "PreToolUse", session_id: "s", tool_name: "Bash", tool_input: { command: "git status | head -$((2 + 3))" }, cwd: repo };
    // Without the code cache, so the command's bundle is loaded by require and listed (test/cli/code-cache.test.ts covers the cache).
    const own = gateLoads(["--purity", "bounded"], event, { PROCTOR_COMPILE_CACHE: "0" }).files.filter((f) => f.startsWith(path.join(root, "dist") + path.sep));
    expect(own.map((f) => path.relative(root, f)).sort()).toEqual(["dist/cli/proctor.cjs", "dist/cli/standalone/gate.cjs"]);
  });

  it('import("proctor/safety") loads neither the shell parser (it loads on first need), nor ajv, nor yaml, nor the lazily loaded packages', () => {
    const files = loadedFiles("proctor/safety");
    expect(files).toContain(entryFile("./safety"));
    expect(packagesIn(files).filter((p) => SLOW.includes(p) || LAZY.includes(p))).toEqual([]);
  });

  it('import("proctor/harness") loads neither ajv, nor yaml, nor the shell parser, nor the lazily loaded packages', () => {
    const files = loadedFiles("proctor/harness");
    expect(files).toContain(entryFile("./harness"));
    expect(packagesIn(files).filter((p) => SLOW.includes(p) || LAZY.includes(p))).toEqual([]);
  });

  it("every package entry is the build's bundle, and importing one loads only bundled files", () => {
    // A bundled file carries the bundler's banner; tsc's per-module output does not.
    const bundled = (file: string) => readFileSync(file, "utf8").slice(0, 400).includes("Bundled by scripts/bundle.mjs");
    for (const subpath of Object.keys(pkg.exports).filter((k) => k !== "./package.json" && entryFile(k).endsWith(".js"))) {
      expect(bundled(entryFile(subpath)), subpath).toBe(true);
    }
    const own = loadedFiles("proctor/harness").filter((f) => f.startsWith(path.join(root, "dist") + path.sep) && f.endsWith(".js"));
    expect(own.length).toBeGreaterThan(1);
    expect(own.filter((f) => !bundled(f))).toEqual([]);
  });

  it("each package entry reads a few files of proctor's own: one per layer it stands on (scripts/bundle/layers.mjs)", () => {
    // Node's ES-module loader pays about a millisecond per file; unlayered, import("proctor") read 33.
    // The promptfoo provider loads the harness at its first call, not with the core it imports.
    const own = (subpath: string) => loadedFiles(subpath).filter((f) => f.startsWith(path.join(root, "dist") + path.sep));
    const most: Record<string, number> = { proctor: 2, "proctor/vitest": 2, "proctor/node-test": 2, "proctor/safety": 3, "proctor/reporters": 3, "proctor/mock-model": 3, "proctor/harness": 5, "proctor/promptfoo/provider.mjs": 3 };
    for (const [subpath, files] of Object.entries(most)) expect(own(subpath).length, subpath).toBeLessThanOrEqual(files);
  });

  it('import("proctor/reporters") leaves junit-report-builder until a JUnit file is built', () => {
    expect(packagesIn(loadedFiles("proctor/reporters"))).not.toContain("junit-report-builder");
  });

  it("loads re2js, picomatch and p-limit when a $regex from data, a glob and a measurement are used", () => {
    const then = `
      const trace = await mod.readTranscript(${JSON.stringify(path.join(root, "test/fixtures/transcripts/edit-write-bash-fail.jsonl"))});
      const checks = [mod.checkFromJSON({ kind: "toolWith", name: "Bash", args: { command: { $regex: "^l+s$", $flags: "i" } } }), mod.wrote("src/**/*.ts")];
      await mod.measure({ run: () => trace, checks, trials: 1, progress: false });`;
    const loaded = packagesIn(loadedFiles("proctor", then));
    expect(LAZY.filter((p) => p !== "junit-report-builder").filter((p) => !loaded.includes(p))).toEqual([]);
  });

  it("validating a JSON script (good and bad) uses the build's validator: no ajv compiler, no yaml", () => {
    const then = `
      const { loadScript, scriptErrors } = await import("proctor/mock-model");
      const { writeFileSync } = await import("node:fs");
      const file = process.env.PROCTOR_LOG + ".json";
      writeFileSync(file, JSON.stringify({ turns: [{ tools: [{ name: "Bash", input: { command: "ls" } }] }, { text: "Done." }] }));
      loadScript(file);
      const errors = scriptErrors({ turns: [{ text: "ok" }, { text: "x" }, { tools: [{ name: "Bash", input: "ls" }] }] });
      if (errors[0] !== 'turns[2].tools[0].input: must be object (got "ls")') throw new Error("unexpected errors: " + errors);`;
    const files = loadedFiles("proctor/harness", then);
    expect(files.some((f) => f.startsWith(path.join(root, "dist") + path.sep) && /\/validators\/v\d+\.cjs$/.test(f))).toBe(true);
    // Only ajv's small runtime helpers, which the generated code requires, may load.
    expect(files.filter((f) => f.includes("/node_modules/ajv/") && !f.includes("/node_modules/ajv/dist/runtime/"))).toEqual([]);
    expect(packagesIn(files)).not.toContain("yaml");
  });
});
