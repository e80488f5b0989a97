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
 * - the configurations of submodules (under `modules/`, a `.gitmodules` path or a gitlink of the
 *   index with its own `.git`) are read too: status and diff run git inside them;
 * - every `core.worktree` a repository's configuration sets names a work tree (for
 *   `.gitmodules`, gitlinks, hooks and PATH), whichever git would use.
 * An unreadable file, an include that cannot be resolved, or a file git could not parse is an
 * error naming the file: the caller answers undecidable.
 */
import { readdirSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { parseConfig, parseConfigParameters, splitKey, type ConfigEntry } from "./config-syntax.js";
import { findRepositories, readGitfile, repository, type GitLocation, type Repository } from "./discovery.js";
import { gitlinkPaths } from "./git-index.js";
import { RepoConfigUnreadable, physicalPath, readText, statOrUndefined } from "./paths.js";

export { findRepositories, type GitLocation, type Repository } from "./discovery.js";

export interface EffectiveConfig {
  readonly entries: readonly ConfigEntry[];
  readonly repositories: readonly Repository[];
}

export type ConfigResult = EffectiveConfig | { readonly error: string };

type Env = Readonly<Record<string, string | undefined>>;

/** git's MAX_INCLUDE_DEPTH: deeper nesting is an error in git too. */
const MAX_INCLUDE_DEPTH = 10;
const SUBMODULE_DEPTH = 4;

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
  if (stats.isDirectory()) throw new RepoConfigUnreadable(`${path} is a directory, not a configuration file`);
  const stamp = `${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}:${stats.ino}`;
  const cached = fileCache.get(path);
  if (cached?.stamp === stamp) return cached.entries;
  const text = readText(path);
  if (text === undefined) return undefined;
  const parsed = parseConfig(text, path);
  if ("error" in parsed) throw new RepoConfigUnreadable(`${parsed.error} (git would refuse this configuration)`);
  fileCache.set(path, { stamp, entries: parsed.entries });
  return parsed.entries;
}

const isInclude = (e: ConfigEntry) => e.name === "path" && ((e.section === "include" && e.subsection === undefined) || (e.section === "includeif" && e.subsection !== undefined));

/** Resolve an include path as git does: `~/` is HOME, a relative path is relative to the including file. */
function includeTarget(entry: ConfigEntry, from: string | undefined, env: Env): string {
  const value = entry.value;
  if (value === undefined || value === "") throw new RepoConfigUnreadable(`${entry.origin}: ${entry.section}.path has no value`);
  if (value.startsWith("~/") || value === "~") {
    if (!env.HOME) throw new RepoConfigUnreadable(`${entry.origin}: cannot resolve the include ${value} without HOME`);
    return join(env.HOME, value.slice(1));
  }
  if (value.startsWith("~") || value.startsWith("%(")) throw new RepoConfigUnreadable(`${entry.origin}: proctor cannot resolve the include ${value}`);
  if (isAbsolute(value)) return value;
  if (from === undefined) throw new RepoConfigUnreadable(`${entry.origin}: a relative include (${value}) outside a file`);
  return resolve(dirname(from), value);
}

/** Entries of `entries` with every include expanded in place, recursively. */
function expand(entries: readonly ConfigEntry[], from: string | undefined, env: Env, depth: number, out: ConfigEntry[]): void {
  for (const entry of entries) {
    out.push(entry);
    if (!isInclude(entry)) continue;
    if (depth >= MAX_INCLUDE_DEPTH) throw new RepoConfigUnreadable(`${entry.origin}: includes nest deeper than git allows (${MAX_INCLUDE_DEPTH})`);
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
    if (!parsed) throw new RepoConfigUnreadable("GIT_CONFIG_PARAMETERS does not parse");
    out.push(...parsed);
  }
  const count = env.GIT_CONFIG_COUNT;
  if (count !== undefined && count !== "") {
    const n = Number(count);
    if (!Number.isInteger(n) || n < 0) throw new RepoConfigUnreadable(`GIT_CONFIG_COUNT is not a count: ${JSON.stringify(count)}`);
    for (let k = 0; k < n; k++) {
      const key = env[`GIT_CONFIG_KEY_${k}`];
      const entry = key === undefined ? undefined : splitKey(key, `GIT_CONFIG_KEY_${k}`);
      if (!entry) throw new RepoConfigUnreadable(`GIT_CONFIG_KEY_${k} is missing or not a key`);
      const value = env[`GIT_CONFIG_VALUE_${k}`];
      out.push(value === undefined ? entry : { ...entry, value });
    }
  }
  const expanded: ConfigEntry[] = [];
  expand(out, undefined, env, 0, expanded);
  return expanded;
}

/**
 * `repo`, and the same repository with each work tree its configuration names (`core.worktree`,
 * relative to the git directory as git takes it): every value counts, whatever overrides it.
 */
function withConfiguredWorkTrees(repo: Repository, env: Env): Repository[] {
  const own: ConfigEntry[] = [];
  readFileWithIncludes(join(repo.commonDir, "config"), env, own);
  readFileWithIncludes(join(repo.gitDir, "config.worktree"), env, own);
  const out = [repo];
  for (const e of own) {
    if (e.section !== "core" || e.subsection !== undefined || e.name !== "worktree" || !e.value) continue;
    const workTree = physicalPath(repo.gitDir, e.value);
    if (workTree !== repo.workTree) out.push({ ...repo, workTree });
  }
  return out;
}

/** Where a submodule's `.git` (directory or gitfile) names one, its repository with that work tree. */
function checkedOut(top: string, env: Env): Repository | undefined {
  const dotGit = join(top, ".git");
  const s = statOrUndefined(dotGit);
  if (!s) return undefined;
  return repository(s.isFile() ? readGitfile(dotGit) : dotGit, env, top);
}

/**
 * Submodule repositories: every `modules/**` git directory, each `.gitmodules` path with a `.git`
 * of its own, and each gitlink of the index with one — `git status` and `git diff` run git in a
 * gitlink's directory whether or not `.gitmodules` names it.
 */
function submodulesOf(repo: Repository, env: Env, depth: number, out: Repository[]): void {
  if (depth > SUBMODULE_DEPTH) return;
  const add = (sub: Repository) => {
    for (const r of withConfiguredWorkTrees(sub, env)) {
      out.push(r);
      submodulesOf(r, env, depth + 1, out);
    }
  };
  const scan = (dir: string, level: number) => {
    if (level > SUBMODULE_DEPTH || !statOrUndefined(dir)?.isDirectory()) return;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch (error) {
      if (["ENOENT", "ENOTDIR"].includes((error as NodeJS.ErrnoException).code ?? "")) return;
      throw new RepoConfigUnreadable(`cannot list ${dir} (${(error as Error).message})`);
    }
    for (const name of names) {
      const sub = join(dir, name);
      if (!statOrUndefined(sub)?.isDirectory()) continue;
      if (statOrUndefined(join(sub, "config"))) add(repository(sub, env, undefined));
      else scan(sub, level + 1); // a submodule name with a slash: modules/lib/name
    }
  };
  scan(join(repo.commonDir, "modules"), depth);
  if (repo.workTree === undefined) return;
  const paths = new Set<string>();
  for (const entry of readConfigFile(join(repo.workTree, ".gitmodules")) ?? []) {
    if (entry.section === "submodule" && entry.name === "path" && entry.value !== undefined) paths.add(entry.value);
  }
  for (const path of gitlinkPaths(repo.gitDir)) paths.add(path);
  const indexFile = depth === 0 ? env.GIT_INDEX_FILE : undefined;
  if (indexFile) for (const path of gitlinkPaths(repo.gitDir, resolve(repo.workTree, indexFile))) paths.add(path);
  for (const path of paths) {
    const sub = checkedOut(resolve(repo.workTree, path), env);
    if (sub) add(sub);
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
    const main = findRepositories(location, env).flatMap((r) => withConfiguredWorkTrees(r, env));
    const repositories: Repository[] = [...main];
    for (const repo of main) submodulesOf(repo, env, 0, repositories);
    const read = new Set<string>();
    for (const repo of repositories) {
      // extensions.worktreeConfig decides whether git reads config.worktree; reading it whenever it exists is a superset.
      for (const file of [join(repo.commonDir, "config"), join(repo.gitDir, "config.worktree"), join(repo.commonDir, "config.worktree")]) {
        if (read.has(file)) continue;
        read.add(file);
        readFileWithIncludes(file, env, entries);
      }
    }
    entries.push(...environmentEntries(env));
    return { entries, repositories };
  } catch (error) {
    if (error instanceof RepoConfigUnreadable) return { error: error.message };
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
