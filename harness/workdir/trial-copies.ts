/**
 * Per-trial copies of what a run executes from the user's disk — plugin dirs and the packages of
 * stdio MCP servers — so nothing a trial writes there (a server's state file beside its code, a
 * hook's cache) reaches the user's source or the next trial. A server's package is copied into a
 * mirror of its real path whose every other entry is a symlink to the original, so the copy still
 * resolves its dependencies (node_modules, a package.json's "type") exactly as before.
 */
import { cpSync, lstatSync, mkdirSync, readdirSync, realpathSync, statSync, symlinkSync } from "node:fs";
import path from "node:path";
import type { OutsideRoot } from "./outside.js";

/** Past these a package is not copied (its writes are then reported as not observed). */
const MAX_FILES = 20_000;
const MAX_BYTES = 200 * 1024 * 1024;

/** Copy a plugin dir (without its .git) into `into`; the copy's path. */
export function copyPlugin(dir: string, into: string, taken: Set<string>): string {
  const dest = path.join(into, uniqueName(path.basename(dir), taken));
  cpSync(dir, dest, { recursive: true, verbatimSymlinks: true, filter: (src) => path.basename(src) !== ".git" });
  return dest;
}

function uniqueName(base: string, taken: Set<string>): string {
  let name = base.replace(/[^\w.@-]/g, "_") || "plugin";
  for (let i = 2; taken.has(name); i++) name = `${base}-${i}`;
  taken.add(name);
  return name;
}

/** The folder a server's file belongs to: its package inside node_modules, else the file's own folder. */
export function packageRootOf(file: string): string {
  const parts = file.split(path.sep);
  const nm = parts.lastIndexOf("node_modules");
  if (nm !== -1 && nm + 1 < parts.length - 1) {
    const scoped = parts[nm + 1]?.startsWith("@");
    const end = nm + (scoped ? 3 : 2);
    if (end < parts.length) return parts.slice(0, end).join(path.sep) || path.sep;
  }
  return path.dirname(file);
}

/** Files and bytes under `dir`, stopping once past the caps. */
function tooBig(dir: string): boolean {
  let files = 0;
  let bytes = 0;
  const walk = (d: string): boolean => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (walk(p)) return true;
      } else if (e.isFile()) {
        files++;
        bytes += lstatSync(p).size;
        if (files > MAX_FILES || bytes > MAX_BYTES) return true;
      }
    }
    return false;
  };
  return walk(dir);
}

/**
 * Copy `root` (a real path) to `mirror + root`, and at each level from there up to `/` link every
 * other entry of the original to `mirror + level`: the copy sees the same neighbours as the
 * original, but writes inside it land in the copy.
 */
export function mirrorCopy(root: string, mirror: string): string {
  const dest = path.join(mirror, root);
  cpSync(root, dest, { recursive: true, verbatimSymlinks: true, filter: (src) => path.basename(src) !== ".git" });
  for (let child = root, level = path.dirname(root); ; child = level, level = path.dirname(level)) {
    const into = path.join(mirror, level);
    mkdirSync(into, { recursive: true });
    let names: string[] = [];
    try {
      names = readdirSync(level);
    } catch {
      // an unreadable level: its entries stay unreachable from the copy, as they are from the original
    }
    for (const name of names) {
      if (name === path.basename(child)) continue;
      try {
        symlinkSync(path.join(level, name), path.join(into, name));
      } catch {
        // already there (a second server sharing this level)
      }
    }
    if (level === path.dirname(level)) break;
  }
  return dest;
}

/** An MCP config with its stdio servers pointed at per-trial copies, the roots to compare, and what is not covered. */
export interface McpCopies {
  readonly config: { mcpServers: Record<string, Record<string, unknown>> };
  readonly roots: OutsideRoot[];
  readonly uncovered: string[];
}

/** Launchers whose packages land in a cache under HOME — the trial's own. */
const HOME_CACHED = /^(npx|uvx|bunx|pnpx)$/;

function existing(p: string): "file" | "dir" | undefined {
  try {
    return statSync(p).isDirectory() ? "dir" : "file";
  } catch {
    return undefined;
  }
}

/**
 * Rewrite each stdio server whose command line names a file outside the trial (`node /x/server.js`)
 * to run a per-trial copy of that file's package; a server over HTTP, one whose code proctor cannot
 * locate from its command line, or a directory it is given outside the trial, is listed as not covered.
 */
export function copyMcpServers(config: { mcpServers: Record<string, unknown> }, trialRoot: string, workDir: string): McpCopies {
  const out: Record<string, Record<string, unknown>> = {};
  const roots: OutsideRoot[] = [];
  const uncovered: string[] = [];
  const inTrial = (p: string) => p === trialRoot || p.startsWith(`${trialRoot}${path.sep}`);
  for (const [name, raw] of Object.entries(config.mcpServers)) {
    const server = { ...(raw as Record<string, unknown>) };
    out[name] = server;
    if (typeof server.url === "string" || (server.type !== undefined && server.type !== "stdio")) {
      uncovered.push(`MCP server ${name} is reached over ${String(server.type ?? "http")}: what it stores is outside the trial`);
      continue;
    }
    const command = typeof server.command === "string" ? server.command : "";
    const args = Array.isArray(server.args) ? server.args.map(String) : [];
    const mirror = path.join(trialRoot, "mcp", name.replace(/[^\w.@-]/g, "_"));
    const copied = new Map<string, string>();
    let named = false;
    const rewrite = (token: string): string => {
      if (token.startsWith("-") || token === "") return token;
      const abs = path.resolve(workDir, token);
      const kind = existing(abs);
      if (kind === undefined) return token;
      const real = realpathSync(abs);
      if (inTrial(real)) {
        named = true;
        return token;
      }
      if (kind === "dir") {
        uncovered.push(`MCP server ${name} is given the directory ${real}: what it writes there is not observed`);
        return token;
      }
      named = true;
      const root = packageRootOf(real);
      if (!copied.has(root)) {
        if (tooBig(root)) {
          uncovered.push(`MCP server ${name}'s package ${root} is too large to copy per trial (over ${MAX_FILES} files or ${MAX_BYTES >> 20} MB): what it writes there is not observed`);
          return token;
        }
        copied.set(root, mirrorCopy(root, mirror));
        roots.push({ name: `mcp:${name}${copied.size > 1 ? `#${copied.size}` : ""}`, path: copied.get(root) as string, copiedFrom: root });
      }
      return path.join(copied.get(root) as string, path.relative(root, real));
    };
    const newArgs = args.map(rewrite);
    if (args.length) server.args = newArgs;
    if (!named && !HOME_CACHED.test(path.basename(command))) {
      uncovered.push(`MCP server ${name} (${[command, ...args].join(" ")}) names no file of its own on its command line, so proctor could not copy it per trial: what it writes beside its code is not observed`);
    }
  }
  return { config: { mcpServers: out }, roots, uncovered };
}
