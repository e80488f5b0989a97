/** Paths as the kernel resolves them, and the file reads every context module shares. */
import { readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";

/**
 * `target` from `base` as chdir(2) finds it, which `resolve` does not: the kernel takes `..`
 * after a symbolic link from the link's target (`l/..` with `l -> evil/sub` is `evil`), where
 * `resolve` drops the link. git -C, env -C, `cd -P`, gitfiles and `commondir` move this way.
 */
export function physicalPath(base: string, target: string): string {
  let at = isAbsolute(target) ? "/" : resolve(base);
  for (const part of target.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      try {
        at = realpathSync.native(at);
      } catch {
        // A directory that does not exist: chdir fails there, and the lexical parent stands.
      }
      at = dirname(at);
    } else at = join(at, part);
  }
  return at;
}

/** What the context could not read: the caller answers undecidable with this message. */
export class RepoConfigUnreadable extends Error {}

const missing = (error: unknown): boolean => ["ENOENT", "ENOTDIR"].includes((error as NodeJS.ErrnoException).code ?? "");

/** The `stat` fields the context reads, spelled out so that the published types do not need `@types/node`. */
export interface FileStat {
  isFile(): boolean;
  isDirectory(): boolean;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly ino: number;
}

/** `stat` (following links), `undefined` when absent; any other failure is a RepoConfigUnreadable. */
export function statOrUndefined(path: string): FileStat | undefined {
  try {
    // No exception for the common case, a file that is not there: the gate runs per tool call.
    return statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if (missing(error)) return undefined;
    throw new RepoConfigUnreadable(`cannot inspect ${path} (${(error as Error).message})`);
  }
}

/** A file's text, `undefined` when absent. */
export function readText(path: string): string | undefined {
  if (!statOrUndefined(path)) return undefined;
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if (missing(error)) return undefined;
    throw new RepoConfigUnreadable(`cannot read ${path} (${(error as Error).message})`);
  }
}

export function realpathOr(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return resolve(path);
  }
}
