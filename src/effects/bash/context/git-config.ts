/**
 * The effective git configuration a command would see, read from the files git reads — never by
 * running git, since this is the pure core and the gate runs before every tool call.
 *
 * Sound simplifications, each a superset of what git reads:
 * - every `include.path` and `includeIf.<condition>.path` is followed, whatever the condition;
 * - both `/etc/gitconfig` and `/usr/local/etc/gitconfig` are system files (git reads the one its
 *   build names), and `GIT_CONFIG` is read too (only `git config` honours it);
 * - repository discovery ignores `GIT_CEILING_DIRECTORIES`, `safe.directory` and
 *   `safe.bareRepository` (which only make git stop earlier or refuse), and a `.git` that does
 *   not look like a repository is read *and* the walk goes on upwards, as git's would;
 * - the configurations of submodules (under `modules/`, or a `.gitmodules` path with its own
 *   `.git`) are read too: status and diff run git inside them.
 * An unreadable file, an include that cannot be resolved, or a file git could not parse is an
 * error naming the file: the caller answers undecidable.
 */
import { readFileSync, readdirSync, realpathSync, statSync, type Stats } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { parseConfig, parseConfigParameters, splitKey, type ConfigEntry } from "./config-syntax.js";

/** Where a git command starts looking for its repository. */
export interface GitLocation {
  /** The directory git runs in, after every `-C`. */
  readonly start: string;
  /** `--git-dir` or `GIT_DIR`, resolved against `start`. */
  readonly gitDir?: string;
  /** `--work-tree` or `GIT_WORK_TREE`, resolved against `start`. */
  readonly workTree?: string;
}

/** One repository whose configuration applies. */
export interface Repository {
  readonly gitDir: string;
  /** Where `config`, `hooks/` and `modules/` live (`commondir` for a linked worktree). */
  readonly commonDir: string;
  readonly workTree?: string;
}

export interface EffectiveConfig {
  readonly entries: readonly ConfigEntry[];
  readonly repositories: readonly Repository[];
}

export type ConfigResult = EffectiveConfig | { readonly error: string };

type Env = Readonly<Record<string, string | undefined>>;

/** git's MAX_INCLUDE_DEPTH: deeper nesting is an error in git too. */
const MAX_INCLUDE_DEPTH = 10;
const SUBMODULE_DEPTH = 4;

class ConfigError extends Error {}

const missing = (error: unknown): boolean => ["ENOENT", "ENOTDIR"].includes((error as NodeJS.ErrnoException).code ?? "");

function statOrUndefined(path: string): Stats | undefined {
  try {
    // No exception for the common case, a file that is not there: the gate runs per tool call.
    return statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if (missing(error)) return undefined;
    throw new ConfigError(`cannot inspect ${path} (${(error as Error).message})`);
  }
}

function readText(path: string): string | undefined {
  if (!statOrUndefined(path)) return undefined;
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if (missing(error)) return undefined;
    throw new ConfigError(`cannot read ${path} (${(error as Error).message})`);
  }
}

interface CachedFile {
  readonly stamp: string;
  readonly entries: ConfigEntry[];
}

/** Parsed files, keyed by path and checked against size, mtime and inode on every use. */
const fileCache = new Map<string, CachedFile>();

/** One configuration file's own entries (includes not followed); `undefined` when it does not exist. */
function readConfigFile(path: string): ConfigEntry[] | undefined {
  const stats = statOrUndefined(path);
  if (!stats) return undefined;
  if (stats.isDirectory()) throw new ConfigError(`${path} is a directory, not a configuration file`);
  const stamp = `${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}:${stats.ino}`;
  const cached = fileCache.get(path);
  if (cached?.stamp === stamp) return cached.entries;
  const text = readText(path);
  if (text === undefined) return undefined;
  const parsed = parseConfig(text, path);
  if ("error" in parsed) throw new ConfigError(`${parsed.error} (git would refuse this configuration)`);
  fileCache.set(path, { stamp, entries: parsed.entries });
  return parsed.entries;
}

const isInclude = (e: ConfigEntry) => e.name === "path" && ((e.section === "include" && e.subsection === undefined) || (e.section === "includeif" && e.subsection !== undefined));

/** Resolve an include path as git does: `~/` is HOME, a relative path is relative to the including file. */
function includeTarget(entry: ConfigEntry, from: string | undefined, env: Env): string {
  const value = entry.value;
  if (value === undefined || value === "") throw new ConfigError(`${entry.origin}: ${entry.section}.path has no value`);
  if (value.startsWith("~/") || value === "~") {
    if (!env.HOME) throw new ConfigError(`${entry.origin}: cannot resolve the include ${value} without HOME`);
    return join(env.HOME, value.slice(1));
  }
  if (value.startsWith("~") || value.startsWith("%(")) throw new ConfigError(`${entry.origin}: proctor cannot resolve the include ${value}`);
  if (isAbsolute(value)) return value;
  if (from === undefined) throw new ConfigError(`${entry.origin}: a relative include (${value}) outside a file`);
  return resolve(dirname(from), value);
}

/** Entries of `entries` with every include expanded in place, recursively. */
function expand(entries: readonly ConfigEntry[], from: string | undefined, env: Env, depth: number, out: ConfigEntry[]): void {
  for (const entry of entries) {
    out.push(entry);
    if (!isInclude(entry)) continue;
    if (depth >= MAX_INCLUDE_DEPTH) throw new ConfigError(`${entry.origin}: includes nest deeper than git allows (${MAX_INCLUDE_DEPTH})`);
    const target = includeTarget(entry, from, env);
    const included = readConfigFile(target);
    // git skips an include that does not exist; nothing in it can run.
    if (included) expand(included, target, env, depth + 1, out);
  }
}

function readFileWithIncludes(path: string, env: Env, out: ConfigEntry[]): void {
  const entries = readConfigFile(path);
  if (entries) expand(entries, path, env, 0, out);
}

/** `GIT_CONFIG_NOSYSTEM` and friends are git booleans. */
const envTrue = (value: string | undefined) => value !== undefined && /^(?:1|true|yes|on)$/i.test(value.trim());

function systemFiles(env: Env): string[] {
  if (envTrue(env.GIT_CONFIG_NOSYSTEM)) return [];
  if (env.GIT_CONFIG_SYSTEM !== undefined) return env.GIT_CONFIG_SYSTEM === "" ? [] : [env.GIT_CONFIG_SYSTEM];
  return ["/etc/gitconfig", "/usr/local/etc/gitconfig"];
}

function globalFiles(env: Env): string[] {
  if (env.GIT_CONFIG_GLOBAL !== undefined) return env.GIT_CONFIG_GLOBAL === "" ? [] : [env.GIT_CONFIG_GLOBAL];
  const files: string[] = [];
  const xdg = env.XDG_CONFIG_HOME ? join(env.XDG_CONFIG_HOME, "git", "config") : env.HOME ? join(env.HOME, ".config", "git", "config") : undefined;
  if (xdg) files.push(xdg);
  if (env.HOME) files.push(join(env.HOME, ".gitconfig"));
  return files;
}

/** `-c`-style configuration from the environment: `GIT_CONFIG_PARAMETERS` and `GIT_CONFIG_COUNT`. */
function environmentEntries(env: Env): ConfigEntry[] {
  const out: ConfigEntry[] = [];
  const params = env.GIT_CONFIG_PARAMETERS;
  if (params !== undefined && params.trim() !== "") {
    const parsed = parseConfigParameters(params);
    if (!parsed) throw new ConfigError("GIT_CONFIG_PARAMETERS does not parse");
    out.push(...parsed);
  }
  const count = env.GIT_CONFIG_COUNT;
  if (count !== undefined && count !== "") {
    const n = Number(count);
    if (!Number.isInteger(n) || n < 0) throw new ConfigError(`GIT_CONFIG_COUNT is not a count: ${JSON.stringify(count)}`);
    for (let k = 0; k < n; k++) {
      const key = env[`GIT_CONFIG_KEY_${k}`];
      const entry = key === undefined ? undefined : splitKey(key, `GIT_CONFIG_KEY_${k}`);
      if (!entry) throw new ConfigError(`GIT_CONFIG_KEY_${k} is missing or not a key`);
      const value = env[`GIT_CONFIG_VALUE_${k}`];
      out.push(value === undefined ? entry : { ...entry, value });
    }
  }
  const expanded: ConfigEntry[] = [];
  expand(out, undefined, env, 0, expanded);
  return expanded;
}

const HEAD_CONTENT = /^(?:ref: refs\/|[0-9a-f]{40}\s*$|[0-9a-f]{64}\s*$)/;

/** The `commondir` of a git directory (a linked worktree keeps config, hooks and objects there). */
function commonDirOf(gitDir: string, env: Env): string {
  if (env.GIT_COMMON_DIR) return resolve(gitDir, env.GIT_COMMON_DIR);
  const text = readText(join(gitDir, "commondir"));
  return text === undefined ? gitDir : resolve(gitDir, text.trim());
}

/** git's `is_git_directory`: a valid HEAD, and `objects/` and `refs/` in the common directory. */
function isGitDirectory(dir: string, env: Env): boolean {
  const head = readTextQuietly(join(dir, "HEAD"));
  if (head === undefined || !HEAD_CONTENT.test(head)) return false;
  const common = commonDirOf(dir, env);
  return (env.GIT_OBJECT_DIRECTORY !== undefined || statOrUndefined(join(common, "objects"))?.isDirectory() === true) && statOrUndefined(join(common, "refs"))?.isDirectory() === true;
}

function readTextQuietly(path: string): string | undefined {
  const s = statOrUndefined(path);
  return s?.isFile() ? readText(path) : undefined;
}

/** Follow a gitfile (`.git` holding `gitdir: PATH`). */
function readGitfile(file: string): string {
  const text = readText(file) ?? "";
  const m = /^gitdir: (.*?)\s*$/m.exec(text);
  if (!m || !text.startsWith("gitdir: ")) throw new ConfigError(`${file} is not a valid gitfile (git would stop here)`);
  return resolve(dirname(file), m[1] ?? "");
}

function repository(gitDir: string, env: Env, workTree: string | undefined): Repository {
  return { gitDir, commonDir: commonDirOf(gitDir, env), ...(workTree === undefined ? {} : { workTree }) };
}

/** The repositories git may use from `location`: the one it finds, plus any look-alike passed on the way. */
export function findRepositories(location: GitLocation, env: Env): Repository[] {
  if (location.gitDir !== undefined) {
    const s = statOrUndefined(location.gitDir);
    const gitDir = s?.isFile() ? readGitfile(location.gitDir) : location.gitDir;
    return [repository(gitDir, env, location.workTree ?? location.start)];
  }
  const found: Repository[] = [];
  let dir = realpathOr(location.start);
  for (;;) {
    const dotGit = join(dir, ".git");
    const s = statOrUndefined(dotGit);
    if (s) {
      const gitDir = s.isFile() ? readGitfile(dotGit) : dotGit;
      found.push(repository(gitDir, env, location.workTree ?? dir));
      if (isGitDirectory(gitDir, env)) return found;
    }
    // A bare repository: the directory itself (an embedded one committed inside a project, too).
    if (statOrUndefined(join(dir, "HEAD"))?.isFile()) {
      found.push(repository(dir, env, location.workTree));
      if (isGitDirectory(dir, env)) return found;
    }
    const parent = dirname(dir);
    if (parent === dir) return found;
    dir = parent;
  }
}

function realpathOr(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return resolve(path);
  }
}

/** Submodule repositories: every `modules/**` git directory, and each `.gitmodules` path with a `.git` of its own. */
function submodulesOf(repo: Repository, env: Env, depth: number, out: Repository[]): void {
  if (depth > SUBMODULE_DEPTH) return;
  const scan = (dir: string, level: number) => {
    if (level > SUBMODULE_DEPTH || !statOrUndefined(dir)?.isDirectory()) return;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch (error) {
      if (missing(error)) return;
      throw new ConfigError(`cannot list ${dir} (${(error as Error).message})`);
    }
    for (const name of names) {
      const sub = join(dir, name);
      if (!statOrUndefined(sub)?.isDirectory()) continue;
      if (statOrUndefined(join(sub, "config"))) {
        out.push(repository(sub, env, undefined));
        scan(join(sub, "modules"), level + 1);
      } else {
        scan(sub, level + 1); // a submodule name with a slash: modules/lib/name
      }
    }
  };
  scan(join(repo.commonDir, "modules"), depth);
  if (repo.workTree === undefined) return;
  const gitmodules = readConfigFile(join(repo.workTree, ".gitmodules"));
  for (const entry of gitmodules ?? []) {
    if (entry.section !== "submodule" || entry.name !== "path" || entry.value === undefined) continue;
    const top = resolve(repo.workTree, entry.value);
    const dotGit = join(top, ".git");
    const s = statOrUndefined(dotGit);
    if (!s) continue;
    const sub = repository(s.isFile() ? readGitfile(dotGit) : dotGit, env, top);
    out.push(sub);
    submodulesOf(sub, env, depth + 1, out);
  }
}

/**
 * Every configuration entry a git command starting at `location` may see, from every file and
 * environment variable git reads, includes expanded — or an error naming what could not be read.
 */
export function readEffectiveConfig(location: GitLocation, env: Env): ConfigResult {
  try {
    const entries: ConfigEntry[] = [];
    for (const file of [...systemFiles(env), ...globalFiles(env)]) readFileWithIncludes(file, env, entries);
    if (env.GIT_CONFIG) readFileWithIncludes(resolve(location.start, env.GIT_CONFIG), env, entries);
    const main = findRepositories(location, env);
    const repositories: Repository[] = [...main];
    for (const repo of main) submodulesOf(repo, env, 0, repositories);
    for (const repo of repositories) {
      readFileWithIncludes(join(repo.commonDir, "config"), env, entries);
      // extensions.worktreeConfig decides whether git reads it; reading it whenever it exists is a superset.
      readFileWithIncludes(join(repo.gitDir, "config.worktree"), env, entries);
      if (repo.gitDir !== repo.commonDir) readFileWithIncludes(join(repo.commonDir, "config.worktree"), env, entries);
    }
    entries.push(...environmentEntries(env));
    return { entries, repositories };
  } catch (error) {
    if (error instanceof ConfigError) return { error: error.message };
    return { error: `proctor could not read the git configuration (${(error as Error).message})` };
  }
}

/** Does `path` exist (a hook file, say)? Errors other than absence count as existing: fail closed. */
export function pathExists(path: string): boolean {
  try {
    return statOrUndefined(path) !== undefined;
  } catch {
    return true;
  }
}
