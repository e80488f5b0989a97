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
 * build is never offered for this one.
 *
 * V8 does not check a cache's bytes (a damaged cache can crash the process), so the file holds
 * V8's data twice and a copy that differs from its twin is damage: one memcmp, where hashing it
 * costs milliseconds at start-up (~2 ms in JavaScript, ~5 ms to load node:crypto; V8's own
 * checksum needs its flags set, and node:v8 costs ~3 ms to load). Flags a command sets for
 * itself go through {@link setV8Flags}, which first takes the caches still to be written, under
 * the flags they were read with (V8 rejects a cache made under other flags).
 */
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

/**
 * What every copy of this module in the process shares (the bin holds one, each single-file command
 * another, for its vendored packages): the files run, the caches still to write, the flags set.
 */
interface CacheState {
  readonly loaded: Map<string, unknown>;
  /** Caches to write at exit; `data` is taken early when the V8 flags change before then. */
  readonly pending: { script: Script; cacheFile: string; refreshes: number; data?: Buffer }[];
  /** The V8 flags set through {@link setV8Flags}, in order: part of every later cache's name. */
  readonly flags: string[];
}

const STATE = Symbol.for("proctor.code-cache");
const shared = globalThis as { [STATE]?: CacheState };
shared[STATE] ??= { loaded: new Map(), pending: [], flags: [] };
const state: CacheState = shared[STATE];

/** The cache file for `file` under this process's V8 and flags, or `undefined` when caching is off. */
export function codeCacheFile(file: string): string | undefined {
  if (process.env.PROCTOR_COMPILE_CACHE === "0") return undefined;
  // A cache made under other flags is one V8 rejects: a script compiled after a command set its
  // flags has its own cache, so the two kinds of start never keep replacing each other's.
  const flags = state.flags.map((f) => `.${f.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "")}`).join("");
  return `${file}.${buildIdOf(file)}.${process.arch}-v8-${process.versions.v8}${flags}.cache`;
}

/**
 * `require(file)` (an absolute path) through the code cache: the module's exports, each file run
 * once per process. The bin runs a single-file command this way; the commands load their inlined packages (yaml, re2js, picomatch: tens of
 * milliseconds each from node_modules) this way, each from its own file and cache, when first used.
 */
export function requireCommonJs(file: string): unknown {
  if (state.loaded.has(file)) return state.loaded.get(file);
  const cacheFile = codeCacheFile(file);
  if (cacheFile === undefined) {
    const exports = createRequire(file)(file) as unknown;
    state.loaded.set(file, exports);
    return exports;
  }
  const cached = readCodeCache(cacheFile);
  const script = compileCommonJs(file, cached?.data);
  const accepted = cached !== undefined && script.cachedDataRejected !== true;
  // Made at exit, so the cache holds the functions this command compiled, not only the top level;
  // remade by the next few runs, each adding what it compiled (see REFRESHES).
  if (!accepted || cached.refreshes < REFRESHES) {
    if (state.pending.length === 0) process.once("exit", writePendingCaches);
    state.pending.push({ script, cacheFile, refreshes: accepted ? cached.refreshes + 1 : 0 });
  }
  const module: { exports: unknown } = { exports: {} };
  state.loaded.set(file, module.exports);
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, path.dirname(file));
  state.loaded.set(file, module.exports);
  return module.exports;
}

/**
 * Sets V8 flags for the rest of the process (`setFlagsFromString`), first taking the caches still to
 * be written: made at exit, under the new flags, they would be rejected by the next start, which
 * reads them before it sets any.
 */
export function setV8Flags(flags: string): void {
  if (state.flags.includes(flags)) return;
  for (const entry of state.pending) entry.data ??= entry.script.createCachedData();
  state.flags.push(flags);
  // Loaded here, not at start-up: node:v8 costs ~3 ms to load, and most commands set no flags.
  (createRequire(import.meta.url)("node:v8") as typeof import("node:v8")).setFlagsFromString(flags);
}

/**
 * How many runs after the first remake the cache. A cache holds the functions its run compiled,
 * and a run compiles only what it uses: a first `proctor gate` on a Read call would leave out the
 * shell classifier, and every later Bash call would compile it again (~4 ms). Each of the next runs
 * writes a cache of what it loaded plus what it compiled (~3 ms once each); then it is left alone.
 * A run that sets V8 flags (the shell parser's) contributes what it compiled before them.
 */
const REFRESHES = 8;

/** The file's own header: a tag naming this format, the refreshes so far, the length of each of V8's two copies. */
const TAG = 0x33636370; // "pcc3", little-endian
const PREFIX = 12;
/** Far above any bundle's cache (about a megabyte): a bigger file is not one this code wrote. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * The V8 code cache stored in `cacheFile` and how often it was remade, or `undefined` when there is
 * none this code wrote intact: absent, not a regular file (a directory, a FIFO, a link to a device —
 * opened without blocking, never read), oversized, cut short, or with copies that differ.
 */
export function readCodeCache(cacheFile: string): { data: Buffer; refreshes: number } | undefined {
  let fd: number;
  try {
    fd = openSync(cacheFile, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined; // No cache yet.
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size <= PREFIX || stat.size > MAX_CACHE_BYTES) return undefined;
    const stored = readFileSync(fd);
    if (stored.length <= PREFIX || stored.readUInt32LE(0) !== TAG) return undefined;
    const length = stored.readUInt32LE(8);
    if (length === 0 || stored.length !== PREFIX + 2 * length) return undefined;
    const data = stored.subarray(PREFIX, PREFIX + length);
    return data.equals(stored.subarray(PREFIX + length)) ? { data, refreshes: stored.readUInt32LE(4) } : undefined;
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

function writePendingCaches(): void {
  for (const { script, cacheFile, refreshes, data } of state.pending.splice(0)) writeCache(data ?? script.createCachedData(), refreshes, cacheFile);
}

function writeCache(data: Buffer, refreshes: number, cacheFile: string): void {
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  try {
    const prefix = Buffer.alloc(PREFIX);
    prefix.writeUInt32LE(TAG, 0);
    prefix.writeUInt32LE(refreshes, 4);
    prefix.writeUInt32LE(data.length, 8);
    writeFileSync(temporary, Buffer.concat([prefix, data, data]));
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
