/** The trace views: the timeline's arrangement, the terminal text, colour rules, and the HTML's escaping. */
import { describe, expect, it } from "vitest";
import { evalChecks, notTool, readTranscript, tool, turns, type Trace } from "../../src/index.js";
import { createPalette, shouldColour } from "../../reporters/trace-view/colour.js";
import { buildTimeline } from "../../reporters/trace-view/timeline.js";
import { renderTraceHtml, renderTraceText, stripAnsi, xmlSafe } from "../../reporters/index.js";
import { makeTrace } from "../helpers/trace.js";

const explore = readTranscript(new URL("../fixtures/transcripts/explore-subagent-lockfile-hook.jsonl", import.meta.url).pathname);
const bashFail = readTranscript(new URL("../fixtures/transcripts/edit-write-bash-fail.jsonl", import.meta.url).pathname);

describe("buildTimeline", () => {
  it("nests subagent calls under their dispatch, attaches hooks to their call and places replies where they happened", () => {
    const t = buildTimeline(explore);
    const shape = t.rows.map((r) => (r.type === "call" ? `${r.depth}:#${r.index} ${r.call.name}${r.hooks.map((h) => ` [${h.name}]`).join("")}` : r.type === "hook" ? `${r.depth}:hook ${r.hook.name}` : `${r.depth}:reply ${r.number}`));
    expect(shape).toEqual(["0:#0 Agent", "1:#1 Glob", "1:hook SubagentStop", "0:#2 Write [PreToolUse:Write]", "0:reply 1"]);
  });

  it("puts a failed check with a callIndex under that call, and one without it with the summary", () => {
    const results = evalChecks(explore, [notTool("Write"), turns({ max: 1 }), tool("Glob")]);
    const t = buildTimeline(explore, results);
    const write = t.rows.find((r) => r.type === "call" && r.index === 2);
    expect(write?.type === "call" && write.failures.map((f) => f.label)).toEqual(["notTool(Write)"]);
    expect(t.unplaced.map((f) => f.label)).toEqual(["turns(max: 1)"]);
  });

  it("treats a callIndex outside the trace as unplaced rather than dropping it", () => {
    const t = buildTimeline(explore, [{ kind: "x", label: "x", pass: false, score: 0, message: "m", callIndex: 99 }]);
    expect(t.unplaced.map((r) => r.label)).toEqual(["x"]);
  });
});

describe("renderTraceText", () => {
  it("shows calls with status marks, the subagent indented, hooks, the reply, usage and the check tally", () => {
    const text = renderTraceText(explore, { colour: false, results: evalChecks(explore, [notTool("Write"), tool("Glob")]) });
    expect(text).toContain("#0 ✓ Agent [Explore]  find configs");
    expect(text).toContain("  │ #1 ✓ Glob  **/*.json");
    expect(text).toContain("#2 ⊘ Write  /home/dev/wf2/package-lock.json  denied by hook");
    expect(text).toContain('hook PreToolUse:Write · exit 2 · blocked · "lockfiles are generated; do not edit them"');
    expect(text).toContain("✗ notTool(Write)  expected no call to Write");
    expect(text).toContain("reply 1 Found the config files; I did not touch the lockfile.");
    expect(text).toContain("usage  300 in · 75 out · 60 cache-write · 150 cache-read · $0.0043 · 0.5 s · 3 turns");
    expect(text).toContain("checks 1 of 2 failed");
    expect(text).not.toMatch(/\x1b\[/);
  });

  it("shows a mock-model run's cost as $0, with what claude priced its tokens, as the run summary does", () => {
    const mock = { ...explore, modelRequests: [{ agent: "main", system: "", messages: "", tools: [] }] };
    const text = renderTraceText(mock, { colour: false });
    expect(text).toContain("· $0 (mock; claude priced it $0.0043) ·");
  });

  it("marks a failed call and lists the files the run changed", () => {
    const text = renderTraceText(bashFail, { colour: false });
    expect(text).toContain("#3 ✗ Bash  node -e 'process.exit(3)'  failure");
    expect(text).toContain("files  modified src/app.js, created test/app.test.js");
  });

  it("colours only when asked, and strips ANSI the agent's own output carried", () => {
    const trace = makeTrace({ calls: [{ name: "Bash", input: { command: "ls --color" }, result: "\x1b[34msrc\x1b[0m" }] });
    expect(renderTraceText(trace, { colour: true })).toMatch(/\x1b\[32m✓/);
    const plain = renderTraceText(trace, { colour: false });
    expect(plain).toContain("→ src");
    expect(plain).not.toMatch(/\x1b/);
  });

  it("says so when the run recorded nothing, and flags an incomplete run", () => {
    const text = renderTraceText(makeTrace({ complete: false, errors: [{ kind: "incomplete", message: "no result line" }] }), { colour: false });
    expect(text).toContain("INCOMPLETE");
    expect(text).toContain("(no tool calls, hooks or replies recorded)");
    expect(text).toContain("error  incomplete: no result line");
  });
});

describe("shouldColour", () => {
  it.each([
    [{ isTTY: true }, {}, true],
    [{ isTTY: false }, {}, false],
    [{ isTTY: true }, { NO_COLOR: "1" }, false],
    [{ isTTY: true }, { NO_COLOR: "" }, true],
    [{ isTTY: false }, { FORCE_COLOR: "1" }, true],
    [{ isTTY: true }, { FORCE_COLOR: "0" }, false],
    [{ isTTY: true }, { TERM: "dumb" }, false],
    [{ isTTY: false }, { NO_COLOR: "1", FORCE_COLOR: "1" }, false],
  ])("stream %o, env %o → %s", (stream, env, expected) => {
    expect(shouldColour(stream, env as NodeJS.ProcessEnv)).toBe(expected);
  });
  it("a disabled palette returns text unchanged", () => {
    expect(createPalette(false).red("x")).toBe("x");
  });
});

describe("renderTraceHtml", () => {
  const hostile: Trace = makeTrace({
    calls: [{ name: "Bash", input: { command: '<script>alert(1)</script> && echo "x" & y' }, result: "\x1b[31mred\x1b[0m\u0000done", status: "failure" }],
    replies: [{ text: "<img src=x onerror=alert(1)>", at: 1 }],
  });

  it("escapes agent text, strips ANSI and control characters, and loads nothing from the network", () => {
    const html = renderTraceHtml(hostile, { results: evalChecks(hostile, [notTool("Bash")]) });
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toMatch(/[\x00\x1b]/);
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it("draws each failed check inside the element of the call it is about", () => {
    const html = renderTraceHtml(explore, { results: evalChecks(explore, [notTool("Write")]) });
    const call = html.slice(html.indexOf('id="call-2"'), html.indexOf("</li>", html.indexOf('class="failures"')));
    expect(call).toContain('class="check-failed" data-check="notTool(Write)"');
    expect(html).toContain('<a href="#call-2">at call #2</a>');
  });
});

describe("sanitising", () => {
  it("stripAnsi removes colour, cursor and OSC hyperlink escapes", () => {
    expect(stripAnsi("\x1b[1;31mbold\x1b[0m \x1b[2K\x1b]8;;http://x\x07link\x1b]8;;\x07")).toBe("bold link");
  });
  it("xmlSafe drops characters XML 1.0 forbids, including lone surrogates, and keeps the rest", () => {
    expect(xmlSafe("a\u0000b\u0008c\u000bd\ud800e\uffffé😀\tf\n")).toBe("abcdeé😀\tf\n");
  });
});
