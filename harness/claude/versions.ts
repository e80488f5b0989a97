/**
 * Claude versions on demand, for the version matrix (`proctor run --claude A,B`) and `proctor
 * bisect`: each version is installed once into a cache (`<cache>/<version>/node_modules/.bin/claude`)
 * with the ordinary npm client, and reused. A binary already at hand (the project's own
 * node_modules, a path given in the list, a directory placed in the cache) is used without a download.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { InvalidInputError, RunError } from "../../src/errors/proctor-error.js";
import { compareVersions, isVersion, versionFromOutput } from "../../src/measure/claude-versions.js";
import { isExecutable } from "../run/binary.js";
import { resolveClaudeBinary } from "./binary.js";

const run = promisify(execFile);
export const CLAUDE_PACKAGE = "@anthropic-ai/claude-code";
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

/** One claude of a matrix: what was asked for, the version it is, and the binary that runs it. */
export interface ClaudeChoice {
  /** As given: `2.1.197`, `latest`, or a path. */
  readonly spec: string;
  readonly version: string;
  readonly path: string;
  /** Where the binary came from: a path given, the project's own install, the cache, or a download now. */
  readonly source: "path" | "project" | "cache" | "installed";
}

/** The cache of installed versions: PROCTOR_CLAUDE_CACHE, else `$XDG_CACHE_HOME/proctor/claude-code` (~/.cache/…). */
export function claudeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PROCTOR_CLAUDE_CACHE) return path.resolve(env.PROCTOR_CLAUDE_CACHE);
  return path.join(env.XDG_CACHE_HOME || path.join(homedir(), ".cache"), "proctor", "claude-code");
}

/** Where version `v` lives in the cache. */
export function cachedBinary(version: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.join(claudeCacheDir(env), version, "node_modules", ".bin", process.platform === "win32" ? "claude.cmd" : "claude");
}

const versions = new Map<string, string>();

/** The version a claude binary reports (`claude --version`); BINARY_MISSING when it does not run. */
export async function claudeVersionOf(binary: string): Promise<string> {
  const known = versions.get(binary);
  if (known) return known;
  try {
    const { stdout } = await run(binary, ["--version"], { timeout: 30_000 });
    const version = versionFromOutput(stdout);
    if (!version) throw new Error(`unexpected output ${JSON.stringify(stdout.slice(0, 80))}`);
    versions.set(binary, version);
    return version;
  } catch (error) {
    throw new RunError("BINARY_MISSING", `${binary} --version failed: ${(error as Error).message.split("\n")[0]}`, { input: binary, hint: "give the path of a claude binary, or a version to install" });
  }
}

async function npm(args: readonly string[], what: string): Promise<string> {
  try {
    const { stdout } = await run(NPM, [...args], { timeout: 600_000, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const e = error as Error & { stderr?: string };
    const tail = (e.stderr ?? e.message).trim().split("\n").slice(-3).join("\n  ");
    throw new RunError("BINARY_MISSING", `${what} failed (npm ${args.slice(0, 2).join(" ")} …)`, { detail: `  ${tail}`, hint: "check that the npm registry is reachable, or give the path of a claude binary instead of a version" });
  }
}

/** Every published claude version, oldest first (npm view; pre-releases left out). */
export async function publishedClaudeVersions(): Promise<string[]> {
  const text = await npm(["view", CLAUDE_PACKAGE, "versions", "--json"], "listing the published claude versions");
  const list = JSON.parse(text) as unknown;
  return (Array.isArray(list) ? list : [list]).filter((v): v is string => typeof v === "string" && /^\d+\.\d+\.\d+$/.test(v)).sort(compareVersions);
}

/** The newest published claude version (npm's `latest` tag). */
export async function latestClaudeVersion(): Promise<string> {
  const version = (await npm(["view", `${CLAUDE_PACKAGE}@latest`, "version"], "resolving claude@latest")).trim();
  if (!isVersion(version)) throw new RunError("BINARY_MISSING", `npm view ${CLAUDE_PACKAGE}@latest answered ${JSON.stringify(version.slice(0, 60))}, not a version`);
  return version;
}

/** Install `version` into the cache (atomically: a half-finished install is never taken for one). */
async function install(version: string, env: NodeJS.ProcessEnv): Promise<string> {
  const cache = claudeCacheDir(env);
  const final = path.join(cache, version);
  const staging = path.join(cache, `.${version}.${process.pid}.${Date.now()}.tmp`);
  mkdirSync(staging, { recursive: true });
  try {
    await npm(["install", "--prefix", staging, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", "--loglevel=error", `${CLAUDE_PACKAGE}@${version}`], `installing claude ${version}`);
    try {
      renameSync(staging, final);
    } catch (error) {
      // Another run installed it meanwhile: use theirs.
      if (!existsSync(final)) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return cachedBinary(version, env);
}

/** Options of `chooseClaude`. */
export interface ChooseOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Where the project's own claude is looked for. @default process.cwd() */
  readonly cwd?: string;
  /** Download a version that is neither the project's nor cached. @default true */
  readonly install?: boolean;
  /** Told before a download starts (it takes a while). */
  readonly onInstall?: (version: string, dir: string) => void;
}

/**
 * The binary for one entry of a matrix: a path (contains a `/`) as it is; `latest` resolved with
 * npm; a version from the project's node_modules when that is it, else the cache, else installed.
 */
export async function chooseClaude(spec: string, options: ChooseOptions = {}): Promise<ClaudeChoice> {
  const env = options.env ?? process.env;
  const entry = spec.trim();
  if (entry.includes("/") || entry.includes(path.sep)) {
    const file = path.resolve(options.cwd ?? process.cwd(), entry);
    if (!isExecutable(file)) throw new RunError("BINARY_MISSING", `--claude ${entry}: not an executable file`, { input: entry, hint: "give a claude binary's path, a version like 2.1.332, or latest" });
    return { spec: entry, version: await claudeVersionOf(file), path: file, source: "path" };
  }
  if (entry !== "latest" && !/^\d+\.\d+\.\d+$/.test(entry)) {
    throw new InvalidInputError("INVALID_INPUT", `--claude: ${JSON.stringify(entry)} is not a claude version, latest, or a path`, { hint: "e.g. --claude 2.1.197,latest or --claude 2.1.197,/path/to/claude" });
  }
  const version = entry === "latest" ? await latestClaudeVersion() : entry;
  try {
    const own = resolveClaudeBinary({ cwd: options.cwd ?? process.cwd(), env: { ...env, PROCTOR_CLAUDE: "" } });
    if ((await claudeVersionOf(own)) === version) return { spec: entry, version, path: own, source: "project" };
  } catch {
    // No project claude: the cache or a download answers.
  }
  const cached = cachedBinary(version, env);
  if (isExecutable(cached)) {
    const actual = await claudeVersionOf(cached);
    if (actual !== version) throw new RunError("BINARY_MISSING", `the cached claude ${cached} is ${actual}, not ${version}`, { hint: `remove ${path.dirname(path.dirname(path.dirname(cached)))} and run again` });
    return { spec: entry, version, path: cached, source: "cache" };
  }
  if (options.install === false) throw new RunError("BINARY_MISSING", `claude ${version} is not installed in ${claudeCacheDir(env)}`, { hint: "allow the download, or give a binary path" });
  options.onInstall?.(version, path.join(claudeCacheDir(env), version));
  const installed = await install(version, env);
  const actual = await claudeVersionOf(installed);
  if (actual !== version) throw new RunError("BINARY_MISSING", `npm installed claude ${actual} for ${version}`);
  return { spec: entry, version, path: installed, source: "installed" };
}

/** `--claude A,B,…` as a list of entries; two entries of one version are one. */
export function parseClaudeList(text: string): string[] {
  const list = text.split(",").map((s) => s.trim()).filter(Boolean);
  if (list.length === 0) throw new InvalidInputError("INVALID_INPUT", "--claude needs one or more versions, latest or paths, comma-separated (e.g. 2.1.197,latest)");
  return [...new Set(list)];
}
