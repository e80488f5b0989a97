/**
 * PATH safety: a bare command name (`git`, `ls`) is whatever program the shell finds first on
 * PATH. The text classifier assumes it is the system's. That fails when PATH holds a relative
 * entry (an empty entry or `.` is the current directory, which `cd` moves), a world-writable
 * entry without the sticky bit searched before the program (anyone can drop one ahead of it), or
 * when the program is found in a directory the current user can write inside the directory the
 * command runs in or its repository's work tree (`node_modules/.bin`, `./bin`): then it is the
 * repository's program.
 */
import { accessSync, constants, realpathSync, statSync, type Stats } from "node:fs";
import { delimiter, join, relative, isAbsolute } from "node:path";
import { undecidable, type BashVerdict } from "../verdict.js";

/** Bash builtins: never looked up on PATH. */
const BUILTINS = new Set([
  ".", ":", "[", "alias", "bg", "bind", "break", "builtin", "caller", "cd", "command", "compgen", "complete", "compopt", "continue",
  "declare", "dirs", "disown", "echo", "enable", "eval", "exec", "exit", "export", "false", "fc", "fg", "getopts", "hash", "help",
  "history", "jobs", "kill", "let", "local", "logout", "mapfile", "popd", "printf", "pushd", "pwd", "read", "readarray", "readonly",
  "return", "set", "shift", "shopt", "source", "suspend", "test", "times", "trap", "true", "type", "typeset", "ulimit", "umask",
  "unalias", "unset", "wait",
]);

/** Can the current user write `dir`? */
function isWritable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The system's program directories: trusted like the programs in them, even when the current
 * user (root) can write them, or the command runs in `/` or `/usr`.
 */
const SYSTEM_DIRS = ["/bin", "/sbin", "/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin"];
let systemReal: Set<string> | undefined;

function isSystemDir(real: string): boolean {
  systemReal ??= new Set(SYSTEM_DIRS.flatMap((d) => [d, realOr(d)]));
  return systemReal.has(real);
}

function realOr(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

function isInside(dir: string, root: string): boolean {
  const rel = relative(root, dir);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** Would the shell run `path`? (A regular file the current user may execute.) */
function isExecutableFile(path: string): boolean {
  try {
    const s = statSync(path, { throwIfNoEntry: false });
    if (!s?.isFile() || (s.mode & 0o111) === 0) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Is finding `name` on `path` safe from directories the command's surroundings control? Checks
 * every entry up to (and including) the one where the shell would find it; `undefined` when safe.
 * `controlled` gives the directories the repository controls (start directories and work trees);
 * `undefined` when unknown, and then any writable entry is. `exec`: the name is run by a program
 * (`env echo`, `xargs` and its implicit `echo`) through execvp, where no builtin stands in.
 */
export function checkPathLookup(name: string, path: string | undefined, controlled: () => readonly string[] | undefined, exec = false): BashVerdict | undefined {
  if (name.includes("/") || (!exec && BUILTINS.has(name)) || path === undefined) return undefined;
  for (const entry of path.split(delimiter)) {
    if (entry === "" || !isAbsolute(entry)) {
      return undecidable(`PATH holds the relative entry ${JSON.stringify(entry)}, so \`${name}\` could be a program in the directory the command runs in`);
    }
    let stats: Stats | undefined;
    try {
      stats = statSync(entry, { throwIfNoEntry: false });
    } catch {
      stats = undefined; // not a directory: nothing can be found there
    }
    if (!stats) continue;
    // Anyone may drop a program here at any moment, ahead of the one meant.
    if ((stats.mode & 0o002) !== 0 && (stats.mode & 0o1000) === 0) {
      return undecidable(`PATH holds ${entry}, which anyone can write (no sticky bit), so \`${name}\` could be anyone's program`);
    }
    if (!isExecutableFile(join(entry, name))) continue;
    // Found. A directory the repository controls holds the repository's program, not the system's.
    // (One that only *could* hold it is harmless now: putting a program there is a write, which
    // makes the line that does it not read-only, and the gate checks every call afresh.)
    const real = realOr(entry);
    if (isSystemDir(real) || !isWritable(entry)) return undefined;
    const roots = controlled()?.map(realOr);
    if (roots === undefined || roots.some((r) => isInside(real, r))) {
      return undecidable(`\`${name}\` resolves to ${join(entry, name)}, in a writable PATH directory inside the directory the command runs in: the repository's own program, not the system's`);
    }
    return undefined;
  }
  return undefined;
}
