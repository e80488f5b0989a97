/**
 * Repository discovery as git 2.39's `setup.c` does it, from the files alone: which git
 * directory a command starting somewhere uses, and its common directory. Each rule errs one way:
 * where proctor's reading could differ from git's, it calls a directory *not* a repository, so
 * the walk goes on upwards and reads more configuration than git does, never less.
 *
 * - a gitfile (`.git` holding `gitdir: PATH`) loses only trailing `\n`/`\r` (a trailing blank
 *   is part of the path), and a relative PATH is taken from the gitfile's directory as the
 *   kernel takes it (`..` after a symbolic link from the link's target);
 * - `commondir` likewise; `GIT_COMMON_DIR` must be absolute (git reads a relative one from
 *   wherever it is when it looks);
 * - HEAD is valid as git's `validate_headref` says: a symbolic link whose text starts with
 *   `refs/` (its target need not exist), `ref:` and blanks and `refs/…`, or an object name; a
 *   bare repository is recognised by such a HEAD even when it is a dangling link;
 * - `objects` and `refs` need only be searchable (`access(X_OK)`), as in git.
 */
import { accessSync, constants, lstatSync, readFileSync, readlinkSync, type Stats } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { RepoConfigUnreadable, physicalPath, readText, realpathOr, statOrUndefined } from "./paths.js";

type Env = Readonly<Record<string, string | undefined>>;

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

/** git's limit on a gitfile (`read_gitfile_gently`). */
const MAX_GITFILE = 1 << 20;

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function searchable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Trailing line ends go; every other character, blanks included, is part of the path. */
const chompLineEnds = (text: string) => text.replace(/[\r\n]+$/, "");

/** The `commondir` of a git directory (a linked worktree keeps config, hooks and objects there). */
export function commonDirOf(gitDir: string, env: Env): string {
  const fromEnv = env.GIT_COMMON_DIR;
  if (fromEnv) {
    if (!isAbsolute(fromEnv)) throw new RepoConfigUnreadable(`GIT_COMMON_DIR is the relative path ${JSON.stringify(fromEnv)}, which git reads from whichever directory it is in at the time`);
    return fromEnv;
  }
  const text = readText(join(gitDir, "commondir"));
  if (text === undefined) return gitDir;
  const data = chompLineEnds(text);
  if (data === "") throw new RepoConfigUnreadable(`${join(gitDir, "commondir")} is empty (git would stop here)`);
  return physicalPath(gitDir, data);
}

/** git's `validate_headref`. */
function validHead(path: string): boolean {
  const s = lstatOrUndefined(path);
  if (!s) return false;
  try {
    if (s.isSymbolicLink()) return readlinkSync(path).startsWith("refs/");
    if (!s.isFile()) return false;
    const head = readFileSync(path, "latin1").slice(0, 255);
    if (head.startsWith("ref:")) return /^ref:\s*refs\//.test(head);
    return /^[0-9a-fA-F]{40}/.test(head);
  } catch {
    return false;
  }
}

/** git's `is_git_directory`: a valid HEAD, and a searchable `objects` and `refs` in the common directory. */
export function isGitDirectory(dir: string, env: Env): boolean {
  if (!validHead(join(dir, "HEAD"))) return false;
  let common: string;
  try {
    common = commonDirOf(dir, env);
  } catch {
    return false; // git would stop with an error; calling it no repository reads more
  }
  const objects = env.GIT_OBJECT_DIRECTORY;
  // A relative GIT_OBJECT_DIRECTORY is read from git's current directory: not a repository, to read more.
  if (objects !== undefined ? !isAbsolute(objects) || !searchable(objects) : !searchable(join(common, "objects"))) return false;
  return searchable(join(common, "refs"));
}

/** Follow a gitfile (`.git` holding `gitdir: PATH`), as `read_gitfile_gently` does. */
export function readGitfile(file: string): string {
  const s = statOrUndefined(file);
  if (s && s.size > MAX_GITFILE) throw new RepoConfigUnreadable(`${file} is too large to be a gitfile (git would stop here)`);
  const text = readText(file) ?? "";
  if (!text.startsWith("gitdir: ")) throw new RepoConfigUnreadable(`${file} is not a valid gitfile (git would stop here)`);
  const path = chompLineEnds(text).slice("gitdir: ".length);
  if (path === "") throw new RepoConfigUnreadable(`${file} names no git directory (git would stop here)`);
  return physicalPath(dirname(file), path);
}

export function repository(gitDir: string, env: Env, workTree: string | undefined): Repository {
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
    // HEAD may be a dangling link (`refs/heads/main` before the first commit): lstat, not stat.
    if (lstatOrUndefined(join(dir, "HEAD"))) {
      found.push(repository(dir, env, location.workTree));
      if (isGitDirectory(dir, env)) return found;
    }
    const parent = dirname(dir);
    if (parent === dir) return found;
    dir = parent;
  }
}
