/**
 * The package as a user installs it: `npm pack`, the tarball installed into a fresh CommonJS
 * project (no "type" field) beside @anthropic-ai/claude-code, tsx and vitest, then an eval in each
 * TypeScript and JavaScript flavour run with `proctor run`, and a vitest file run with vitest.
 * Catches missing files, broken exports, the CommonJS/ESM trap (a top-level await anywhere in the
 * package breaks tsx's CommonJS loading), source maps that point at files not shipped, install
 * scripts among proctor's own dependencies and public types that need `@types/node`.
 * test/package/fresh-esm.test.ts is the other shape: an ESM project on the newest vitest.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = new URL("../..", import.meta.url).pathname;
const own = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string; devDependencies: Record<string, string> };
let dir: string;
let project: string;
let files: string[];
let before: { all?: string };
let install: { all?: string };

/** The packages npm 11 names in its install-scripts warning (`npm warn install-scripts   name@1.2.3 (postinstall: …)`). */
function withInstallScripts(output: string | undefined): string[] {
  return [...(output ?? "").matchAll(/^npm warn install-scripts\s+((?:@[^/\s]+\/)?[^@\s]+)@\S+ \(/gm)].map((m) => m[1] as string).sort();
}

const script = (command: string) => ({ turns: [{ tools: [{ name: "Bash", input: { command } }] }, { text: "done" }] });

/** An eval file in the given module flavour; each checks the shell classifier too (purity). */
function evalSource(flavour: "ts" | "mts" | "cts" | "js" | "mjs"): string {
  const spec = `{
  name: "${flavour} eval",
  mock: { prompt: "list the files", files: { "a.txt": "hello\\n" }, script: ${JSON.stringify(script("ls"))} },
  checks: [tool("Bash"), notTool("Write"), purity("bounded")],
  trials: 1,
}`;
  if (flavour === "js" || flavour === "cts") {
    return `const { defineEval, tool, notTool } = require("proctor");\nconst { purity } = require("proctor/safety");\nexports.first = defineEval(${spec});\n`;
  }
  return `import { defineEval, tool, notTool } from "proctor";
import { purity } from "proctor/safety";\nexport const first = defineEval(${spec});\n`;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "proctor-pack-"));
  const packed = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", dir], { cwd: root, encoding: "utf8" })) as [{ filename: string; files: { path: string }[] }];
  files = packed[0].files.map((f) => f.path);
  project = join(dir, "project");
  mkdirSync(join(project, "evals"), { recursive: true });
  mkdirSync(join(project, "test"));
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "user-project", version: "1.0.0", private: true }, null, 2));
  // What the project has first, then proctor alone: that install's output is proctor's own.
  before = await execa(
    "npm",
    [
      "install", "--prefer-offline", "--no-audit", "--no-fund", "--save-dev",
      `@anthropic-ai/claude-code@${own.devDependencies["@anthropic-ai/claude-code"]}`,
      "tsx", `vitest@${own.devDependencies.vitest}`, `typescript@${own.devDependencies.typescript}`,
    ],
    { cwd: project, all: true },
  );
  install = await execa("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--save-dev", join(dir, packed[0].filename)], { cwd: project, all: true });
  for (const flavour of ["ts", "mts", "cts", "js", "mjs"] as const) writeFileSync(join(project, "evals", `first.eval.${flavour}`), evalSource(flavour));
  // The README's own form: a default export, which tsx hands a CommonJS project under `default.default`.
  writeFileSync(join(project, "evals", "default.eval.ts"), evalSource("ts").replace("export const first = defineEval(", "export default defineEval(").replace('"ts eval"', '"default-export eval"'));
  writeFileSync(
    join(project, "test", "first.test.ts"),
    `import { describe, expect, it } from "vitest";
import { runHarness } from "proctor/harness";
import { purity } from "proctor/safety";
import { tool } from "proctor";
import "proctor/vitest";

describe("a user's vitest file", () => {
  it("runs the real claude binary on the mock and judges the trace", async () => {
    const { trace, cleanup } = await runHarness({ prompt: "list", files: { "a.txt": "x" }, script: ${JSON.stringify(script("ls"))} });
    await cleanup();
    expect(trace).toPassAll([tool("Bash"), purity("bounded")]);
  }, 60_000);
});
`,
  );
}, 600_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the packed package in a CommonJS project", () => {
  it("ships every file a source map points at (or no maps)", () => {
    const shipped = new Set(files);
    const missing: string[] = [];
    for (const map of files.filter((f) => f.endsWith(".map"))) {
      const { sources } = JSON.parse(readFileSync(join(project, "node_modules", "proctor", map), "utf8")) as { sources: string[] };
      for (const source of sources) {
        const resolved = join(map, "..", source);
        if (!shipped.has(resolved)) missing.push(`${map} → ${resolved}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("installs without an install script or a warning from proctor's own dependencies", () => {
    // npm repeats its warning for every package in the project with an unapproved script: the
    // project's own (claude's postinstall, the control that npm reports them at all) and nothing new.
    expect(withInstallScripts(before.all)).toContain("@anthropic-ai/claude-code");
    expect(withInstallScripts(install.all)).toEqual(withInstallScripts(before.all));
    expect(install.all ?? "").not.toMatch(/ERESOLVE|EBADENGINE|deprecated|peer dep/i);
    // The shell classifier's grammar ships in the package, and its native package is not installed.
    expect(files).toEqual(expect.arrayContaining(["dist/grammars/tree-sitter-bash.wasm", "dist/grammars/tree-sitter-bash.LICENSE"]));
    expect(existsSync(join(project, "node_modules", "tree-sitter-bash"))).toBe(false);
  });

  it("ships every file the README links to (docs/, examples/)", () => {
    const installed = join(project, "node_modules", "proctor");
    const readme = readFileSync(join(installed, "README.md"), "utf8");
    const targets = [...new Set([...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1] as string).filter((t) => !/^[a-z]+:/.test(t)))];
    expect(targets).toEqual(expect.arrayContaining(["docs/harness.md", "examples/promptfoo/promptfooconfig.yaml"]));
    expect(targets.filter((t) => !existsSync(join(installed, t)))).toEqual([]);
    // The harness example's plugin and fixture, which the README's runHarness block uses.
    expect(existsSync(join(installed, "examples", "plugin"))).toBe(true);
    expect(existsSync(join(installed, "examples", "fixtures", "app"))).toBe(true);
  });

  it("type-checks every typed entry in a project without @types/node", async () => {
    expect(existsSync(join(project, "node_modules", "@types", "node")), "the project must not have @types/node, or this proves nothing").toBe(false);
    const pkg = JSON.parse(readFileSync(join(project, "node_modules", "proctor", "package.json"), "utf8")) as { exports: Record<string, unknown> };
    const entries = Object.entries(pkg.exports).filter(([, target]) => typeof target === "object").map(([entry]) => entry.replace(/^\./, "proctor"));
    expect(entries).toContain("proctor/harness");
    writeFileSync(join(project, "entries.mts"), `${entries.map((e, i) => `import * as e${i} from "${e}";`).join("\n")}\nexport const all = [${entries.map((_, i) => `e${i}`).join(", ")}];\n`);
    // skipLibCheck off: an error in a .d.ts the package ships is the user's error too.
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "nodenext", target: "es2022", strict: true, noEmit: true, skipLibCheck: false, types: [] }, files: ["entries.mts"] }));
    const r = await execa("npx", ["tsc", "-p", "tsconfig.json"], { cwd: project, reject: false });
    // Errors inside other packages' declarations are theirs; proctor's and the user's file must be clean.
    const ours = r.stdout.split("\n").filter((l) => /^(node_modules\/proctor\/|entries\.mts)/.test(l));
    expect(ours).toEqual([]);
    expect(r.stdout + r.stderr).not.toMatch(/Cannot find namespace 'NodeJS'/);
  }, 300_000);

  it("ships the bin and its single-file commands, and no code cache from the machine that packed it", () => {
    expect(files).toContain("dist/cli/proctor.cjs");
    expect(files).toContain("dist/cli/standalone/gate.cjs");
    expect(files.filter((f) => f.includes(".cache"))).toEqual([]);
  });

  it("runs `proctor gate` from the installed bin, and caches its compile inside the install", async () => {
    const event = JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "rm -rf build" }, cwd: project });
    for (let i = 0; i < 2; i++) {
      const r = await execa("npx", ["proctor", "gate", "--purity", "bounded"], { cwd: project, input: event, reject: false });
      expect(JSON.parse(r.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
    }
    expect(readdirSync(join(project, "node_modules", "proctor", "dist", "cli", "standalone")).filter((f) => f.startsWith("gate.cjs.") && f.endsWith(".cache"))).toHaveLength(1);
  }, 300_000);

  it("runs an eval written as .ts, .mts, .cts, .js and .mjs, and a .ts default export, with `proctor run`", async () => {
    const evals = [...["ts", "mts", "cts", "js", "mjs"].map((f) => `evals/first.eval.${f}`), "evals/default.eval.ts"];
    const r = await execa("npx", ["proctor", "run", ...evals], { cwd: project, reject: false, env: { NO_COLOR: "1" } });
    expect(r.stderr).not.toMatch(/top-level await|ERR_REQUIRE|Cannot find module/i);
    expect(r.stdout).toMatch(/6 evals: 6 passed/);
    expect(r.stdout).toContain("default-export eval");
    expect(r.exitCode).toBe(0);
  }, 300_000);

  it("runs a claude plugin eval suite whose MCP server is mocked, the stand-in served from the install", async () => {
    const plugin = join(dir, "tracker");
    cpSync(new URL("../fixtures/plugin-eval/tracker", import.meta.url).pathname, plugin, { recursive: true, filter: (src) => !/\/evals\/(triage|flaky-api|wrong-project|report)(\/|$)/.test(src) });
    const r = await execa("npx", ["proctor", "run", join(plugin, "evals"), "--mock", "--ablation", "none", "--trials", "1", "--output-dir", join(dir, "tracker-results")], { cwd: project, reject: false, env: { NO_COLOR: "1" } });
    expect(r.stderr).toContain("mocked: tickets");
    expect(r.stdout, `${r.stdout}\n${r.stderr}`).toMatch(/✓ file-bug {2}score 1\.00/);
    expect(r.exitCode).toBe(0);
  }, 300_000);

  it("proctor export points the config at the installed package's promptfoo modules (found from the bundled CLI)", async () => {
    const r = await execa("npx", ["proctor", "export", "promptfoo", "evals/first.eval.mjs"], { cwd: project, reject: false });
    expect(r.stdout).toContain("file://node_modules/proctor/promptfoo/provider.mjs");
    expect(r.exitCode).toBe(0);
  }, 300_000);

  it("proctor init writes a starter eval (TypeScript, since tsx is installed) that runs green", async () => {
    const init = await execa("npx", ["proctor", "init", "starter"], { cwd: project, reject: false });
    expect(init.stdout).toMatch(/wrote starter\/example\.eval\.ts/);
    expect(init.exitCode).toBe(0);
    const again = await execa("npx", ["proctor", "init", "starter"], { cwd: project, reject: false });
    expect(again.stderr).toMatch(/already exists; nothing was written \(pass --force/);
    expect(again.exitCode).toBe(2);
    const r = await execa("npx", ["proctor", "run", "starter"], { cwd: project, reject: false, env: { NO_COLOR: "1" } });
    expect(r.stdout).toMatch(/1 eval: 1 passed/);
    expect(r.exitCode).toBe(0);
  }, 300_000);

  it("runs a vitest file that drives the real claude binary", async () => {
    const r = await execa("npx", ["vitest", "run"], { cwd: project, reject: false, env: { NO_COLOR: "1", CI: "1" } });
    expect(`${r.stdout}\n${r.stderr}`).toMatch(/1 passed/);
    expect(r.exitCode).toBe(0);
  }, 300_000);
});
