/**
 * The bin (`dist/cli/proctor.cjs`) runs some commands from single-file CommonJS bundles and the
 * rest through the ES-module CLI (`dist/cli/main.js`). The routing may change how fast a command
 * starts, never what it does: each standalone command answers like main.js does, for help, bad
 * input and real work, and no standalone bundle holds the code that loads a user's eval files.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { STANDALONE_COMMANDS } from "../../cli/standalone.js";
import { CLI } from "../helpers/cli.js";

const root = path.resolve(fileURLToPath(import.meta.url), "../../..");
const MAIN = path.join(root, "dist/cli/main.js");
const fixture = path.join(root, "test/fixtures/transcripts/edit-write-bash-fail.jsonl");
const dir = mkdtempSync(path.join(tmpdir(), "proctor-bin-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A run's exit code and output; stack frames (only `--debug` prints them) name the file that ran, so they are dropped. */
function run(file: string, args: readonly string[], input = "") {
  const r = spawnSync(process.execPath, [file, ...args], { cwd: root, input, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  const frames = (text: string) => text.replace(/^ {4}at .*\n/gm, "");
  return { status: r.status, stdout: r.stdout, stderr: frames(r.stderr) };
}

describe("the bin's routing", () => {
  it("is package.json's bin, and main.js's own command table lists every standalone command", () => {
    expect(path.relative(root, CLI)).toBe("dist/cli/proctor.cjs");
    const usage = run(MAIN, ["--help"]).stdout;
    for (const name of STANDALONE_COMMANDS) expect(usage, name).toContain(`proctor ${name} `);
  });

  it.each(STANDALONE_COMMANDS)("proctor %s answers --help, help NAME, bad options and --debug exactly as main.js does", (name) => {
    for (const args of [[name, "--help"], ["help", name], [name, "--no-such-option"], ["--debug", name, "--no-such-option"]]) {
      expect(run(CLI, args), args.join(" ")).toEqual(run(MAIN, args));
    }
  });

  it("does the same work either way: check, trace, bash-effect, gate (with a YAML policy)", () => {
    const gateEvent = JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "rm -rf build && ls | wc -l" }, cwd: root });
    // A YAML policy with a $regex, checks with a glob: the single-file commands load their own copies of yaml, re2js and picomatch.
    const tmp = dir;
    const policy = path.join(tmp, "policy.yaml");
    writeFileSync(policy, 'rules:\n  - tool: Bash\n    effect: deny\n    args: { command: { $regex: "^rm\\\\s" } }\n  - tool: Write\n    effect: ask\n    args: { file_path: { $regex: "[.]md$" } }\n');
    const checks = path.join(tmp, "checks.json");
    writeFileSync(checks, JSON.stringify([{ kind: "wrote", path: "**/*.js" }, { kind: "notTool", name: "Bash", args: { command: { $regex: "^npm\\s" } } }]));
    const write = JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Write", tool_input: { file_path: "docs/a.md", content: "x" }, cwd: root });
    for (const [args, input] of [
      [["trace", fixture], ""],
      [["bash-effect", "--explain", "ls | wc -l; rm -f x"], ""],
      [["gate", "--purity", "bounded"], gateEvent],
      [["gate", "--purity", "bounded"], "not json"],
      [["gate", "--policy", policy], gateEvent],
      [["gate", "--policy", policy], write],
      [["check", fixture, "--checks", checks], ""],
    ] as const) {
      expect(run(CLI, args, input), args.join(" ")).toEqual(run(MAIN, args, input));
    }
  });

  it("routes everything else to main.js: usage, --version, unknown commands", () => {
    for (const args of [[], ["--version"], ["no-such-command"], ["help", "no-such-command"]]) {
      expect(run(CLI, args), args.join(" ")).toEqual(run(MAIN, args));
    }
    expect(execFileSync(process.execPath, [CLI, "--version"], { encoding: "utf8" }).trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("runs every standalone bundle as strict code, as the ES modules it is built from are", () => {
    for (const name of STANDALONE_COMMANDS) {
      const source = readFileSync(path.join(root, "dist/cli/standalone", `${name}.cjs`), "utf8");
      // The directive prologue: only comments and blank lines may come before it.
      const firstStatement = source.split("\n").find((l) => l.trim() !== "" && !l.startsWith("//"));
      expect(firstStatement, name).toBe('"use strict";');
    }
  });

  it("ships every bundle as ASCII (one other character makes V8 hold the whole file as two-byte text)", () => {
    const bundles = [CLI, ...readdirSync(path.join(root, "dist/cli/standalone"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".cjs")).map((f) => path.join(root, "dist/cli/standalone", f))];
    bundles.push(...readdirSync(path.join(root, "dist/chunks")).filter((f) => f.endsWith(".js")).map((f) => path.join(root, "dist/chunks", f)), path.join(root, "dist/src/index.js"), MAIN);
    expect(bundles.length).toBeGreaterThan(20);
    for (const file of bundles) {
      const offending = /[\u0080-\u{10ffff}]/u.exec(readFileSync(file, "utf8"));
      expect(offending === null ? "ASCII" : `${JSON.stringify(offending[0])} at ${offending.index}`, path.relative(root, file)).toBe("ASCII");
    }
  });

  it("keeps the code that loads eval files and runs the harness out of every standalone bundle (check's built-in judge aside)", () => {
    // The bundler marks each module it includes with a `// dist/…` comment.
    for (const name of STANDALONE_COMMANDS) {
      const source = readFileSync(path.join(root, "dist/cli/standalone", `${name}.cjs`), "utf8");
      expect(source, name).toMatch(/^\/\/ dist\/cli\/dispatch\.js$/m);
      expect(source, name).not.toMatch(/^\/\/ dist\/src\/eval\/load\.js$/m);
      const harness = [...source.matchAll(/^\/\/ (dist\/harness\/.*)$/gm)].map((m) => m[1]);
      // `proctor check` grades `judged` checks with the built-in claude judge, which runs claude.
      if (name !== "check") expect(harness, name).toEqual([]);
    }
  });
});
