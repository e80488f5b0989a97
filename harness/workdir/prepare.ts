/**
 * A fresh temp root per run: `work/` (the agent's cwd: fixture + files), `home/` (its HOME, with
 * `home/.claude` as CLAUDE_CONFIG_DIR holding the spec's skills and agents) and `tmp/` (its
 * TMPDIR), plus the settings and MCP config files beside them. Nothing of the user's own config is visible to the run.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { trackDir, untrackDir } from "../process/live.js";
import type { HarnessSpec, McpConfig } from "../claude/spec.js";

export interface RunDirs {
  readonly root: string;
  readonly workDir: string;
  readonly home: string;
  readonly configDir: string;
  /** The run's TMPDIR: inside the root, so the agent's temp files (and the CLI's own) go with it. */
  readonly tmpDir: string;
  readonly settingsFile?: string | undefined;
  readonly mcpConfigFile?: string | undefined;
  /** Servers named by the MCP config (for the default approvals). */
  readonly mcpServers: readonly string[];
}

/**
 * A helper the CLI started (its sandbox's socket bridge) can still be writing into the run's tmp while
 * the tree is removed; a removal that races it fails with ENOTEMPTY. Retried a few times before the
 * root is left to the exit hook and the supervisor.
 */
const RM_RETRYING = { recursive: true, force: true, maxRetries: 5, retryDelay: 50 } as const;

/** Remove a run's temp root now; one that cannot be removed stays tracked, for the exit hook and the supervisor. */
export function removeRunDirs(root: string): void {
  rmSync(root, RM_RETRYING);
  untrackDir(root);
}

/**
 * Remove a run's temp root off the main thread: the CLI leaves a few dozen files, and removing
 * them synchronously stalls every other run this process drives (their mock answers, their
 * output). Tracked until removed, so an exit meanwhile still removes it.
 */
export async function removeRunDirsInBackground(root: string): Promise<void> {
  await rm(root, RM_RETRYING);
  untrackDir(root);
}

/** Stop tracking a root that the caller asked to keep. */
export function keepRunDirs(root: string): void {
  untrackDir(root);
}

function readMcpConfig(value: McpConfig | string, cwd: string, caller: string): { text: string; servers: string[] } {
  if (typeof value !== "string") return { text: JSON.stringify(value, null, 2), servers: Object.keys(value.mcpServers) };
  const file = path.resolve(cwd, value);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new InvalidInputError("INVALID_INPUT", `${caller}: spec.mcpConfig ${file} is not a readable JSON file: ${(error as Error).message}`, { cause: error });
  }
  const servers = typeof parsed === "object" && parsed !== null ? Object.keys((parsed as { mcpServers?: object }).mcpServers ?? {}) : [];
  return { text: JSON.stringify(parsed, null, 2), servers };
}

/** What of a spec goes into the temp dirs (Codex runs bring only files and a fixture). */
export type RunDirsSpec = Pick<HarnessSpec, "files" | "fixture" | "settings" | "skills" | "agents" | "mcpConfig">;

/** Create the run's temp root and fill it from the spec. Throws INVALID_INPUT, naming `caller`, for a bad fixture path. */
export function prepareRunDirs(spec: RunDirsSpec, cwd: string, caller = "runHarness"): RunDirs {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), "proctor-run-")));
  // Removed with this process, however it ends, unless cleanup() or keep comes first.
  trackDir(root);
  try {
    const workDir = path.join(root, "work");
    const home = path.join(root, "home");
    const configDir = path.join(home, ".claude");
    const tmpDir = path.join(root, "tmp");
    mkdirSync(configDir, { recursive: true });
    mkdirSync(tmpDir);
    if (spec.fixture) {
      const from = path.resolve(cwd, spec.fixture);
      let isDir = false;
      try {
        isDir = statSync(from).isDirectory();
      } catch {
        // reported below
      }
      if (!isDir) throw new InvalidInputError("INVALID_INPUT", `${caller}: spec.fixture ${from} is not a directory`);
      cpSync(from, workDir, { recursive: true });
    } else mkdirSync(workDir);
    for (const [rel, content] of Object.entries(spec.files ?? {})) {
      const file = path.join(workDir, rel);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, content);
    }
    for (const [name, text] of Object.entries(spec.skills ?? {})) {
      mkdirSync(path.join(configDir, "skills", name), { recursive: true });
      writeFileSync(path.join(configDir, "skills", name, "SKILL.md"), text);
    }
    for (const [name, text] of Object.entries(spec.agents ?? {})) {
      mkdirSync(path.join(configDir, "agents"), { recursive: true });
      writeFileSync(path.join(configDir, "agents", `${name}.md`), text);
    }
    let settingsFile: string | undefined;
    if (spec.settings) {
      settingsFile = path.join(root, "settings.json");
      writeFileSync(settingsFile, JSON.stringify(spec.settings, null, 2));
    }
    let mcpConfigFile: string | undefined;
    let mcpServers: string[] = [];
    if (spec.mcpConfig) {
      const { text, servers } = readMcpConfig(spec.mcpConfig, cwd, caller);
      mcpConfigFile = path.join(root, "mcp.json");
      writeFileSync(mcpConfigFile, text);
      mcpServers = servers;
    }
    return { root, workDir, home, configDir, tmpDir, settingsFile, mcpConfigFile, mcpServers };
  } catch (error) {
    removeRunDirs(root);
    throw error;
  }
}
