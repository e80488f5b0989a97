import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { validateCase } from "../../src/plugin-eval/case-schema.js";
import { isPluginEvalSuite, readPluginEvalSuite } from "../../src/plugin-eval/read.js";
import { thrown } from "../helpers/thrown.js";

const FIXTURE = new URL("../fixtures/plugin-eval/greeter/evals", import.meta.url).pathname;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A suite in a temp dir from `files` (relative path → text). */
function suite(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "proctor-suite-"));
  dirs.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return join(root, "evals");
}

describe("readPluginEvalSuite", () => {
  it("reads prose and case.yaml cases with claude's defaults, graders merged in file order", () => {
    const s = readPluginEvalSuite(FIXTURE);
    expect(s.pluginDir).toBe(dirname(FIXTURE));
    expect(s.cases.map((c) => [c.case.name, c.source, c.relDir])).toEqual([
      ["hello", "prose", "evals/hello"],
      ["notes", "yaml", "evals/notes"],
      ["quiet", "prose", "evals/quiet"],
    ]);
    const hello = s.cases[0]!.case;
    expect(hello.schema_version).toBe("1.1");
    expect(hello.runs).toBe(2);
    expect(hello.execution).toMatchObject({ prompt: "Say hello to Alex.", max_turns: 5, timeout_seconds: 120, allowed_tools: ["Skill"], env: {} });
    expect(hello.graders.map((g) => g.name)).toEqual(["friendly", "greets-by-name", "skill-fired", "skill-launched"]);
    expect(hello.graders[0]).toEqual({ name: "friendly", type: "llm", weight: 1, criteria: "The reply greets Alex by name.", focus: "last_message" });
    expect(hello.graders[1]).toEqual({ name: "greets-by-name", type: "regex", weight: 2, target: "last_message", pattern: "Hello, Alex", flags: "", match: "contains" });
    const quiet = s.cases[2]!.case;
    expect(quiet.execution.max_turns).toBe(10);
    expect(quiet.execution.timeout_seconds).toBe(300);
  });

  it("knows a suite from a directory of eval files", () => {
    expect(isPluginEvalSuite(FIXTURE)).toBe(true);
    expect(isPluginEvalSuite(new URL("../../examples", import.meta.url).pathname)).toBe(false);
  });

  const bad: [string, Record<string, string>, string][] = [
    ["a duplicate grader name", { "evals/a/case.yaml": 'schema_version: "1.0"\nname: a\nexecution: { prompt: hi }\ngraders:\n  - { type: file_exists, name: x, path: a }\n  - { type: file_exists, name: x, path: b }\n' }, 'invalid case.yaml:\n  graders: duplicate grader name "x"'],
    ["a newer schema", { "evals/a/case.yaml": 'schema_version: "2.0"\nname: a\n' }, 'schema_version "2.0" requires a newer Claude Code (this binary supports up to 1.x)'],
    ["no schema_version", { "evals/a/case.yaml": "name: a\n" }, 'missing required field schema_version (e.g. "1.0")'],
    ["max_turns over 200", { "evals/a/prompt.md": "---\nmax_turns: 201\n---\nhi\n", "evals/a/graders/g.md": "---\ntype: regex\n---\nx\n" }, "invalid case.yaml:\n  execution.max_turns: Number must be less than or equal to 200"],
    // Messages as claude 2.1.332 printed them for these files.
    [
      "many problems at once",
      { "evals/a/case.yaml": 'schema_version: "1.0"\nruns: 2.5\ntags: x\nexecution: { prompt: hi, foo: 1, env: { A: 1 } }\ngraders:\n  - { type: file_exists, name: x, path: a, extra: 1 }\n  - { type: nope, name: z }\n  - { type: regex, name: w, pattern: a, target: bogus }\n  - { type: tool_order, name: v, before: 3, after: { tool: A, x: 1 } }\n' },
      "invalid case.yaml:\n  name: Required\n  tags: Expected array, received string\n  execution.env.A: Expected string, received number\n  runs: Expected integer, received float\n  graders.0: Unrecognized key(s) in object: 'extra'\n  graders.1.type: Invalid discriminator value. Expected 'regex' | 'tool_order' | 'tool_used' | 'file_exists' | 'llm' | 'baseline'\n  graders.2.target: Invalid input\n  graders.3.before: Invalid input\n  graders.3.after: Unrecognized key(s) in object: 'x'",
    ],
    [
      "out-of-range numbers and a bad arm",
      { "evals/a/case.yaml": 'schema_version: "1.0"\nname: a\nrun: 3\nruns: 51\nexecution: { prompt: hi, max_turns: 201 }\ngraders:\n  - { type: file_exists, name: x, path: a, weight: 0 }\n  - { type: regex, name: y, pattern: a, match: count, flags: x }\n  - { type: regex, name: y, pattern: a, arm: sometimes }\n' },
      "invalid case.yaml:\n  execution.max_turns: Number must be less than or equal to 200\n  runs: Number must be less than or equal to 50\n  graders.0.weight: Number must be greater than 0\n  graders.1.flags: must be JS RegExp flags (d g i m s u v y)\n  graders.1.match: must be contains | not_contains | count:N\n  graders.2.arm: Invalid enum value. Expected 'with-only' | 'both', received 'sometimes'",
    ],
    ["an empty name and no graders", { "evals/a/case.yaml": 'schema_version: "1.0"\nname: ""\nexecution: { prompt: hi }\ngraders: []\n' }, "invalid case.yaml:\n  name: String must contain at least 1 character(s)\n  graders: Array must contain at least 1 element(s)"],
    ["an unknown prompt.md key", { "evals/a/prompt.md": "---\nturns: 3\n---\nhi\n" }, 'prompt.md: unknown frontmatter key "turns" (expected one of: schema_version, name, description, tags, plugins, runs, expected_outcome, model, max_turns, timeout_seconds, allowed_tools, disallowed_tools, artifact_publish, growthbook_overrides, append_system_prompt, env)'],
    ["a grader file without type", { "evals/a/prompt.md": "hi\n", "evals/a/graders/g.md": "---\nweight: 1\n---\nx\n" }, 'graders/g.md: frontmatter must include "type:" (regex | tool_order | tool_used | file_exists | llm | baseline)'],
    ["no prompt", { "evals/a/graders/g.md": "---\ntype: regex\n---\nx\n" }, "execution.prompt is required (a prompt.md body, or execution.prompt in case.yaml)"],
    ["bad flags", { "evals/a/prompt.md": "hi\n", "evals/a/graders/g.md": "---\ntype: regex\nflags: x\n---\nx\n" }, "invalid case.yaml:\n  graders.0.flags: must be JS RegExp flags (d g i m s u v y)"],
    ["bad match", { "evals/a/prompt.md": "hi\n", "evals/a/graders/g.md": "---\ntype: regex\nmatch: count\n---\nx\n" }, "invalid case.yaml:\n  graders.0.match: must be contains | not_contains | count:N"],
    ["the init template", { "evals/a/prompt.md": "TODO: describe what the agent should do\n", "evals/a/graders/g.md": "---\ntype: regex\n---\nx\n" }, 'the prompt is still the blank `init` template — replace the "TODO: describe what the agent should do" line'],
  ];
  for (const [what, files, message] of bad) {
    it(`refuses ${what} with claude's message (SUITE_INVALID)`, () => {
      const error = thrown(() => readPluginEvalSuite(suite(files))) as Error & { code?: string };
      expect(error.code).toBe("SUITE_INVALID");
      expect(error.message).toContain(message);
    });
  }

  it("refuses a directory without cases", () => {
    const error = thrown(() => readPluginEvalSuite(suite({ "evals/readme.txt": "x" }))) as Error & { code?: string };
    expect(error.code).toBe("SUITE_INVALID");
    expect(error.message).toContain("holds no cases");
  });
});

describe("validateCase defaults", () => {
  it("fills runs 3, max_turns 10, timeout 300, weight 1, target last_message, match contains", () => {
    const r = validateCase({ schema_version: "1.0", name: "a", execution: { prompt: "p" }, graders: [{ type: "regex", name: "g", pattern: "x" }, { type: "tool_used", name: "t", tool: "Bash" }] });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.case.runs).toBe(3);
    expect(r.case.execution).toEqual({ prompt: "p", max_turns: 10, timeout_seconds: 300, allowed_tools: [], env: {} });
    expect(r.case.graders[0]).toEqual({ type: "regex", name: "g", weight: 1, target: "last_message", pattern: "x", flags: "", match: "contains" });
    expect(r.case.graders[1]).toEqual({ type: "tool_used", name: "t", weight: 1, tool: "Bash" });
  });
  it("refuses runs over 50 and a weight of 0", () => {
    const r = validateCase({ schema_version: "1.0", name: "a", runs: 51, execution: { prompt: "p" }, graders: [{ type: "file_exists", name: "g", path: "x", weight: 0 }] });
    expect(r).toEqual({ ok: false, error: "invalid case.yaml:\n  runs: Number must be less than or equal to 50\n  graders.0.weight: Number must be greater than 0" });
  });
});
