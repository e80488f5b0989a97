/**
 * The observer against the real claude binary and real strace: each effect lands on the call,
 * hook or MCP server that made it, and on no other owner. Run on the pinned claude and on the
 * newest one (PROCTOR_CLAUDE=…), as CI does.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runHarness, type HarnessResult } from "../../harness/index.js";
import { observerSupport } from "../../harness/observe/observer.js";
import { validateTrace } from "../../src/index.js";
import type { ObservedEffect, Trace } from "../../src/trace/types.js";

const WRITER_MCP = fileURLToPath(new URL("./fixtures/write-mcp.mjs", import.meta.url));
const usable = observerSupport().usable;

/** Every owner (`call:<id>`, `hook:<name>`, `mcp:<server>`, `agent`, `unattributed`) whose record writes `file` in the work dir. */
function ownersOf(trace: Trace, workDir: string, file: string): string[] {
  const target = path.join(workDir, file);
  const touches = (effects: readonly ObservedEffect[]) => effects.some((e) => ((e.kind === "write" || e.kind === "create") && e.path === target) || (e.kind === "rename" && e.to === target));
  const owners: string[] = [];
  for (const c of trace.toolCalls) if (c.observed && touches(c.observed)) owners.push(`call:${c.id}`);
  for (const o of trace.observation?.others ?? []) {
    if (!touches(o.effects)) continue;
    owners.push(o.owner.kind === "hook" ? `hook:${o.owner.name}` : o.owner.kind === "mcp" ? `mcp:${o.owner.server}` : o.owner.kind === "call" ? `call:${o.owner.callId}` : "agent");
  }
  if (touches(trace.observation?.unattributed ?? [])) owners.push("unattributed");
  return owners;
}

function callId(trace: Trace, pick: (input: Record<string, unknown>, name: string) => boolean): string {
  const call = trace.toolCalls.find((c) => pick(c.input, c.name));
  if (!call) throw new Error(`no such call among ${trace.toolCalls.map((c) => `${c.name} ${JSON.stringify(c.input)}`).join("; ")}`);
  return call.id;
}

async function observed(result: Promise<HarnessResult>): Promise<HarnessResult> {
  const r = await result;
  validateTrace(r.trace);
  expect(r.trace.observation?.mechanism).toBe("strace");
  // Every Bash call that ran was found: none is left to the agent's record by a missed match.
  expect(r.trace.observation?.gaps.filter((g) => g.includes("was not seen"))).toEqual([]);
  return r;
}

describe.skipIf(!usable)("observer (real claude, real strace)", () => {
  it("two parallel Bash calls in one turn: each write on its own call", async () => {
    const r = await observed(
      runHarness({
        prompt: "write two files",
        allowedTools: ["Bash"],
        script: { turns: [{ tools: [{ name: "Bash", input: { command: "echo one > one.txt" } }, { name: "Bash", input: { command: "printf 'two' > \"two.txt\" && ls" } }] }, { text: "Done." }] },
      }),
    );
    const { trace, workDir } = r;
    const one = callId(trace, (i) => i.command === "echo one > one.txt");
    const two = callId(trace, (i) => typeof i.command === "string" && i.command.startsWith("printf"));
    expect(ownersOf(trace, workDir, "one.txt")).toEqual([`call:${one}`]);
    expect(ownersOf(trace, workDir, "two.txt")).toEqual([`call:${two}`]);
    // The second call's ls is its own exec; claude's wrapper shell is not listed as one.
    const execs = (id: string) => (trace.toolCalls.find((c) => c.id === id)?.observed ?? []).filter((e) => e.kind === "exec").map((e) => e.argv?.[0]);
    expect(execs(two)).toEqual(["ls"]);
    expect(execs(one)).toEqual([]);
    expect(trace.observation?.unattributed).toEqual([]);
    await r.cleanup();
  });

  it("without claude's sandbox the shell is claude's direct child: still tied to its call", async () => {
    const r = await observed(
      runHarness({
        prompt: "write",
        sandbox: { off: "the observer must find a shell claude starts without its sandbox's layers" },
        allowedTools: ["Bash"],
        script: { turns: [{ tools: [{ name: "Bash", input: { command: "echo free > free.txt && cat free.txt" } }] }, { text: "Done." }] },
      }),
    );
    const id = callId(r.trace, (i) => i.command === "echo free > free.txt && cat free.txt");
    expect(ownersOf(r.trace, r.workDir, "free.txt")).toEqual([`call:${id}`]);
    expect(r.trace.toolCalls.find((c) => c.id === id)?.observed?.filter((e) => e.kind === "exec").map((e) => e.argv?.[0])).toEqual(["cat"]);
    await r.cleanup();
  });

  it("a run_in_background Bash call and a subagent's Bash call: each on its own call", async () => {
    const r = await observed(
      runHarness({
        prompt: "background and delegate",
        allowedTools: ["Bash", "Agent"],
        agents: { worker: "---\nname: worker\ndescription: Writes files\ntools: Bash\n---\nDo what you are asked.\n" },
        script: {
          turns: [
            { tools: [{ name: "Bash", input: { command: "echo bg > bg.txt", run_in_background: true } }] },
            { tools: [{ name: "Agent", input: { description: "write", prompt: "write sub.txt", subagent_type: "worker", run_in_background: false } }] },
            { text: "Done." },
            // The background task's notification gives the main agent one more turn when it ends after the reply.
            { text: "Noted.", optional: true },
          ],
          subagents: [{ type: "worker", turns: [{ tools: [{ name: "Bash", input: { command: "echo sub > sub.txt" } }] }, { text: "Wrote it." }] }],
        },
      }),
    );
    const { trace, workDir } = r;
    const bg = callId(trace, (i) => i.command === "echo bg > bg.txt");
    const sub = trace.toolCalls.find((c) => c.input.command === "echo sub > sub.txt");
    expect(sub?.agent).not.toBe("main");
    expect(ownersOf(trace, workDir, "bg.txt")).toEqual([`call:${bg}`]);
    expect(ownersOf(trace, workDir, "sub.txt")).toEqual([`call:${sub?.id}`]);
    await r.cleanup();
  });

  it("a hook command's write is the hook's, not the call it ran after", async () => {
    const r = await observed(
      runHarness({
        prompt: "run it",
        allowedTools: ["Bash"],
        settings: { hooks: { PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo hooked >> hook-out.txt" }] }] } },
        script: { turns: [{ tools: [{ name: "Bash", input: { command: "echo mine > mine.txt" } }] }, { text: "Done." }] },
      }),
    );
    const { trace, workDir } = r;
    const call = callId(trace, (i) => i.command === "echo mine > mine.txt");
    expect(ownersOf(trace, workDir, "hook-out.txt")).toEqual(["hook:PostToolUse:Bash"]);
    expect(ownersOf(trace, workDir, "mine.txt")).toEqual([`call:${call}`]);
    const hook = trace.observation?.others.find((o) => o.owner.kind === "hook");
    expect(hook?.owner).toEqual({ kind: "hook", name: "PostToolUse:Bash", command: "echo hooked >> hook-out.txt" });
    await r.cleanup();
  });

  it("an MCP server's write on a tool call is the server's", async () => {
    const r = await observed(
      runHarness({
        prompt: "take a note",
        mcpConfig: { mcpServers: { writer: { command: "node", args: [WRITER_MCP] } } },
        script: { turns: [{ tools: [{ name: "mcp__writer__write", input: { path: "mcp-note.txt" } }] }, { text: "Noted." }] },
      }),
    );
    const { trace, workDir } = r;
    expect(trace.toolCalls.find((c) => c.name === "mcp__writer__write")?.result).toBe("wrote");
    expect(ownersOf(trace, workDir, "mcp-note.txt")).toEqual(["mcp:writer"]);
    await r.cleanup();
  });

  it("a program writing through a FIFO and a program it execs: on the call, with the FIFO's type", async () => {
    const command = "mkfifo pipe1 && { cat pipe1 > fifo-out.txt & } && echo through > pipe1 && wait && sh -c 'echo child > exec-out.txt'";
    const r = await observed(
      runHarness({
        prompt: "pipe it",
        allowedTools: ["Bash"],
        script: { turns: [{ tools: [{ name: "Bash", input: { command } }] }, { text: "Done." }] },
      }),
    );
    const { trace, workDir } = r;
    const call = trace.toolCalls.find((c) => c.input.command === command);
    expect(call?.status).toBe("success");
    const effects = call?.observed ?? [];
    const fifo = path.join(workDir, "pipe1");
    expect(effects).toContainEqual(expect.objectContaining({ kind: "create", path: fifo, fileType: "fifo" }));
    expect(effects).toContainEqual(expect.objectContaining({ kind: "write", path: fifo, fileType: "fifo" }));
    expect(effects.filter((e) => e.kind === "exec").map((e) => path.basename(e.path ?? ""))).toEqual(expect.arrayContaining(["mkfifo", "cat", "sh"]));
    for (const f of ["fifo-out.txt", "exec-out.txt", "pipe1"]) expect(ownersOf(trace, workDir, f)).toEqual([`call:${call?.id}`]);
    await r.cleanup();
  });

  it("a call that floods the log is cut at the cap, and the cut is a gap", async () => {
    const command = "for i in $(seq 2500); do : > f$i; done";
    const r = await observed(
      runHarness({ prompt: "flood", allowedTools: ["Bash"], script: { turns: [{ tools: [{ name: "Bash", input: { command } }] }, { text: "Done." }] } }),
    );
    const call = r.trace.toolCalls.find((c) => c.input.command === command);
    expect(call?.observed?.length).toBe(2000);
    expect(r.trace.observation?.gaps).toContainEqual(expect.stringMatching(/^\d+ effect\(s\) beyond the observer's caps/));
    await r.cleanup();
  });

  it("observe: false runs unobserved", async () => {
    const { trace, cleanup } = await runHarness({ prompt: "x", observe: false, allowedTools: ["Bash"], script: { turns: [{ tools: [{ name: "Bash", input: { command: "echo x > x.txt" } }] }, { text: "Done." }] } });
    expect(trace.observation).toBeUndefined();
    expect(trace.toolCalls[0]?.observed).toBeUndefined();
    await cleanup();
  });
});
