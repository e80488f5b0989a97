/**
 * The run-health gate on the real claude binary (both CI versions): each item the harness judges
 * fails on a run that did not happen as designed, says what to do, and makes the trial an errored
 * one in `measure` — where, before the gate, the negative checks passed.
 */
import { describe, expect as vexpect, it } from "vitest";
import { runHarness, type HarnessSpec } from "../../harness/index.js";
import { measure, notTool, subagent, tool, type Trace } from "../../src/index.js";

const failedItems = (trace: Trace) => (trace.health?.items ?? []).filter((i) => i.status === "failed").map((i) => i.name);
const item = (trace: Trace, name: string) => trace.health?.items.find((i) => i.name === name);

async function run(spec: HarnessSpec): Promise<Trace> {
  const result = await runHarness({ reject: false, ...spec });
  await result.cleanup();
  return result.trace;
}

const bash = (command: string) => ({ tools: [{ name: "Bash", input: { command } }] });

describe("run health on the real binary", { timeout: 60_000 }, () => {
  it("script-consumed: scripted turns the agent never asked for fail, unless marked optional", async () => {
    const [early, optional] = await Promise.all([
      run({ prompt: "go", script: { turns: [{ text: "Done." }, bash("echo never")] } }),
      run({ prompt: "go", script: { turns: [{ text: "Done." }, { ...bash("echo never"), optional: true }] } }),
    ]);
    vexpect(failedItems(early)).toEqual(["script-consumed"]);
    vexpect(item(early, "script-consumed")?.message).toMatch(/the main agent: 1 scripted turn never asked for/);
    vexpect(optional.health?.ok).toBe(true);
    // Before the gate this trial was a pass of notTool("Bash"); now it is an errored trial.
    const report = await measure({ run: () => early, checks: [notTool("Bash")], trials: 1, progress: false });
    vexpect([report.trials.errored, report.checks[0]?.passes, report.errors[0]?.code, report.errors[0]?.health]).toEqual([1, 0, "RUN_UNHEALTHY", ["script-consumed"]]);
    // Switched off for the eval with a reason, the same trial is judged by its checks.
    const off = await measure({ run: () => early, checks: [notTool("Bash")], trials: 1, progress: false, health: { "script-consumed": "the agent may stop early" } });
    vexpect([off.trials.errored, off.checks[0]?.passes]).toEqual([0, 1]);
  });

  it("hooks-ok: a hook that crashed (exit 1) or timed out", async () => {
    const hook = (command: string, timeout?: number) => ({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command, ...(timeout ? { timeout } : {}) }] }] } });
    const [crashed, slow] = await Promise.all([
      run({ prompt: "go", settings: hook("echo boom >&2; exit 1"), script: { turns: [bash("echo hi"), { text: "Done." }] } }),
      run({ prompt: "go", settings: hook("sleep 5", 1), script: { turns: [bash("echo hi"), { text: "Done." }] } }),
    ]);
    vexpect(failedItems(crashed)).toEqual(["hooks-ok"]);
    vexpect(item(crashed, "hooks-ok")?.message).toMatch(/PreToolUse:Bash crashed \(exit 1\): boom/);
    vexpect(failedItems(slow)).toEqual(["hooks-ok"]);
    vexpect(item(slow, "hooks-ok")?.message).toMatch(/PreToolUse:Bash timed out/);
  });

  it("within-limits: the run ran out of turns (maxTurns)", async () => {
    const trace = await run({ prompt: "go", maxTurns: 1, script: { turns: [bash("echo 1"), bash("echo 2"), { text: "Done.", optional: true }] } });
    vexpect(failedItems(trace)).toEqual(["script-consumed", "within-limits"]);
    vexpect(item(trace, "within-limits")?.message).toMatch(/ran out of turns \(maxTurns 1\)/);
  });

  it("claude-ran: a run killed at its time limit", async () => {
    const trace = await run({ prompt: "go", timeoutMs: 4000, script: { turns: [{ text: "Done.", delayMs: 30_000 }] } });
    vexpect(failedItems(trace)).toEqual(vexpect.arrayContaining(["claude-ran", "within-limits"]));
    vexpect(item(trace, "within-limits")?.message).toMatch(/killed at its time limit \(timeoutMs 4000\)/);
  });

  it("skills-loaded and agents-loaded: what the spec and the checks name, as claude's init line lists it", async () => {
    const trace = await run({
      prompt: "go",
      skills: { tidy: "---\nname: tidy\ndescription: Tidy up\n---\nTidy.\n", broken: "no frontmatter\n" },
      agents: { checker: "---\nname: checker\ndescription: Checks things\n---\nCheck.\n", bad: "no frontmatter\n" },
      script: { turns: [{ text: "Done." }] },
    });
    vexpect(trace.source.skills).toContain("tidy");
    vexpect(trace.source.agents).toContain("checker");
    vexpect(failedItems(trace)).toEqual(["skills-loaded", "agents-loaded"]);
    vexpect(item(trace, "skills-loaded")?.message).toMatch(/the skill "broken" the eval names was not loaded/);
    vexpect(item(trace, "agents-loaded")?.message).toMatch(/the agent "bad" the eval names was not loaded/);
    // A subagent a check names but the run never loaded (a typo) is unhealthy, not a quiet "it never ran".
    const report = await measure({
      run: () => trace,
      checks: [subagent("chekcer", [tool("Bash")])],
      trials: 1,
      progress: false,
      health: { "skills-loaded": "broken on purpose", "agents-loaded": "this eval is about the typo below" },
    });
    vexpect(report.trials.errored).toBe(0);
    const typo = await measure({ run: () => trace, checks: [notTool("Bash"), subagent("chekcer", [tool("Bash")])], trials: 1, progress: false, health: { "skills-loaded": "broken on purpose" } });
    vexpect(typo.errors[0]?.message).toMatch(/"bad", "chekcer" the eval names were not loaded/);
  });
});
