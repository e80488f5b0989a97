/**
 * What a `proctor gate` process loads of Node itself. The gate runs before every tool call, and a
 * built-in module is milliseconds: node:crypto (~5 ms), node:v8 (~3 ms, it pulls in the stream
 * stack), `process.stdin`/`process.stdout` on a pipe (a net.Socket: the stream stack and net,
 * ~6 ms). A read-only call judged without the shell parser, from the code cache, loads none of
 * them; a call that needs the parser may (it sets V8 flags then).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CLI } from "../helpers/cli.js";

const dir = mkdtempSync(path.join(tmpdir(), "proctor-gate-startup-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const AT_EXIT = path.join(dir, "module-list-at-exit.cjs");
writeFileSync(AT_EXIT, `process.on("exit", () => require("node:fs").writeFileSync(process.env.PROCTOR_MODULE_LIST, process.moduleLoadList.join("\\n")));\n`);

/** Node's own modules a gate run loaded (`NativeModule NAME`), and its answer. */
function builtinsLoaded(command: string): { modules: string[]; stdout: string } {
  const list = path.join(dir, `list-${Math.random().toString(36).slice(2)}.txt`);
  const event = { hook_event_name: "PreToolUse", session_id: "s", tool_name: "Bash", tool_input: { command }, cwd: dir };
  // Twice: the first run may write the code cache; the second starts from it, as every later call does.
  let stdout = "";
  for (let i = 0; i < 2; i++) {
    stdout = execFileSync(process.execPath, ["--require", AT_EXIT, CLI, "gate", "--purity", "bounded"], { input: JSON.stringify(event), encoding: "utf8", env: { ...process.env, PROCTOR_MODULE_LIST: list } });
  }
  const modules = readFileSync(list, "utf8")
    .split("\n")
    .filter((l) => l.startsWith("NativeModule "))
    .map((l) => l.slice("NativeModule ".length));
  return { modules, stdout };
}

const EXPENSIVE = ["crypto", "v8", "stream", "net", "tty", "internal/fs/promises", "internal/streams/readable", "internal/fs/streams"];

describe("what a proctor gate process loads of Node", () => {
  it("a call judged without the shell parser loads no crypto, v8, streams, net or tty", () => {
    const { modules, stdout } = builtinsLoaded("ls -la");
    expect(stdout).toContain('"permissionDecision":"allow"'); // read-only: let through, confined
    expect(modules).toContain("vm"); // the listing works: the bin compiles its bundle with vm.Script
    expect(modules.filter((m) => EXPENSIVE.includes(m))).toEqual([]);
  });

  it("a denied call writes its answer without loading the stream stack either", () => {
    const { modules, stdout } = builtinsLoaded("rm -rf build");
    expect(JSON.parse(stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
    expect(modules.filter((m) => EXPENSIVE.includes(m))).toEqual([]);
  });

  it("a call that needs the parser sets its V8 flags then, through node:v8", () => {
    const { modules, stdout } = builtinsLoaded("ls | head -$((1 + 2))");
    expect(stdout).toContain('"permissionDecision":"allow"'); // read-only: let through, confined
    expect(modules).toContain("v8");
  });
});
