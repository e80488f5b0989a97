/**
 * The packed package in a fresh ES-module project started the way users start one today: vitest
 * (and vite, which vitest 5 wants beside it) first, then `npm i -D proctor` with npm's default peer
 * checks, no `--legacy-peer-deps`; then the README's harness example, run as a vitest test that also
 * uses the proctor/vitest matchers, on the real claude binary (PROCTOR_CLAUDE when set, as CI's
 * newest-claude pass sets it; else this repository's pinned one).
 *
 * vitest 5 runs on Node ^22.12 || ^24 || >=26; on an older Node the project is on the oldest vitest
 * the peer range admits (3.2), so every major the range admits runs somewhere (4 in packed.test.ts).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = new URL("../..", import.meta.url).pathname;
const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
/** vitest 5's engines: ^22.12 || ^24 || >=26 (a pinned major, so a vitest 6 release does not change this test under it). */
const VITEST = (major === 22 && minor >= 12) || major === 24 || major >= 26 ? "5" : "3.2";
const claude = process.env.PROCTOR_CLAUDE ?? join(root, "node_modules", ".bin", "claude");
let dir: string;
let project: string;
let install: { exitCode?: number; all?: string };

/** The README's runHarness block (under "## The harness"), as written. */
function readmeHarnessExample(): string {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("\n## The harness"));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block?.includes("runHarness(")) throw new Error("README.md: no ```ts block with runHarness( under \"## The harness\"");
  return block;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "proctor-esm-"));
  const packed = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", dir], { cwd: root, encoding: "utf8" })) as [{ filename: string }];
  project = join(dir, "project");
  mkdirSync(join(project, "test"), { recursive: true });
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "esm-project", version: "1.0.0", private: true, type: "module" }, null, 2));
  const npm = ["--prefer-offline", "--no-audit", "--no-fund", "--save-dev"];
  const first = VITEST === "5" ? ["vitest@5", "vite"] : ["vitest@~3.2"];
  await execa("npm", ["install", ...npm, ...first, "typescript"], { cwd: project });
  install = await execa("npm", ["install", ...npm, join(dir, packed[0].filename)], { cwd: project, all: true, reject: false });

  const example = readmeHarnessExample().replaceAll('"./examples/', '"./node_modules/proctor/examples/');
  const imports = example.split("\n").filter((l) => l.startsWith("import "));
  const body = example.split("\n").filter((l) => !l.startsWith("import "));
  writeFileSync(
    join(project, "test", "readme.test.ts"),
    `import { expect as expectOf, it } from "vitest";
import "proctor/vitest";
import { checkFromJSON, tool } from "proctor";
${imports.join("\n")}

it("the README's harness example", async () => {
${body.map((l) => `  ${l}`).join("\n")}
  expectOf(trace).toPassAll([denied("Bash", { command: /rm -rf/ }), hookFired("PreToolUse:Bash")]);
  expectOf(trace).not.toPass(tool("Write"));
}, 240_000);

// The plugin's own beforeAll loads the shell parser (its grammar from the install) and the safety checks.
it("judges purity rebuilt from JSON", () => {
  const trace = (command: string) => ({ version: 1, source: { kind: "synthetic" }, complete: true, subagents: [], skills: [], hooks: [], replies: [], errors: [], toolCalls: [{ id: "1", name: "Bash", input: { command }, status: "success", agent: "main" }] });
  expectOf(trace("ls | wc -l")).toPass(checkFromJSON({ kind: "purity", level: "bounded" }));
  expectOf(trace("rm -rf build")).not.toPass(checkFromJSON({ kind: "purity", level: "bounded" }));
});
`,
  );
}, 600_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe(`the packed package in a fresh ESM project on vitest ${VITEST}`, () => {
  it("installs with npm's default peer checks, no warning", () => {
    expect(install.exitCode, install.all).toBe(0);
    expect(install.all ?? "").not.toMatch(/ERESOLVE|legacy-peer-deps|EBADENGINE|peer dep|tree-sitter-bash/i);
    const installed = JSON.parse(readFileSync(join(project, "node_modules", "vitest", "package.json"), "utf8")) as { version: string };
    expect(installed.version.startsWith(`${VITEST}.`)).toBe(true);
  });

  it("type-checks the README's example with the proctor/vitest matchers (vitest's Matchers augmented)", async () => {
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "nodenext", target: "es2022", strict: true, noEmit: true, skipLibCheck: true, types: [] }, files: ["test/readme.test.ts"] }));
    const r = await execa("npx", ["tsc", "-p", "tsconfig.json"], { cwd: project, reject: false });
    expect(r.stdout.split("\n").filter((l) => l.startsWith("test/"))).toEqual([]);
  }, 300_000);

  it("runs the README's harness example under vitest on the real claude binary", async () => {
    const r = await execa("npx", ["vitest", "run"], { cwd: project, reject: false, env: { NO_COLOR: "1", CI: "1", PROCTOR_CLAUDE: claude } });
    expect(`${r.stdout}\n${r.stderr}`).toMatch(/2 passed/);
    expect(r.exitCode).toBe(0);
  }, 300_000);
});
