/**
 * The protocol-turn recogniser (mock-model/run/protocol.ts) against request bodies recorded from
 * claude 2.1.197 and 2.1.332 (test/mock-model/fixtures/protocol), and against generated
 * conversations whose protocol state is known from how they were built.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect as vexpect, it } from "vitest";
import { backgroundTurn, readNotices, readProtocol, toolSearchTurn } from "../../mock-model/run/protocol.js";
import { MockRunState } from "../../mock-model/run/mock-run.js";
import { subagentWords } from "../../mock-model/run/flatten.js";
import { validateScript } from "../../mock-model/script/schema.js";
import { readRecording, scriptFromTranscript, type Script } from "../../mock-model/index.js";

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures/protocol");
const recorded = (name: string): Record<string, unknown>[] => JSON.parse(readFileSync(path.join(DIR, `${name}.json`), "utf8"));
const ON = { background: true, toolSearch: true };

const reviewer = { type: "reviewer", turns: [{ tools: [{ name: "Read", input: { file_path: "notes.txt" } }] }, { text: "Looks fine." }] };
const dispatch = (extra: Record<string, unknown> = {}) => ({ name: "Agent", input: { description: "review", prompt: "Review notes.txt", subagent_type: "reviewer", ...extra } });
/** The scripts the recordings were made with (see the fixtures' README). */
const SCRIPTS: Record<string, Script> = {
  portable: { turns: [{ tools: [dispatch()] }, { tools: [{ name: "mcp__echo__echo", input: { text: "ping" } }] }, { text: "Done." }], subagents: [reviewer] },
  explicit: {
    protocolTurns: false,
    turns: [
      { tools: [dispatch({ run_in_background: true })] },
      { text: "Started the reviewer." },
      { tools: [{ name: "ToolSearch", input: { query: "select:mcp__echo__echo" } }] },
      { tools: [{ name: "mcp__echo__echo", input: { text: "ping" } }] },
      { text: "Done." },
      { text: "More.", optional: true },
    ],
    subagents: [reviewer],
  },
};

describe("readProtocol on recorded requests", () => {
  // [agent, background fill, running dispatches, notified dispatches, mcp__echo__echo unloaded, ToolSearch offered]
  type Row = [string, "await" | "-", string[], string[], boolean, boolean];
  const main = (fill: Row[1], running: string[], notified: string[], unloaded: boolean, search: boolean): Row => ["main", fill, running, notified, unloaded, search];
  const sub: Row = ["sub", "-", [], [], false, false];
  const bg = "toolu_mock_1_1";
  const TABLE: Record<string, Row[]> = {
    // 2.1.197: the subagent runs in the foreground, MCP tools are loaded: nothing to fill.
    "portable-197": [main("-", [], [], false, false), sub, sub, main("-", [], [], false, false), main("-", [], [], false, false)],
    // 2.1.332: the launch notice, claude's "no visible output" re-ask, the notification (the script
    // goes on), the ToolSearch result (the tool is loaded), the MCP result.
    "portable-332": [
      main("-", [], [], true, true),
      main("await", [bg], [], true, true),
      sub,
      main("await", [bg], [], true, true),
      sub,
      main("-", [], [bg], true, true),
      main("-", [], [bg], false, true),
      main("-", [], [bg], false, true),
    ],
    // run_in_background set by the script: its launch and notification are the script's own, on both.
    "explicit-197": [main("-", [], [], false, false), sub, main("-", [], [], false, false), sub, main("-", [], [bg], false, false), main("-", [], [bg], false, false), main("-", [], [bg], false, false)],
    "explicit-332": [main("-", [], [], true, true), main("-", [], [], true, true), sub, sub, main("-", [], [bg], true, true), main("-", [], [bg], false, true), main("-", [], [bg], false, true)],
  };
  for (const [name, rows] of Object.entries(TABLE)) {
    it(name, () => {
      const bodies = recorded(name);
      vexpect(bodies.length).toBe(rows.length);
      bodies.forEach((body, i) => {
        const v = readProtocol(body);
        const agent = (body.tools as unknown[]).length > 3 ? "main" : "sub";
        const got: Row = [agent, backgroundTurn(v, ON) ? "await" : "-", [...v.running], [...v.notices.keys()], v.unloaded.has("mcp__echo__echo"), v.toolSearch];
        vexpect(got, `${name} request ${i}`).toEqual(rows[i]);
      });
    });
  }

  it("reads a notification's status and the subagent's answer on both versions", () => {
    for (const name of ["portable-332", "explicit-197"]) {
      const last = recorded(name).at(-1)!;
      vexpect(readProtocol(last).notices.get("toolu_mock_1_1"), name).toEqual({ toolUseId: "toolu_mock_1_1", status: "completed", result: "Looks fine." });
    }
  });
});

/** What the mock answered, in one word: a fill, the script's turn (its calls or text), or an error. */
function summarise(answer: Awaited<ReturnType<MockRunState["answer"]>>): string {
  if (answer.kind !== "message") return answer.kind;
  const blocks = answer.message.content;
  if (blocks.length === 0) return "(empty)";
  return blocks.map((b) => (b.type === "tool_use" ? `${b.name}${b.name === "ToolSearch" ? `(${String(b.input.query)})` : ""}` : b.type === "text" ? b.text : b.type)).join(" + ");
}

/** Serve a recording's requests, in their order, to a fresh run of `script`. */
async function replay(name: string, script: Script): Promise<{ answers: string[]; run: MockRunState }> {
  const run = new MockRunState("key", validateScript(script), "1", () => {});
  const answers: string[] = [];
  for (const body of recorded(name)) answers.push(summarise(await run.answer(body)));
  return { answers, run };
}

describe("the mock's answers to the recorded requests", () => {
  it("2.1.197: the portable script is served turn by turn, nothing filled", async () => {
    const { answers, run } = await replay("portable-197", SCRIPTS.portable!);
    vexpect(answers).toEqual(["Agent", "Read", "Looks fine.", "mcp__echo__echo", "Done."]);
    vexpect(run.filledTurns).toEqual([]);
    vexpect(run.errors).toEqual([]);
  });

  it("2.1.332: the same script, with the background waits and the ToolSearch filled in", async () => {
    const { answers, run } = await replay("portable-332", SCRIPTS.portable!);
    vexpect(answers).toEqual(["Agent", "(empty)", "Read", "(empty)", "Looks fine.", "ToolSearch(select:mcp__echo__echo)", "mcp__echo__echo", "Done."]);
    vexpect(run.filledTurns.map((f) => [f.agent, f.kind, f.beforeTurn, f.about])).toEqual([
      ["main", "await-background", 2, ["toolu_mock_1_1"]],
      ["main", "await-background", 2, ["toolu_mock_1_1"]],
      ["main", "tool-search", 2, ["mcp__echo__echo"]],
    ]);
    vexpect(run.unusedTurns()).toEqual([]);
    vexpect(run.errors).toEqual([]);
  });

  for (const version of ["197", "332"]) {
    it(`${version}: a script that answers the protocol itself is served as written, with or without protocolTurns: false`, async () => {
      // The order the CLI sent the requests in differs (2.1.197 starts the subagent first), not the answers.
      const start = version === "197" ? ["Agent", "Read", "Started the reviewer."] : ["Agent", "Started the reviewer.", "Read"];
      const want = [...start, "Looks fine.", "ToolSearch(select:mcp__echo__echo)", "mcp__echo__echo", "Done."];
      const off = await replay(`explicit-${version}`, SCRIPTS.explicit!);
      vexpect(off.answers).toEqual(want);
      // run_in_background and a scripted ToolSearch are the script's own even with filling on.
      const { protocolTurns: _, ...on } = SCRIPTS.explicit!;
      const served = await replay(`explicit-${version}`, on);
      vexpect(served.answers).toEqual(want);
      vexpect([...off.run.filledTurns, ...served.run.filledTurns]).toEqual([]);
    });
  }

  it("2.1.332 with filling off: the launch notice asks the script for its next turn, as the CLI sends it", async () => {
    const { answers, run } = await replay("portable-332", { ...SCRIPTS.portable!, protocolTurns: { background: false } });
    // Without the fill the script's turns answer the launch notice, then claude's re-ask…
    vexpect(answers.slice(0, 2)).toEqual(["Agent", "ToolSearch(select:mcp__echo__echo)"]);
    vexpect(run.filledTurns.map((f) => f.kind)).toContain("tool-search");
    vexpect(run.filledTurns.map((f) => f.kind)).not.toContain("await-background");
  });

  for (const [version, want] of [
    ["197", ["Agent", "Read", "Looks fine.", "mcp__echo__echo", "Done."]],
    ["332", ["Agent", "(empty)", "Read", "(empty)", "Looks fine.", "ToolSearch(select:mcp__echo__echo)", "mcp__echo__echo", "Done."]],
  ] as const) {
    it(`${version}: a function turn sees the subagent's words as the Agent call's result, and is resolved once across a ToolSearch`, async () => {
      const asked: unknown[] = [];
      const script: Script = {
        ...SCRIPTS.portable!,
        turns: [
          SCRIPTS.portable!.turns[0]!,
          (ctx) => {
            asked.push(ctx.toolResults);
            return { tools: [{ name: "mcp__echo__echo", input: { text: "ping" } }] };
          },
          { text: "Done." },
        ],
      };
      const { answers, run } = await replay(`portable-${version}`, script);
      vexpect(answers).toEqual(want);
      // 2.1.197 hands the answer back with an agentId trailer, 2.1.332 in a task notification: the same words here.
      vexpect(asked).toEqual([[{ toolUseId: "toolu_mock_1_1", name: "Agent", content: "Looks fine.", isError: false }]]);
      vexpect(run.errors).toEqual([]);
    });
  }

  it("subagentWords drops claude's framing of a foreground answer on either version", () => {
    const frame =
      "  <tools-used-before-summary>Read</tools-used-before-summary>\n  \n[Subagent hand-back] The text below is the final report of a subagent. The report follows:\n  The password is hunter2.\n  Line two.\nagentId: ad9f22ba420731601 (use SendMessage with to: 'ad9f22ba420731601', summary: '<5-10 word recap>' to continue this agent)\n<usage>subagent_tokens: 15</usage>";
    vexpect(subagentWords(frame)).toBe("The password is hunter2.\nLine two.");
    vexpect(subagentWords("Looks fine.\nagentId: a2 (use SendMessage with to: 'a2', summary: 'x' to continue this agent)\n<usage>subagent_tokens: 15</usage>")).toBe("Looks fine.");
    vexpect(subagentWords("No frame at all.")).toBe("No frame at all.");
  });
});

describe("toolSearchTurn", () => {
  const view = readProtocol(recorded("portable-332")[0]!);
  it("searches for the deferred, unloaded tools a turn calls, once each", () => {
    vexpect(toolSearchTurn(view, ["mcp__echo__echo", "Bash", "mcp__echo__echo", "WebFetch"], ON, new Set())).toEqual({ kind: "tool-search", names: ["mcp__echo__echo", "WebFetch"] });
  });
  it("leaves a turn alone that calls only loaded tools, calls ToolSearch itself, or when switched off", () => {
    vexpect(toolSearchTurn(view, ["Bash", "Read"], ON, new Set())).toBeUndefined();
    vexpect(toolSearchTurn(view, ["ToolSearch", "mcp__echo__echo"], ON, new Set())).toBeUndefined();
    vexpect(toolSearchTurn(view, ["mcp__echo__echo"], { background: true, toolSearch: false }, new Set())).toBeUndefined();
  });
  it("does not search again right after its own search (a search that loaded nothing)", () => {
    const after = readProtocol(recorded("portable-332")[6]!);
    vexpect(toolSearchTurn({ ...after, unloaded: new Set(["mcp__echo__echo"]) }, ["mcp__echo__echo"], ON, new Set(["toolu_mock_1_8"]))).toBeUndefined();
    vexpect(toolSearchTurn({ ...after, unloaded: new Set(["mcp__echo__echo"]) }, ["mcp__echo__echo"], ON, new Set())).toEqual({ kind: "tool-search", names: ["mcp__echo__echo"] });
  });
  it("on 2.1.197 no tool is deferred and ToolSearch is not offered", () => {
    vexpect(toolSearchTurn(readProtocol(recorded("portable-197")[0]!), ["mcp__echo__echo", "WebFetch"], ON, new Set())).toBeUndefined();
  });
});

describe("readProtocol on generated conversations (oracle: how they were built)", () => {
  type Call = { kind: "dispatch" | "other"; explicit: boolean; background: boolean; notify: "never" | "with-results" | "at-end" };
  const call = fc.record({
    kind: fc.constantFrom("dispatch" as const, "other" as const),
    explicit: fc.boolean(),
    background: fc.boolean(),
    notify: fc.constantFrom("never" as const, "with-results" as const, "at-end" as const),
  });
  const names = fc.uniqueArray(fc.constantFrom("mcp__a__x", "mcp__b__y", "WebFetch", "Monitor", "Bash", "Read"), { maxLength: 6 });
  const conversation = fc.record({
    rounds: fc.array(fc.array(call, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }),
    keptFill: fc.boolean(),
    direct: names,
    deferredFlag: names,
    listed: names,
    loaded: names,
    wrapped: fc.boolean(),
  });

  const notice = (id: string, wrapped: boolean) => {
    const block = `<task-notification>\n<task-id>t-${id}</task-id>\n<tool-use-id>${id}</tool-use-id>\n<status>completed</status>\n<result>answer of ${id}</result>\n</task-notification>`;
    return wrapped ? `<system-reminder>\n[SYSTEM NOTIFICATION - NOT USER INPUT]\n${block}\n</system-reminder>` : block;
  };

  it("finds exactly the running background dispatches, the protocol event and the unloaded tools", () => {
    fc.assert(
      fc.property(conversation, (c) => {
        const messages: Record<string, unknown>[] = [{ role: "user", content: [{ type: "text", text: "go" }] }];
        const calls: (Call & { id: string; round: number })[] = [];
        let n = 0;
        c.rounds.forEach((round, r) => {
          const here = round.map((x) => ({ ...x, id: `toolu_${++n}`, round: r }));
          calls.push(...here);
          messages.push({
            role: "assistant",
            content: here.map((x) => ({ type: "tool_use", id: x.id, name: x.kind === "dispatch" ? "Agent" : "Bash", input: x.kind === "dispatch" && x.explicit ? { prompt: "p", run_in_background: x.background } : { prompt: "p" } })),
          });
          const content: Record<string, unknown>[] = here.map((x) => ({
            type: "tool_result",
            tool_use_id: x.id,
            content: x.kind === "dispatch" && x.background ? [{ type: "text", text: "Async agent launched successfully.\nagentId: a1" }] : "done",
          }));
          if (r === 0 && c.loaded.length > 0) content.push({ type: "tool_result", tool_use_id: "toolu_search", content: c.loaded.map((name) => ({ type: "tool_reference", tool_name: name })) });
          for (const x of here) if (x.kind === "dispatch" && x.background && x.notify === "with-results") content.push({ type: "text", text: notice(x.id, c.wrapped) });
          messages.push({ role: "user", content });
        });
        const atEnd = calls.filter((x) => x.kind === "dispatch" && x.background && x.notify === "at-end");
        if (atEnd.length > 0) {
          if (c.keptFill) messages.push({ role: "assistant", content: [] });
          messages.push({ role: "user", content: atEnd.map((x) => ({ type: "text", text: notice(x.id, c.wrapped) })) });
        }
        const tools = [...c.direct.map((name) => ({ name })), ...c.deferredFlag.filter((x) => !c.direct.includes(x)).map((name) => ({ name, defer_loading: true })), { name: "DeferredToolPlaceholder", defer_loading: true }];
        const system = c.listed.length ? `You are Claude.\nThe following deferred tools are now available via ToolSearch. Load them first:\n${c.listed.join("\n")}\n\nMore.` : "You are Claude.";

        const v = readProtocol({ system, messages, tools });

        const eligible = (x: Call) => x.kind === "dispatch" && x.background && !x.explicit;
        const lastRound = c.rounds.length - 1;
        vexpect([...v.running].sort()).toEqual(calls.filter((x) => eligible(x) && x.notify === "never").map((x) => x.id).sort());
        vexpect([...v.launched].sort()).toEqual(calls.filter((x) => x.kind === "dispatch" && x.background).map((x) => x.id).sort());
        vexpect([...v.notices.keys()].sort()).toEqual(calls.filter((x) => x.kind === "dispatch" && x.background && x.notify !== "never").map((x) => x.id).sort());
        const event = calls.some((x) => eligible(x) && (x.round === lastRound || x.notify === "at-end"));
        vexpect(v.backgroundEvent).toBe(event);
        const deferred = new Set([...c.deferredFlag, ...c.listed]);
        vexpect([...v.unloaded].sort()).toEqual([...deferred].filter((x) => !c.direct.includes(x) && !c.loaded.includes(x)).sort());
        vexpect(v.toolSearch).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("readNotices takes every well-formed block and skips one without a tool-use id", () => {
    const text = `${notice("a", true)}\n<task-notification><task-id>x</task-id><status>failed</status></task-notification>\n${notice("b", false)}`;
    vexpect(readNotices(text).map((n) => n.toolUseId)).toEqual(["a", "b"]);
  });
});

describe("replays: a recording whose model answered the background turns itself keeps them", () => {
  const VERSIONS = path.join(DIR, "../../../fixtures/claude-versions");
  const TABLE: [string, boolean][] = [
    // 2.1.332, the model said "main turn 2" while the reviewer ran: that turn is the recording's.
    [path.join(VERSIONS, "bg332.jsonl"), true],
    [path.join(VERSIONS, "session-bg332/4ab8c696-bb59-40cc-8ae5-48c57f84e331.jsonl"), true],
    // Foreground (2.1.197, or run_in_background: false), a background shell, and a run the mock filled in.
    [path.join(VERSIONS, "bg197.jsonl"), false],
    [path.join(VERSIONS, "fg332.jsonl"), false],
    [path.join(VERSIONS, "bgbash332.jsonl"), false],
    [path.join(DIR, "filled-bg332.jsonl"), false],
  ];
  for (const [file, answered] of TABLE) {
    it(`${path.basename(file)}: ${answered ? "background filling off" : "the mock fills in"}`, () => {
      vexpect(readRecording(file).answeredBackground).toBe(answered);
      vexpect(scriptFromTranscript(file).protocolTurns).toEqual(answered ? { background: false } : undefined);
    });
  }
});
