/**
 * The bin runs its single-file commands from V8's code cache (cli/code-cache.ts). A cache must
 * never change what runs: a missing, damaged, stale or unwritable cache means a plain compile, and
 * the cache written after a run is one V8 accepts.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { codeCacheFile } from "../../cli/code-cache.js";
import { CLI } from "../helpers/cli.js";

const root = path.resolve(fileURLToPath(import.meta.url), "../../..");
const dir = mkdtempSync(path.join(tmpdir(), "proctor-code-cache-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `file` through the built runCommonJs in a fresh process, as the bin does. */
function runThroughCache(file: string, env: Record<string, string> = {}): string {
  const runner = `import { runCommonJs } from ${JSON.stringify(path.join(root, "dist/cli/code-cache.js"))}; runCommonJs(process.argv[1]);`;
  return execFileSync(process.execPath, ["--input-type=module", "-e", runner, file], { encoding: "utf8", env: { ...process.env, ...env } });
}

/**
 * V8's answer to the cache file beside `file`, asked by a fresh process (the test runner's own V8
 * flags may differ from a plain node's, and V8 rejects a cache made under other flags).
 */
function cacheState(file: string): string {
  const probe = `
    import { readFileSync } from "node:fs";
    import { codeCacheFile, compileCommonJs } from ${JSON.stringify(path.join(root, "dist/cli/code-cache.js"))};
    let data;
    try { data = readFileSync(codeCacheFile(process.argv[1])); } catch { console.log("absent"); process.exit(0); }
    console.log(compileCommonJs(process.argv[1], data).cachedDataRejected === true ? "rejected" : "accepted");`;
  return execFileSync(process.execPath, ["--input-type=module", "-e", probe, file], { encoding: "utf8" }).trim();
}

let n = 0;
function commandFile(): string {
  const sub = path.join(dir, `c${n++}`);
  mkdirSync(sub);
  const file = path.join(sub, "command.cjs");
  writeFileSync(file, `"use strict";\nconst path = require("node:path");\nconsole.log(path.basename(__filename), path.basename(__dirname), typeof module.exports, typeof exports, (function () { return this; })() === undefined ? "strict" : "sloppy");\n`);
  return file;
}
const EXPECTED = (file: string) => `command.cjs ${path.basename(path.dirname(file))} object object strict\n`;

describe("the code cache", () => {
  it("runs the file as require would, then leaves a cache V8 accepts, and runs the same from it", () => {
    const file = commandFile();
    expect(cacheState(file)).toBe("absent");
    expect(runThroughCache(file)).toBe(EXPECTED(file));
    expect(cacheState(file)).toBe("accepted");
    expect(runThroughCache(file)).toBe(EXPECTED(file));
    expect(readdirSync(path.dirname(file)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("requireCommonJs returns the module's exports, runs each file once, and caches it too", () => {
    const sub = path.join(dir, `c${n++}`);
    mkdirSync(sub);
    const file = path.join(sub, "lib.cjs");
    writeFileSync(file, `"use strict";\nglobalThis.proctorRuns = (globalThis.proctorRuns ?? 0) + 1;\nmodule.exports = { twice: (x) => 2 * x };\n`);
    const probe = `import { requireCommonJs } from ${JSON.stringify(path.join(root, "dist/cli/code-cache.js"))};
      const a = requireCommonJs(process.argv[1]), b = requireCommonJs(process.argv[1]);
      console.log(a.twice(21), a === b, globalThis.proctorRuns);`;
    const run = () => execFileSync(process.execPath, ["--input-type=module", "-e", probe, file], { encoding: "utf8" });
    expect(run()).toBe("42 true 1\n");
    expect(cacheState(file)).toBe("accepted");
    expect(run()).toBe("42 true 1\n");
  });

  it("replaces a damaged cache, and never offers one made for another version of the file", () => {
    const file = commandFile();
    const cache = codeCacheFile(file) ?? "";
    writeFileSync(cache, Buffer.alloc(4096, 7));
    expect(cacheState(file)).toBe("rejected");
    expect(runThroughCache(file)).toBe(EXPECTED(file));
    expect(cacheState(file)).toBe("accepted");
    // The file rewritten with the same length (V8 would take the old cache): the cache has another name.
    const source = readFileSync(file, "utf8");
    writeFileSync(file, source.replace("sloppy", "SLOPPY"));
    utimesSync(file, new Date(Date.now() + 5_000), new Date(Date.now() + 5_000));
    expect(codeCacheFile(file)).not.toBe(cache);
    expect(runThroughCache(file)).toBe(EXPECTED(file));
    expect(cacheState(file)).toBe("accepted");
  });

  it("names a built bundle's cache by the content hash the build wrote beside it", () => {
    const dist = path.join(root, "dist/cli/standalone");
    const ids = JSON.parse(readFileSync(path.join(dist, "build-ids.json"), "utf8")) as Record<string, string>;
    expect(Object.keys(ids)).toEqual(expect.arrayContaining(["gate.cjs", "check.cjs"]));
    expect(codeCacheFile(path.join(dist, "gate.cjs"))).toContain(`gate.cjs.${ids["gate.cjs"]}.`);
    const vendor = JSON.parse(readFileSync(path.join(dist, "vendor/build-ids.json"), "utf8")) as Record<string, string>;
    expect(Object.keys(vendor).sort()).toEqual(["picomatch.cjs", "re2js.cjs", "yaml.cjs"]);
  });

  it("writes nothing when the cache cannot be written, and nothing at all with PROCTOR_COMPILE_CACHE=0", () => {
    const blocked = commandFile();
    mkdirSync(codeCacheFile(blocked) ?? "");
    writeFileSync(path.join(codeCacheFile(blocked) ?? "", "keep"), "");
    expect(runThroughCache(blocked)).toBe(EXPECTED(blocked));
    expect(readdirSync(path.dirname(blocked)).sort()).toEqual(["command.cjs", path.basename(codeCacheFile(blocked) ?? "")]);
    const off = commandFile();
    expect(runThroughCache(off, { PROCTOR_COMPILE_CACHE: "0" })).toBe(EXPECTED(off));
    expect(readdirSync(path.dirname(off))).toEqual(["command.cjs"]);
  });

  it("the bin leaves a cache that its next start accepts, after a command that loaded the shell parser", () => {
    const command = path.join(root, "dist/cli/standalone/bash-effect.cjs");
    const cache = codeCacheFile(command) ?? "";
    const run = () => expect(execFileSync(process.execPath, [CLI, "bash-effect", "ls | wc -l"], { encoding: "utf8" })).toBe("read-only\n");
    run();
    const written = statSync(cache).ino;
    // A rejected cache is replaced (a new file renamed over it); an accepted one is left alone.
    run();
    run();
    expect(statSync(cache).ino).toBe(written);
  });
});
