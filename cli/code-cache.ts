/**
 * Runs one of the CLI's single-file CommonJS commands as `require` would, but from V8's code cache
 * when one is there: compiling a 200–400 KB bundle is a large part of a short command's start-up
 * (`proctor gate` runs before every tool call), and Node 20 keeps no compile cache of its own.
 *
 * The cache sits beside the bundle (`NAME.cjs.<build id>.<arch>-v8-<version>.cache`), inside
 * proctor's own install, so it is exactly as trusted as the code beside it; it is written after the
 * first run with a Node, replaced atomically when V8 rejects it (another V8, other flags, a damaged
 * file), and simply not written where the install is read-only. `PROCTOR_COMPILE_CACHE=0` turns it
 * off (plain `require`). V8 checks a cache against its source's length only, so the name carries the
 * bundle's content hash from the build (`build-ids.json` beside it): a cache left from another
 * build is never offered for this one. Nor does V8 check the cache's own bytes (a damaged one can
 * crash the process), so the file starts with a SHA-256 of the rest, and only a regular file of
 * sane size whose digest matches is offered at all.
 */
import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Script } from "node:vm";

/** The manifest scripts/bundle.mjs writes beside its CommonJS files: file name → content hash. */
export const BUILD_IDS = "build-ids.json";

const manifests = new Map<string, Record<string, string>>();

/**
 * What identifies this build of `file`: its content hash from the build's manifest; for a file
 * the build did not write, its size, inode and modification time (any rewrite changes one).
 */
function buildIdOf(file: string): string {
  const dir = path.dirname(file);
  let ids = manifests.get(dir);
  if (ids === undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path.join(dir, BUILD_IDS), "utf8"));
    } catch {
      parsed = undefined;
    }
    // A damaged manifest (`null`, a list, a number) names no build: the file's own stat does.
    ids = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
    manifests.set(dir, ids);
  }
  const id = Object.hasOwn(ids, path.basename(file)) ? ids[path.basename(file)] : undefined;
  if (typeof id === "string" && /^[0-9a-f]{8,64}$/.test(id)) return id;
  const stat = statSync(file);
  return `${stat.size}-${stat.ino}-${Math.trunc(stat.mtimeMs)}`;
}

/** The cache file for `file` under this process's V8, or `undefined` when caching is off. */
export function codeCacheFile(file: string): string | undefined {
  if (process.env.PROCTOR_COMPILE_CACHE === "0") return undefined;
  return `${file}.${buildIdOf(file)}.${process.arch}-v8-${process.versions.v8}.cache`;
}

const loaded = new Map<string, unknown>();

/**
 * `require(file)` (an absolute path) through the code cache: the module's exports, each file run
 * once per process. The bin runs a single-file command this way; the commands load their inlined packages (yaml, re2js, picomatch: tens of
 * milliseconds each from node_modules) this way, each from its own file and cache, when first used.
 */
export function requireCommonJs(file: string): unknown {
  if (loaded.has(file)) return loaded.get(file);
  const cacheFile = codeCacheFile(file);
  if (cacheFile === undefined) {
    const exports = createRequire(file)(file) as unknown;
    loaded.set(file, exports);
    return exports;
  }
  const cachedData = readCodeCache(cacheFile);
  const script = compileCommonJs(file, cachedData);
  if (cachedData === undefined || script.cachedDataRejected === true) {
    // After the run, so the cache holds the functions this command compiled, not only the top level.
    process.once("exit", () => writeCache(script, cacheFile));
  }
  const module: { exports: unknown } = { exports: {} };
  loaded.set(file, module.exports);
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, path.dirname(file));
  loaded.set(file, module.exports);
  return module.exports;
}

const DIGEST = 32;
/** Far above any bundle's cache (about a megabyte): a bigger file is not one this code wrote. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

const digestOf = (data: Uint8Array) => createHash("sha256").update(data).digest();

/**
 * The V8 code cache stored in `cacheFile`, or `undefined` when there is none this code wrote intact:
 * absent, not a regular file (a directory, a FIFO, a link to a device — opened without blocking,
 * never read), oversized, or failing its digest.
 */
export function readCodeCache(cacheFile: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(cacheFile, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined; // No cache yet.
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size <= DIGEST || stat.size > MAX_CACHE_BYTES) return undefined;
    const stored = readFileSync(fd);
    const data = stored.subarray(DIGEST);
    return digestOf(data).equals(stored.subarray(0, DIGEST)) ? data : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** `file` compiled as a CommonJS module body, with `cachedData` offered to V8 (see `cachedDataRejected`). */
export function compileCommonJs(file: string, cachedData?: Buffer): Script {
  // The wrapper keeps the file's line numbers: stack traces point where they would under require.
  const source = `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, "utf8")}\n})`;
  return new Script(source, { filename: file, ...(cachedData ? { cachedData } : {}) });
}

function writeCache(script: Script, cacheFile: string): void {
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  try {
    const data = script.createCachedData();
    writeFileSync(temporary, Buffer.concat([digestOf(data), data]));
    renameSync(temporary, cacheFile);
  } catch {
    // A read-only install: the next run compiles the bundle again, nothing else changes.
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Something else holds that name (a directory): not ours to remove, and no reason to fail the command at its exit.
    }
  }
}
