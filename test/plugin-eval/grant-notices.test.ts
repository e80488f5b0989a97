/**
 * The notices for graders that cannot pass with the granted tools: table tests of claude's rules
 * (what needs a created file, which tools a grader needs, what is granted without a grant), and on
 * claude ≥ 2.1.332 the same notices, word for word, as `claude plugin eval` prints for a case.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { resolveClaudeBinary } from "../../harness/claude/binary.js";
import { startMockServe } from "../../harness/plugin-eval/serve.js";
import { grantNotices, grantTools } from "../../src/plugin-eval/grant-notices.js";
import { readPluginEvalSuite } from "../../src/plugin-eval/read.js";
import type { Grader, PluginEvalCase } from "../../src/plugin-eval/types.js";
import { atLeast } from "../helpers/claude-version.js";

const FIXTURE = new URL("../fixtures/plugin-eval/greeter", import.meta.url).pathname;
const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

const caseOf = (graders: Grader[], allowed: string[] = [], disallowed?: string[]): PluginEvalCase => ({
  schema_version: "1.1",
  name: "c",
  tags: [],
  context: { add_dirs: [] },
  execution: { prompt: "p", max_turns: 5, timeout_seconds: 60, allowed_tools: allowed, ...(disallowed ? { disallowed_tools: disallowed } : {}), env: {} },
  runs: 1,
  graders,
});
const notices = (c: PluginEvalCase, grants: string[] = [], mocked: string[] = []) =>
  grantNotices(c, grantTools(c.execution.allowed_tools, grants, c.execution.disallowed_tools).allowed, c.execution.disallowed_tools, mocked).map((n) => `${n.grader}: ${n.text.split(" — ")[0]}`);

const used = (tool: string, extra: Partial<Grader> = {}) => ({ type: "tool_used", name: `uses-${tool}`, weight: 1, tool, ...extra }) as Grader;
const exists = (path: string, present = true) => ({ type: "file_exists", name: `has-${path}`, weight: 1, path, exists: present }) as Grader;

describe("grantNotices", () => {
  it.each([
    ["a read-only tool needs no grant", caseOf([used("Skill"), used("Read")]), [], []],
    ["a granted gated tool", caseOf([used("Bash")], ["Bash"]), ["Bash"], []],
    ["a grant alone is enough (claude grants --allow-tools to every case)", caseOf([used("Bash")]), ["Bash"], []],
    ["a grader that wants no call (min 0)", caseOf([used("Bash", { min: 0, max: 0 } as Partial<Grader>)]), [], []],
    ["a file grader that wants the file absent", caseOf([exists("x.md", false)]), [], []],
    ["a file grader with a writer granted by a rule", caseOf([exists("x.md")], ["Bash(git *)"]), ["Bash(git *)"], []],
  ])("no notice: %s", (_why, c, grants, expected) => {
    expect(notices(c, grants)).toEqual(expected);
  });

  it("a gated tool in allowed_tools without the operator's grant: the grader needing it is named", () => {
    expect(notices(caseOf([used("Bash")], ["Bash"]))).toEqual(['uses-Bash: grader "uses-Bash" cannot pass with the granted tools: it needs a Bash call in the trace, but Bash is not granted, so the run withholds it from the model and no call (not even a refused one) can occur']);
  });

  it("both tools of a tool_order, once each; a disallowed tool is named as such", () => {
    const order = { type: "tool_order", name: "o", weight: 1, before: { tool: "Bash" }, after: { tool: "Bash" } } as Grader;
    expect(notices(caseOf([order]))).toHaveLength(1);
    expect(notices(caseOf([used("Bash")], [], ["Bash"]), ["Bash"])).toEqual(["uses-Bash: grader \"uses-Bash\" cannot pass: it needs a Bash call in the trace, but Bash is in the case's disallowed_tools or --disallow-tools, so no call can occur"]);
  });

  it("a file the run must create with no writer: each such grader; a mocked MCP tool is granted but writes nothing", () => {
    const mocked = "mcp__plugin_x_s__create";
    const c = caseOf([exists("a.md"), { type: "regex", name: "r", weight: 1, target: { source: "file", path: "a.md" }, pattern: "x", flags: "", match: "contains" }, used(mocked)]);
    expect(notices(c, [], [mocked]).map((n) => n.split(":")[0])).toEqual(["has-a.md", "r"]);
    expect(notices(c, ["Write"], [mocked])).toEqual([]);
  });

  it("property: a tool_used grader is named exactly when its tool is neither read-only, granted nor mocked (and wants a call)", () => {
    const POOL = ["Bash", "Write", "Edit", "WebFetch", "Read", "Skill", "Grep", "mcp__s__t"];
    const READ_ONLY = new Set(["Read", "Skill", "Grep"]);
    const tool = fc.constantFrom(...POOL);
    fc.assert(
      fc.property(
        fc.array(fc.record({ tool, min: fc.constantFrom(0, 1, 2) }), { minLength: 1, maxLength: 5 }),
        fc.uniqueArray(tool, { maxLength: 4 }),
        fc.uniqueArray(tool, { maxLength: 3 }),
        fc.uniqueArray(tool, { maxLength: 2 }),
        fc.uniqueArray(tool, { maxLength: 2 }),
        (specs, allowed, grants, mocked, disallowed) => {
          const graders = specs.map((g, i) => ({ type: "tool_used", name: `g${i}`, weight: 1, tool: g.tool, min: g.min }) as Grader);
          const c = caseOf(graders, allowed, disallowed);
          const got = grantNotices(c, grantTools(allowed, grants, disallowed).allowed, disallowed, mocked);
          // The oracle: claude offers a tool when it is read-only, granted by the operator, or a mock stand-in; disallowed wins.
          const offered = (t: string) => !disallowed.includes(t) && (READ_ONLY.has(t) || grants.includes(t) || mocked.includes(t));
          const expected = specs.flatMap((g, i) => (g.min >= 1 && !offered(g.tool) ? [`g${i}`] : []));
          expect(got.map((n) => n.grader)).toEqual(expected);
          for (const n of got) {
            const t = specs[Number(n.grader.slice(1))]?.tool as string;
            expect(n.text).toContain(disallowed.includes(t) ? `${t} is in the case's disallowed_tools` : `grant it with --allow-tools ${t}`);
          }
        },
      ),
    );
  });

  it.runIf(atLeast("2.1.332"))(
    "prints what claude plugin eval prints for the same case, word for word (claude ≥ 2.1.332)",
    async () => {
      const pluginDir = join(mkdtempSync(join(tmpdir(), "proctor-notice-")), "greeter");
      temps.push(pluginDir);
      cpSync(FIXTURE, pluginDir, { recursive: true });
      const suite = readPluginEvalSuite(join(pluginDir, "evals"));
      const server = await startMockServe({ suite });
      try {
        const home = mkdtempSync(join(tmpdir(), "proctor-notice-home-"));
        temps.push(home);
        const r = await execa(resolveClaudeBinary(), ["plugin", "eval", pluginDir, "--trust-plugin", "--no-publish", "--case", "notes", "--runs", "1", "--ablation", "none", "--output-dir", join(home, "out")], {
          cwd: pluginDir,
          env: { HOME: home, CLAUDE_CONFIG_DIR: join(home, ".claude"), PATH: process.env.PATH ?? "/usr/bin:/bin", ANTHROPIC_API_KEY: "mock", ANTHROPIC_BASE_URL: server.url, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1", CLAUDE_CODE_MAX_RETRIES: "1" },
          extendEnv: false,
          reject: false,
          timeout: 300_000,
        });
        const theirs = `${r.stdout}\n${r.stderr}`.split("\n").filter((l) => l.startsWith("⚠ case")).sort();
        const notes = suite.cases.find((c) => c.case.name === "notes")?.case as PluginEvalCase;
        const ours = grantNotices(notes, grantTools(notes.execution.allowed_tools, []).allowed).map((n) => `⚠ case "notes": ${n.text}`).sort();
        expect(ours.length).toBeGreaterThan(0);
        expect(ours, `${r.stdout}\n${r.stderr}`.slice(-3000)).toEqual(theirs);
      } finally {
        await server.close();
      }
    },
    400_000,
  );
});
