import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadScript, parseScript, scriptErrors, validateScript } from "../../mock-model/index.js";
import { isProctorError } from "../../src/index.js";

const dir = mkdtempSync(path.join(tmpdir(), "proctor-script-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("script validation", () => {
  it("accepts the shorthand, explicit blocks, faults and function turns", () => {
    expect(
      scriptErrors({
        turns: [
          { thinking: "hm", text: "Looking.", tools: [{ name: "Bash", input: { command: "ls" } }, { name: "Read", input: { file_path: "a" }, id: "toolu_x" }] },
          { blocks: [{ type: "tool_use", name: "Glob", input: {} }, { type: "text", text: "then this" }], usage: { inputTokens: 5, outputTokens: 7 }, stopReason: "tool_use" },
          { fault: "overloaded", times: 2 },
          { fault: { status: 503, message: "busy" } },
          () => ({ text: "computed" }),
          { text: "Done.", delayMs: 10 },
        ],
        subagents: [{ type: "Explore", prompt: /config/i, turns: [{ text: "found" }] }, { prompt: "review", turns: [{ text: "ok" }] }],
        sideReply: "fine",
      }),
    ).toEqual([]);
  });

  it("protocolTurns: true, false, or which kinds of protocol turn the mock fills in", () => {
    for (const protocolTurns of [true, false, { background: false }, { toolSearch: false }, { background: true, toolSearch: false }, {}]) {
      expect(scriptErrors({ turns: [{ text: "ok" }], protocolTurns }), JSON.stringify(protocolTurns)).toEqual([]);
    }
    expect(scriptErrors({ turns: [{ text: "ok" }], protocolTurns: "off" }).join("\n")).toMatch(/^protocolTurns: must be boolean/m);
    expect(scriptErrors({ turns: [{ text: "ok" }], protocolTurns: { search: false } }).join("\n")).toMatch(/protocolTurns/);
    expect(scriptErrors({ turns: [{ text: "ok" }], protocolTurns: { background: "no" } }).join("\n")).toMatch(/protocolTurns\.background: must be boolean/);
  });

  it("names the path of every bad field", () => {
    const errors = scriptErrors({
      turns: [{ text: "ok" }, { text: "x" }, { tools: [{ name: "Bash", input: "ls" }] }, { text: 3 }],
      subagents: [{ type: "Explore", turns: [{ fault: "boom" }] }],
    });
    expect(errors).toContain('turns[2].tools[0].input: must be object (got "ls")');
    expect(errors).toContain("turns[3].text: must be string (got 3)");
    expect(errors.some((e) => e.startsWith('subagents[0].turns[0].fault: must be one of "overloaded", "server-error", "cut", "stall"'))).toBe(true);
  });

  it("refuses turns that say nothing or mix a fault with content, and unknown fields", () => {
    expect(scriptErrors({ turns: [{}] })).toEqual(["turns[0]: a turn needs text, thinking, tools, blocks or fault"]);
    expect(scriptErrors({ turns: [{ fault: "cut", text: "hi" }] })[0]).toMatch(/^turns\[0\]: a fault turn answers with the fault instead/);
    expect(scriptErrors({ turns: [{ text: "a", times: 2 }] })).toEqual(["turns[0].times: only a fault turn repeats; add a fault or drop times"]);
    expect(scriptErrors({ turns: [{ txt: "a" }] })).toContain('turns[0]: unknown field "txt"');
    expect(scriptErrors({ turns: [{ blocks: [{ type: "text" }] }] })).toEqual(['turns[0].blocks[0]: a text block needs "text"']);
    expect(scriptErrors({})).toEqual(['script: missing required field "turns"']);
  });

  it("throws SCRIPT_INVALID listing every problem", () => {
    try {
      validateScript({ turns: [{ tools: [{ input: {} }] }, {}] }, "my-script.json");
      expect.unreachable();
    } catch (error) {
      expect(isProctorError(error) && error.code).toBe("SCRIPT_INVALID");
      expect((error as Error).message).toMatch(/^my-script.json is not a valid script \(1 problem\)\n {2}turns\[0\]\.tools\[0\]: missing required field "name"/);
    }
  });

  it("loads JSON and YAML files, turning {$regex} prompts into RegExps", () => {
    const yamlFile = path.join(dir, "s.yaml");
    writeFileSync(yamlFile, "turns:\n  - tools:\n      - name: Agent\n        input: { prompt: Review it, subagent_type: reviewer }\n  - text: Done.\nsubagents:\n  - prompt: { $regex: '^review', $flags: i }\n    turns:\n      - text: fine\n");
    const script = loadScript(yamlFile);
    expect(script.subagents?.[0].prompt).toEqual(/^review/i);
    const jsonFile = path.join(dir, "s.json");
    writeFileSync(jsonFile, JSON.stringify({ turns: [{ text: "hi" }] }));
    expect(loadScript(jsonFile)).toEqual({ turns: [{ text: "hi" }] });
  });

  it("reports unreadable and unparsable files by name", () => {
    expect(() => loadScript(path.join(dir, "missing.json"))).toThrow(/cannot read script .*missing\.json: ENOENT/);
    expect(() => parseScript("turns: [", "bad.yaml")).toThrow(/^bad\.yaml is not YAML: /);
    expect(() => parseScript(JSON.stringify({ turns: [], subagents: [{ prompt: { $regex: "(" }, turns: [] }] }), "re.json")).toThrow(/subagents\[0\]\.prompt: bad RegExp/);
  });
});
