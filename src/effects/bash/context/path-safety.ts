/**
 * PATH safety: a bare command name (`git`, `ls`) is whatever program the shell finds first on
 * PATH. The text classifier assumes it is the system's. That holds only when no directory the
 * shell searches before finding it can be filled by the repository or by the command's own
 * working directory: a relative entry (an empty entry or `.` means the current directory), an
 * entry inside the directory the command runs in that the current user can write, or a
 * world-writable entry without the sticky bit.
 */
import { accessSync, constants, realpathSync, statSync } from "node:fs";
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

interface EntryFacts {
  readonly real?: string;
  readonly writable: boolean;
  readonly worldWritable: boolean;
}

const entryCache = new Map<string, EntryFacts>();

/** What matters about one absolute PATH entry (cached per process: PATH rarely changes). */
function entryFacts(entry: string): EntryFacts {
  const cached = entryCache.get(entry);
  if (cached) return cached;
  let facts: EntryFacts;
  try {
    const s = statSync(entry);
    let writable = true;
    try {
      accessSync(entry, constants.W_OK);
    } catch {
      writable = false;
    }
    facts = { real: realpathSync(entry), writable, worldWritable: (s.mode & 0o002) !== 0 && (s.mode & 0o1000) === 0 };
  } catch {
    facts = { writable: false, worldWritable: false }; // absent: nothing can be found there
  }
  entryCache.set(entry, facts);
  return facts;
}

function isInside(dir: string, root: string): boolean {
  const rel = relative(root, dir);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Is finding `name` on `path` safe from directories the command's surroundings control? Checks
 * every entry up to (and including) the one where the shell would find it; `undefined` when safe.
 * `cwds` are the directories the command may run in; without them, any writable entry is unsafe.
 */
export function checkPathLookup(name: string, path: string | undefined, cwds: readonly string[] | undefined): BashVerdict | undefined {
  if (name.includes("/") || BUILTINS.has(name) || path === undefined) return undefined;
  const roots = cwds?.map((c) => {
    try {
      return realpathSync(c);
    } catch {
      return c;
    }
  });
  for (const entry of path.split(delimiter)) {
    if (entry === "" || !isAbsolute(entry)) {
      return undecidable(`PATH holds the relative entry ${JSON.stringify(entry)}, so \`${name}\` could be a program in the directory the command runs in`);
    }
    const facts = entryFacts(entry);
    if (facts.real !== undefined) {
      if (facts.worldWritable) return undecidable(`PATH holds ${entry}, which anyone can write (no sticky bit), so \`${name}\` could be anyone's program`);
      if (facts.writable && (roots === undefined || roots.some((r) => isInside(facts.real!, r)))) {
        return undecidable(`PATH holds ${entry}, writable and inside the directory the command runs in, so \`${name}\` could be the repository's own program`);
      }
    }
    if (isExecutableFile(join(entry, name))) return undefined;
  }
  return undefined;
}
