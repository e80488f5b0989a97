/**
 * Before/after snapshots of the work dir, so `trace.files` is exact: every file created, modified
 * or deleted, by any tool (Bash included), with the content of small text files.
 */
import { createHash } from "node:crypto";
import { lstatSync, readFileSync, readdirSync, readlinkSync, type Stats } from "node:fs";
import path from "node:path";
import type { FileChange, FileRecord } from "../../src/trace/types.js";

/** Directories whose churn is tool bookkeeping, not the agent's work. */
const SKIPPED_DIRS = new Set([".git"]);
/** Content is recorded for text files up to this size. */
const CONTENT_LIMIT = 64 * 1024;
/** Larger files are compared by size and mtime instead of a hash. */
const HASH_LIMIT = 8 * 1024 * 1024;

interface Entry {
  readonly fingerprint: string;
  readonly size: number;
}

/** Relative POSIX path → fingerprint of every file (and symlink) under `root`. */
export type Snapshot = Map<string, Entry>;

/**
 * Walk `root` and fingerprint every file. Unreadable entries are fingerprinted by their error.
 * `skip` leaves out a relative path (and everything under it, for a directory).
 */
export function takeSnapshot(root: string, skip?: (relPath: string) => boolean): Snapshot {
  const out: Snapshot = new Map();
  const walk = (dir: string, rel: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const abs = path.join(dir, name);
      const relPath = rel ? `${rel}/${name}` : name;
      if (skip?.(relPath)) continue;
      let stat: Stats;
      try {
        stat = lstatSync(abs);
      } catch {
        continue;
      }
      if (stat.isDirectory()) {
        if (!SKIPPED_DIRS.has(name)) walk(abs, relPath);
      } else if (stat.isSymbolicLink()) {
        out.set(relPath, { fingerprint: `link:${readlinkSync(abs)}`, size: 0 });
      } else if (stat.isFile()) {
        out.set(relPath, { fingerprint: fingerprint(abs, stat.size, stat.mtimeMs), size: stat.size });
      }
    }
  };
  walk(root, "");
  return out;
}

function fingerprint(file: string, size: number, mtimeMs: number): string {
  if (size > HASH_LIMIT) return `big:${size}:${mtimeMs}`;
  try {
    return `sha1:${createHash("sha1").update(readFileSync(file)).digest("hex")}`;
  } catch (error) {
    return `error:${(error as NodeJS.ErrnoException).code ?? "read"}`;
  }
}

/** The file's content when it is small UTF-8 text. */
function readSmallText(file: string, size: number): string | undefined {
  if (size > CONTENT_LIMIT) return undefined;
  try {
    const bytes = readFileSync(file);
    if (bytes.includes(0)) return undefined;
    const text = bytes.toString("utf8");
    return text.includes("\uFFFD") ? undefined : text;
  } catch {
    return undefined;
  }
}

/** What changed between two snapshots of `root`, sorted by path. */
export function diffSnapshots(root: string, before: Snapshot, after: Snapshot): FileRecord {
  const changes: FileChange[] = [];
  for (const [p, entry] of after) {
    const old = before.get(p);
    if (old && old.fingerprint === entry.fingerprint) continue;
    const content = entry.fingerprint.startsWith("link:") ? undefined : readSmallText(path.join(root, p), entry.size);
    changes.push({ path: p, change: old ? "modified" : "created", ...(content !== undefined ? { content } : {}) });
  }
  for (const p of before.keys()) if (!after.has(p)) changes.push({ path: p, change: "deleted" });
  changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { source: "snapshot", changes };
}
