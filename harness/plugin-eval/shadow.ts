/**
 * The plugin a mocked suite runs: a copy of the plugin under test whose MCP servers are replaced
 * the way `claude plugin eval` shadows them — each server the suite mocks is declared under its
 * own name but runs proctor's stand-in, so its tools keep their names
 * (`mcp__plugin_<plugin>_<server>__<tool>`); a server with no mock does not start (its tools are
 * unavailable) unless real servers are allowed.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError, InvalidInputError } from "../../src/errors/proctor-error.js";
import type { SuiteMocks } from "../../src/plugin-eval/mocks.js";
import type { MockCallRecord, StandInSpec } from "./stand-in.js";

export interface ShadowPlugin {
  /** The copy to load in place of the plugin. */
  readonly dir: string;
  /** Servers answered by a stand-in. */
  readonly mocked: readonly string[];
  /** Declared servers with no mock, not started. */
  readonly withheld: readonly string[];
  /** The name a mocked tool has in the run (what `mock_calls` and tool graders see). */
  toolName(server: string, tool: string): string;
  cleanup(): void;
}

type ServerMap = Record<string, unknown>;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new ConfigError("SUITE_INVALID", `${file}: cannot read it to find the plugin's MCP servers (${(error as Error).message})`, { input: file, hint: "fix the plugin's MCP declaration; claude would not load it either" });
  }
}

const serversOf = (raw: unknown): ServerMap => (isObject(raw) ? (isObject(raw.mcpServers) ? raw.mcpServers : raw) : {});

/** The MCP servers a plugin declares: `.mcp.json`, and plugin.json's `mcpServers` (inline or files). */
export function declaredServers(pluginDir: string): ServerMap {
  const servers: ServerMap = {};
  const mcpJson = path.join(pluginDir, ".mcp.json");
  if (existsSync(mcpJson)) Object.assign(servers, serversOf(readJson(mcpJson)));
  const manifest = path.join(pluginDir, ".claude-plugin", "plugin.json");
  const declared = existsSync(manifest) ? (readJson(manifest) as { mcpServers?: unknown }).mcpServers : undefined;
  for (const entry of Array.isArray(declared) ? declared : declared === undefined ? [] : [declared]) {
    if (typeof entry === "string") Object.assign(servers, serversOf(readJson(path.resolve(pluginDir, entry))));
    else if (isObject(entry)) Object.assign(servers, entry);
  }
  return servers;
}

/**
 * The built stand-in script: beside this module (dist/harness/plugin-eval), from a bundled chunk
 * (dist/chunks), or — running from the TypeScript sources — in the checkout's dist.
 */
export function standInScript(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.join(here, "stand-in.js"), path.resolve(here, "../harness/plugin-eval/stand-in.js"), path.resolve(here, "../../dist/harness/plugin-eval/stand-in.js")];
  const found = candidates.find((file) => existsSync(file));
  if (found) return found;
  throw new InvalidInputError("INVALID_INPUT", `the MCP mock stand-in is not built (looked for ${candidates.join(", ")})`, { hint: "run `npm run build` in the proctor checkout, or reinstall proctor" });
}

const toolSegment = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, "_");

/** Build the shadow copy of `pluginDir` for `mocks`; the eval dir itself is not copied. */
export function shadowPlugin(pluginDir: string, evalRoot: string, mocks: SuiteMocks, options: { allowRealServers?: boolean } = {}): ShadowPlugin {
  const manifestFile = path.join(pluginDir, ".claude-plugin", "plugin.json");
  const manifest = existsSync(manifestFile) ? (readJson(manifestFile) as Record<string, unknown>) : {};
  const pluginName = typeof manifest.name === "string" ? manifest.name : path.basename(pluginDir);
  const declared = declaredServers(pluginDir);
  const standalone = mocks.servers.filter((s) => !Object.hasOwn(declared, s.name)).map((s) => s.name);
  if (standalone.length) {
    throw new InvalidInputError("INVALID_INPUT", `mocks/${standalone[0]}/ names no server the plugin declares (${Object.keys(declared).join(", ") || "it declares none"}); standalone mock servers are not supported by proctor run yet`, {
      input: path.join(mocks.dir, standalone[0] ?? ""),
      hint: "name the mock directory after a server in the plugin's .mcp.json, or run the suite with claude plugin eval",
    });
  }
  const root = mkdtempSync(path.join(tmpdir(), "proctor-mocks-"));
  try {
    const dir = path.join(root, "plugin", path.basename(pluginDir));
    const evalAbs = path.resolve(evalRoot);
    cpSync(pluginDir, dir, { recursive: true, verbatimSymlinks: true, filter: (src) => path.resolve(src) !== evalAbs && path.basename(src) !== ".git" });
    // The stand-ins' specs live in the plugin dir: a jailed trial sees the plugin's source (read-only).
    mkdirSync(path.join(dir, ".proctor-mocks"));
    const script = standInScript();
    const servers: ServerMap = {};
    for (const s of mocks.servers) {
      const spec: StandInSpec = { server: s.name, tools: [...s.listings.values()], responders: Object.fromEntries(s.responders), answers: Object.fromEntries(s.answers) };
      const specFile = path.join(dir, ".proctor-mocks", `${s.name}.json`);
      writeFileSync(specFile, JSON.stringify(spec));
      servers[s.name] = { command: process.execPath, args: [script, specFile] };
    }
    const withheld = Object.keys(declared).filter((name) => !Object.hasOwn(servers, name));
    if (options.allowRealServers) for (const name of withheld) servers[name] = declared[name];
    writeFileSync(path.join(dir, ".mcp.json"), JSON.stringify({ mcpServers: servers }, null, 2));
    if (existsSync(path.join(dir, ".claude-plugin", "plugin.json")) && manifest.mcpServers !== undefined) {
      const { mcpServers: _dropped, ...rest } = manifest;
      writeFileSync(path.join(dir, ".claude-plugin", "plugin.json"), JSON.stringify(rest, null, 2));
    }
    return {
      dir,
      mocked: mocks.servers.map((s) => s.name),
      withheld: options.allowRealServers ? [] : withheld,
      toolName: (server, tool) => `mcp__${toolSegment(`plugin_${pluginName}_${server}`)}__${tool}`,
      cleanup: () => rmSync(root, { recursive: true, force: true }),
    };
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The calls a run's stand-ins logged, and the servers whose stand-in started (its identity line).
 * A line that is not JSON is an error: the log is proctor's own, so a torn one is no evidence.
 */
export function readCallLog(file: string): { calls: MockCallRecord[]; ready: Set<string> } {
  const calls: MockCallRecord[] = [];
  const ready = new Set<string>();
  if (!existsSync(file)) return { calls, ready };
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    let record: MockCallRecord | { ready: string };
    try {
      record = JSON.parse(line);
    } catch {
      throw new Error(`the mock call log ${file} holds a line that is not JSON (${line.slice(0, 80)}); the run's mock calls cannot be read`);
    }
    if ("ready" in record) ready.add(record.ready);
    else calls.push(record);
  }
  return { calls, ready };
}
