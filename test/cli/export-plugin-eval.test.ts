/**
 * `proctor export claude-plugin-eval` through the built bin: a case allows the tools its own script
 * calls (main agent and subagents, an inline script or a script file), and the command names the
 * gated ones to grant. Nothing here spawns claude.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { proctor } from "../helpers/cli.js";

const INDEX = new URL("../../dist/src/index.js", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "proctor-export-pe-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const caseOf = (out: string, name: string) => parse(readFileSync(join(out, name, "case.yaml"), "utf8")) as { execution: { allowed_tools: string[]; disallowed_tools?: string[] } };

describe("proctor export claude-plugin-eval", () => {
  it("allows the tools the case's own script calls, and names the gated ones to grant", async () => {
    const script = {
      turns: [{ tools: [{ name: "Skill", input: { skill: "tidy" } }] }, { tools: [{ name: "Bash", input: { command: "ls" } }, { name: "Agent", input: { prompt: "look", subagent_type: "Explore" } }] }, { blocks: [{ type: "tool_use", name: "Write", input: { file_path: "a", content: "b" } }] }, { text: "Summary: done." }],
      subagents: [{ prompt: "look", turns: [{ tools: [{ name: "Grep", input: { pattern: "x" } }] }, { text: "found" }] }],
    };
    writeFileSync(join(dir, "script.json"), JSON.stringify({ turns: [{ tools: [{ name: "Edit", input: { file_path: "a", old_string: "b", new_string: "c" } }] }, { text: "ok" }] }));
    writeFileSync(
      join(dir, "tidy.eval.mjs"),
      `import { defineEval, output, tool } from ${JSON.stringify(INDEX)};
export const inline = defineEval({ name: "inline", mock: { prompt: "Tidy up.", allowedTools: ["Skill"], disallowedTools: ["WebFetch"], script: ${JSON.stringify(script)} }, checks: [output(/^Summary:/m), tool("Bash")], trials: 1 });
export const fromFile = defineEval({ name: "from file", mock: { prompt: "Edit.", script: "./script.json" }, checks: [tool("Edit")], trials: 1 });
`,
    );
    const out = join(dir, "evals");
    const r = await proctor(["export", "claude-plugin-eval", join(dir, "tidy.eval.mjs"), "-o", out]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(caseOf(out, "inline").execution).toMatchObject({ allowed_tools: ["Skill", "Bash", "Agent", "Write", "Grep"], disallowed_tools: ["WebFetch"] });
    expect(caseOf(out, "from-file").execution.allowed_tools).toEqual(["Skill", "Edit"]);
    expect(r.stdout).toContain("claude plugin eval PLUGIN_DIR --allow-tools Bash Edit Write");
  });
});
