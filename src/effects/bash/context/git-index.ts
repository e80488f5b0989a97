/**
 * The gitlinks (submodule entries, mode 160000) of a git index, read from the file itself: `git
 * status` and `git diff` run git inside every populated gitlink, with that repository's own
 * configuration, whether or not `.gitmodules` names it. Versions 2, 3 and 4 (path compression),
 * SHA-1 and SHA-256, and a split index's shared part; anything else is an error (fail closed).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { RepoConfigUnreadable, statOrUndefined } from "./paths.js";

/** An index larger than this is not read; the caller answers undecidable. */
const MAX_INDEX_BYTES = 64 * 1024 * 1024;
const GITLINK = 0o160000;

interface Parsed {
  readonly gitlinks: string[];
  readonly shared?: string;
}

const cache = new Map<string, { stamp: string; parsed: Parsed }>();

function parse(buf: Buffer, hashSize: number): Parsed | undefined {
  if (buf.length < 12 || buf.toString("latin1", 0, 4) !== "DIRC") return undefined;
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return undefined;
  const count = buf.readUInt32BE(8);
  const gitlinks: string[] = [];
  let at = 12;
  let previous = "";
  for (let n = 0; n < count; n++) {
    const start = at;
    if (at + 40 + hashSize + 2 > buf.length) return undefined;
    const mode = buf.readUInt32BE(at + 24);
    at += 40 + hashSize;
    const flags = buf.readUInt16BE(at);
    at += 2;
    if (flags & 0x4000) {
      if (version < 3) return undefined;
      at += 2;
    }
    let path: string;
    if (version === 4) {
      // A varint (git's offset encoding) of bytes to drop from the previous path, then the rest.
      let c = buf[at++];
      if (c === undefined) return undefined;
      let drop = c & 0x7f;
      while (c & 0x80) {
        c = buf[at++];
        if (c === undefined) return undefined;
        drop = ((drop + 1) << 7) | (c & 0x7f);
      }
      const end = buf.indexOf(0, at);
      if (end === -1 || drop > previous.length) return undefined;
      path = previous.slice(0, previous.length - drop) + buf.toString("utf8", at, end);
      at = end + 1;
    } else {
      const end = buf.indexOf(0, at);
      if (end === -1) return undefined;
      path = buf.toString("utf8", at, end);
      const length = flags & 0xfff;
      if (length !== 0xfff && length !== end - at) return undefined;
      // Entries are padded with 1–8 NULs to a multiple of 8 bytes.
      at = start + ((end - start + 8) & ~7);
    }
    previous = path;
    if ((mode & 0o170000) === GITLINK) gitlinks.push(path);
  }
  let shared: string | undefined;
  // Extensions: a four-byte signature and a size; `link` names the shared index of a split index.
  while (at + 8 <= buf.length - hashSize) {
    const sig = buf.toString("latin1", at, at + 4);
    const size = buf.readUInt32BE(at + 4);
    if (sig === "link") shared = buf.toString("hex", at + 8, at + 8 + hashSize);
    at += 8 + size;
  }
  return shared === undefined ? { gitlinks } : { gitlinks, shared };
}

function readIndex(file: string): Parsed | undefined {
  const stats = statOrUndefined(file);
  if (!stats) return undefined;
  if (!stats.isFile()) throw new RepoConfigUnreadable(`${file} is not a regular file, so proctor cannot read the submodules listed in it`);
  if (stats.size > MAX_INDEX_BYTES) throw new RepoConfigUnreadable(`${file} is larger than proctor reads (${MAX_INDEX_BYTES} bytes), so the submodules listed in it are unknown`);
  const stamp = `${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}:${stats.ino}`;
  const hit = cache.get(file);
  if (hit?.stamp === stamp) return hit.parsed;
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch (error) {
    throw new RepoConfigUnreadable(`cannot read ${file} (${(error as Error).message})`);
  }
  const parsed = parse(buf, 20) ?? parse(buf, 32);
  if (!parsed) throw new RepoConfigUnreadable(`${file} is not an index proctor can read, so the submodules listed in it are unknown`);
  cache.set(file, { stamp, parsed });
  return parsed;
}

/** Paths of every gitlink in the index of `gitDir` (or `GIT_INDEX_FILE`), the shared index of a split index included. */
export function gitlinkPaths(gitDir: string, indexFile?: string): string[] {
  const main = readIndex(indexFile ?? join(gitDir, "index"));
  if (!main) return [];
  if (main.shared === undefined || /^0+$/.test(main.shared)) return main.gitlinks;
  const shared = readIndex(join(gitDir, `sharedindex.${main.shared}`));
  return [...main.gitlinks, ...(shared?.gitlinks ?? [])];
}
