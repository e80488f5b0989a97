/**
 * The parts of a hermetic trial that need no claude: per-trial copies of MCP server packages that
 * still resolve their dependencies (run with real node), what is reported as not covered, the
 * bookkeeping left out of the roots, the sandbox settings and the preflight.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isBookkeeping, isClaudeGitIgnore, diffRoots, snapshotRoots } from "../../harness/workdir/outside.js";
import { copyMcpServers, packageRootOf } from "../../harness/workdir/trial-copies.js";
import { isSandboxSpec, refuseSandboxConflict, sandboxMissing, sandboxPreflight, sandboxSettings, sandboxState, withSandbox } from "../../harness/claude/sandbox.js";
import { isProctorError } from "../../src/index.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = mkdtempSync(path.join(tmpdir(), "proctor-copies-"));
  dirs.push(d);
  return d;
}

/** A project with a server package in node_modules that imports a sibling dependency and keeps state beside its code. */
function project(): { root: string; server: string } {
  const root = tmp();
  const dep = path.join(root, "node_modules", "dep");
  const pkg = path.join(root, "node_modules", "@s", "srv");
  mkdirSync(dep, { recursive: true });
  mkdirSync(path.join(pkg, "dist"), { recursive: true });
  writeFileSync(path.join(dep, "package.json"), JSON.stringify({ name: "dep", type: "module", main: "index.js" }));
  writeFileSync(path.join(dep, "index.js"), "export const answer = 42;\n");
  writeFileSync(path.join(pkg, "package.json"), JSON.stringify({ name: "@s/srv", type: "module" }));
  const server = path.join(pkg, "dist", "index.js");
  writeFileSync(
    server,
    'import { answer } from "dep"; import { appendFileSync } from "node:fs"; import { fileURLToPath } from "node:url";\n' +
      'appendFileSync(new URL("state.txt", import.meta.url), String(answer)); console.log(fileURLToPath(import.meta.url));\n',
  );
  return { root, server };
}

describe("per-trial copies of MCP servers", () => {
  it("runs a copy that resolves its dependencies and keeps its state in the copy, not the original", () => {
    const { root, server } = project();
    const trial = tmp();
    const { config, roots, uncovered } = copyMcpServers({ mcpServers: { s: { command: "node", args: [server] } } }, trial, path.join(trial, "work"));
    expect(uncovered).toEqual([]);
    const copied = String((config.mcpServers.s?.args as string[] | undefined)?.[0]);
    expect(copied.startsWith(trial)).toBe(true);
    expect(roots).toEqual([{ name: "mcp:s", path: path.join(trial, "mcp", "s", root, "node_modules", "@s", "srv"), copiedFrom: path.join(root, "node_modules", "@s", "srv") }]);
    const before = snapshotRoots(roots);
    expect(execFileSync("node", [copied], { encoding: "utf8" }).trim()).toBe(copied);
    expect(existsSync(path.join(path.dirname(server), "state.txt"))).toBe(false);
    expect(readFileSync(path.join(path.dirname(copied), "state.txt"), "utf8")).toBe("42");
    const diff = diffRoots({ roots, uncovered, sandbox: { on: true } }, before);
    expect(diff.changes.map((c) => c.path)).toEqual(["mcp:s/dist/state.txt"]);
  });

  it("names what it could not copy: a server over HTTP, one found by name, a directory outside the trial", () => {
    const trial = tmp();
    const outsideDir = tmp();
    const { uncovered, config } = copyMcpServers(
      {
        mcpServers: {
          web: { type: "http", url: "http://127.0.0.1:9/mcp" },
          py: { command: "python3", args: ["-m", "some_server"] },
          fs: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", outsideDir] },
          cached: { command: "npx", args: ["-y", "some-server"] },
        },
      },
      trial,
      trial,
    );
    expect(uncovered).toHaveLength(3);
    expect(uncovered[0]).toMatch(/web is reached over http/);
    expect(uncovered[1]).toMatch(/py \(python3 -m some_server\) names no file of its own/);
    expect(uncovered[2]).toContain(`fs is given the directory ${outsideDir}`);
    expect(config.mcpServers.cached).toEqual({ command: "npx", args: ["-y", "some-server"] });
  });

  it("a package inside node_modules is copied whole; a loose script's own folder only", () => {
    expect(packageRootOf("/p/node_modules/@s/srv/dist/index.js")).toBe("/p/node_modules/@s/srv");
    expect(packageRootOf("/p/node_modules/srv/index.js")).toBe("/p/node_modules/srv");
    expect(packageRootOf("/p/tools/server.mjs")).toBe("/p/tools");
  });
});

describe("the trial's roots", () => {
  it("leave out the CLI's own bookkeeping but not config a run could plant", () => {
    expect(isBookkeeping("$HOME", ".claude/projects/-x/abc.jsonl")).toBe(true);
    expect(isBookkeeping("$HOME", ".claude/.claude.json")).toBe(true);
    expect(isBookkeeping("$HOME", ".claude/.last-cleanup")).toBe(true);
    expect(isBookkeeping("$HOME", ".claude/plugins/store")).toBe(true);
    expect(isBookkeeping("$HOME", ".claude/plugins")).toBe(false);
    expect(isBookkeeping("$HOME", ".claude/skills")).toBe(false);
    expect(isBookkeeping("$HOME", ".cache/claude-cli-nodejs/-x/mcp-logs-m/1.jsonl")).toBe(true);
    expect(isBookkeeping("$TMPDIR", "claude-0/-tmp-x-work/uuid/tasks/a.output")).toBe(true);
    expect(isBookkeeping("plugin:p", "hooks/__pycache__/x.pyc")).toBe(true);
    // Node's compile cache, which npm turns on (claude 2.1.332 runs npm) on Node 22.1 or later.
    expect(isBookkeeping("$TMPDIR", "node-compile-cache/v24.21.0-x64-964aae3f-0/0014c7b4")).toBe(true);
    expect(isBookkeeping("$TMPDIR", "node-compile-cache-x/a")).toBe(false);
    expect(isBookkeeping("$HOME", "node-compile-cache/a")).toBe(false);
    for (const planted of [".claude/settings.json", ".claude/skills/x/SKILL.md", ".claude/agents/a.md", ".claude/plugins/evil/hooks/hooks.json", ".bashrc", ".config/git/config"]) {
      expect(isBookkeeping("$HOME", planted)).toBe(false);
    }
    expect(isBookkeeping("$TMPDIR", "claude-0/out.txt")).toBe(false);
    // claude 2.1.332's file-watch probe, on a fresh machine; a name merely like it elsewhere stays the run's.
    expect(isBookkeeping("$TMPDIR", "claude-0/fswatch-probe-Ab12/probe")).toBe(true);
    expect(isBookkeeping("$TMPDIR", "fswatch-probe-Ab12/probe")).toBe(false);
    expect(isBookkeeping("$TMPDIR", "claude-0/x/fswatch-probe-Ab12/probe")).toBe(false);
  });

  it("leave out claude's own rule in the global git ignore file, and nothing more (claude 2.1.332 writes it)", () => {
    const ignore = (content: string | undefined, change: "created" | "modified" | "deleted" = "created") => isClaudeGitIgnore({ path: ".config/git/ignore", change, ...(content === undefined ? {} : { content }) });
    expect(ignore("**/.claude/.cc-writes/\n")).toBe(true);
    expect(ignore("# claude\n**/.claude/.cc-writes/\n.claude/settings.local.json\n")).toBe(true);
    for (const planted of ["**/.claude/.cc-writes/\n*.env\n", "!secrets/\n", "", "**/.claude/x y\n"]) expect({ planted, bookkeeping: ignore(planted) }).toEqual({ planted, bookkeeping: false });
    expect(ignore(undefined)).toBe(false);
    expect(ignore("**/.claude/.cc-writes/\n", "deleted")).toBe(false);
    expect(isClaudeGitIgnore({ path: ".config/git/config", change: "created", content: "**/.claude/.cc-writes/\n" })).toBe(false);
  });
});

describe("claude's sandbox, as proctor asks for it", () => {
  it("is on by default for the mock tier, off for the real tier, off with a reason when the spec says", () => {
    expect(sandboxState(undefined, true)).toEqual({ on: true, allowedDomains: [], jail: true });
    expect(sandboxState(undefined, false).on).toBe(false);
    expect(sandboxState({ off: "needs docker" }, true)).toEqual({ on: false, reason: "needs docker" });
    expect(sandboxState({ allowedDomains: ["registry.npmjs.org"] }, false)).toEqual({ on: true, allowedDomains: ["registry.npmjs.org"], jail: false });
    // The real tier opts into proctor's jail; the mock tier is always in it.
    expect(sandboxState({ jail: true, allowedDomains: ["a.example"] }, false)).toEqual({ on: true, allowedDomains: ["a.example"], jail: true });
  });

  it("confines without widening permissions, and a user's own sandbox keys win", () => {
    const block = sandboxSettings({ on: true, allowedDomains: [], jail: false }, "/r/tmp", { allowWrite: ["out"] }, "/c");
    expect(block).toEqual({
      enabled: true,
      autoAllowBashIfSandboxed: false,
      allowUnsandboxedCommands: false,
      failIfUnavailable: true,
      filesystem: { allowWrite: ["/r/tmp", "/c/out"] },
      network: { allowedDomains: [] },
    });
    expect(withSandbox({ hooks: {}, sandbox: { excludedCommands: ["docker"] } }, block)).toEqual({ hooks: {}, sandbox: { ...block, excludedCommands: ["docker"] } });
  });

  it("checks its spec and refuses a settings block that contradicts it", () => {
    expect(isSandboxSpec({ off: "why" })).toBe(true);
    expect(isSandboxSpec({ off: "" })).toBe(false);
    expect(isSandboxSpec({ off: "why", allowedDomains: [] })).toBe(false);
    expect(isSandboxSpec({ allowedDomains: ["a.example"], allowWrite: ["x"] })).toBe(true);
    expect(isSandboxSpec({ enabled: false })).toBe(false);
    expect(isSandboxSpec({ jail: true, allowedDomains: ["a.example"] })).toBe(true);
    expect(isSandboxSpec({ jail: "yes" })).toBe(false);
    expect(() => refuseSandboxConflict("runHarness", { sandbox: { enabled: false } }, { on: true, allowedDomains: [], jail: false })).toThrow(/sandbox: \{ off: "why" \}/);
    expect(() => refuseSandboxConflict("runHarness", { sandbox: { enabled: true } }, { on: true, allowedDomains: [], jail: false })).not.toThrow();
  });

  it("the preflight names what is missing and how to install it, or how to turn the sandbox off", () => {
    expect(sandboxMissing({ PATH: "/nonexistent" }, "linux")).toEqual([
      "bwrap (bubblewrap): apt-get install bubblewrap · dnf install bubblewrap · apk add bubblewrap",
      "socat: apt-get install socat · dnf install socat · apk add socat",
    ]);
    expect(sandboxMissing({ PATH: "/nonexistent" }, "win32")[0]).toMatch(/Linux and macOS only/);
    let error: unknown;
    try {
      sandboxPreflight("runHarness", { PATH: "/nonexistent" });
    } catch (e) {
      error = e;
    }
    expect(isProctorError(error) && error.code).toBe("SANDBOX_UNAVAILABLE");
    expect(String((error as Error).message)).toMatch(/apt-get install bubblewrap[\s\S]*--no-sandbox/);
    // This machine has both (CI installs them): nothing is missing.
    expect(sandboxMissing(process.env, "linux")).toEqual([]);
  });
});
