/** What the real CLI does with script overruns, API faults, cut streams, stalls, hung hooks and max turns — and that it all lands in the Trace. */
import { existsSync } from "node:fs";
import { describe, expect as vexpect, it } from "vitest";
import { HarnessError, runHarness, type HarnessResult } from "../../harness/index.js";
import { startMockModel } from "../../mock-model/index.js";
import { evalChecks, isProctorError, output, toolWith, expect, hookFired } from "../../src/index.js";
import { processGone } from "./helpers.js";
import { atLeast } from "../helpers/claude-version.js";

async function rejection(promise: Promise<HarnessResult>): Promise<HarnessError<HarnessResult>> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HarnessError) return error as HarnessError<HarnessResult>;
    throw error;
  }
  throw new Error("expected the run to be rejected");
}

describe("harness reliability (real claude binary)", () => {
  it("fails a run that runs past its script, naming the agent, the turn and the last thing it received", async () => {
    const error = await rejection(runHarness({ prompt: "go", script: { turns: [{ tools: [{ name: "Bash", input: { command: "echo overrun-marker" } }] }] } }));
    vexpect(isProctorError(error) && error.code).toBe("SCRIPT_OVERRUN");
    vexpect(error.reason).toBe("script-overrun");
    vexpect(error.shortMessage).toMatch(/^claude run failed: script overrun: main asked for turn 2 but its script has 1 turn; the last thing it received was user: \[tool_result \S+\] overrun-marker: \S+claude -p /);
    vexpect(error.lastRequest).toMatch(/^main asked for turn 2; it had just received user: \[tool_result/);
    const trace = error.result!.trace;
    vexpect(trace.errors.map((e) => e.kind)).toContain("script-overrun");
    // The CLI surfaced the mock's answer as the run's API error.
    vexpect(trace.outcome).toMatchObject({ isError: true, apiErrorStatus: 400 });
    vexpect(existsSync(error.workDir!)).toBe(false); // a rejected run cleans up unless keep
  });

  it("records a 529 the CLI gave up on: retries, the API error, exit code 1 — a scripted fault is not a harness failure", async () => {
    const { trace, exitCode, stdout, cleanup } = await runHarness({ prompt: "go", maxRetries: 1, script: { turns: [{ fault: "overloaded", times: 2 }] } });
    await cleanup();
    vexpect(exitCode).toBe(1);
    vexpect(trace.complete).toBe(true);
    vexpect(trace.outcome).toMatchObject({ isError: true, apiErrorStatus: 529 });
    vexpect(trace.errors.map((e) => e.kind)).toEqual(["api-error"]);
    vexpect(trace.errors[0].message).toMatch(/^API Error: 529 Overloaded/);
    vexpect(stdout).toContain('"subtype":"api_retry"');
    vexpect(trace.output).toBeUndefined();
  });

  it("records a 500 the CLI retried through: the run recovers and finishes", async () => {
    const { trace, stdout, mockRun, cleanup } = await runHarness({ prompt: "go", maxRetries: 1, script: { turns: [{ fault: "server-error" }, { text: "Recovered." }] } });
    await cleanup();
    vexpect(stdout).toMatch(/"subtype":"api_retry".*"error_status":500/);
    vexpect(mockRun.faultsServed).toBe(1);
    expect(trace, [output("Recovered.")]);
    vexpect(trace.errors).toEqual([]);
  });

  it("records a stream cut mid-message as a failed run (claude 2.1.197: an API error; 2.1.332 on: a missing answer)", async () => {
    // The CLI recovers silently from one cut (it asks again without streaming), so cut both.
    // claude 2.1.332 now and then reads the cut answer as an empty one and asks once more
    // ("Your previous response had no visible output"): an optional turn cuts that one too.
    const cut = { fault: "cut", times: 2 } as const;
    const { trace, mockRun, cleanup } = await runHarness({ prompt: "go", maxRetries: 0, script: { turns: [{ tools: [{ name: "Bash", input: { command: "ls" } }] }, cut, { ...cut, optional: true }] } });
    await cleanup();
    vexpect(mockRun.faultsServed).toBeGreaterThanOrEqual(2);
    vexpect(trace.toolCalls.map((c) => c.status)).toEqual(["success"]);
    vexpect(trace.outcome?.isError).toBe(true);
    if (atLeast("2.1.332")) {
      // claude 2.1.332 ends such a run "success" with an empty result (proctor reads the missing
      // answer) or, when it asked again and that was cut too, with the API error: a failure either way.
      vexpect([["no-answer"], ["api-error"]]).toContainEqual(trace.errors.map((e) => e.kind));
    } else {
      vexpect(trace.errors).toEqual([{ kind: "api-error", message: vexpect.stringMatching(/^API Error: Connection to the API was lost/) }]);
    }
  });

  it("kills the whole tree on timeout and still returns what was parsed, as an incomplete trace", async () => {
    const started = Date.now();
    const error = await rejection(
      runHarness({
        prompt: "go",
        // Long enough for a loaded machine to reach the first call; the stall then ends only by the timeout.
        timeoutMs: 15_000,
        allowedTools: ["Bash"],
        // In claude's sandbox the echoed pid is the sandbox's own (2.1.332) or not expanded at all (2.1.197).
        sandbox: { off: "the test finds the backgrounded sleep by its host pid" },
        script: { turns: [{ tools: [{ name: "Bash", input: { command: "true; sleep 300 > /dev/null 2>&1 & echo $!" } }] }, { fault: "stall" }] },
      }),
    );
    vexpect(Date.now() - started).toBeLessThan(45_000);
    vexpect(isProctorError(error) && error.code).toBe("TIMEOUT");
    vexpect(error).toMatchObject({ reason: "timed-out", timedOut: true });
    vexpect(error.shortMessage).toMatch(/^claude run timed out after 15000 ms \(the process tree was killed\)/);
    const trace = error.result!.trace;
    vexpect(trace.complete).toBe(false);
    vexpect(trace.errors.map((e) => e.kind)).toEqual(["incomplete", "timeout"]);
    // An unhealthy run is judged by no one (expect throws RUN_UNHEALTHY); its checks still read what it recorded.
    vexpect(() => expect(trace, [toolWith("Bash", { command: /sleep 300/ })])).toThrow(vexpect.objectContaining({ code: "RUN_UNHEALTHY" }));
    vexpect(evalChecks(trace, [toolWith("Bash", { command: /sleep 300/ })]).map((r) => r.pass)).toEqual([toolWith("Bash", { command: /sleep 300/ })].map(() => true));
    // The backgrounded sleep was started in its own session by the CLI; it is gone too.
    const pid = Number(trace.toolCalls[0].result);
    vexpect(pid).toBeGreaterThan(0);
    vexpect(await processGone(pid)).toBe(true);
    vexpect(existsSync(error.workDir!)).toBe(false);
  });

  it("lets a call through when its hook hangs past the hook timeout, and records the hook", async () => {
    const { trace, cleanup } = await runHarness({
      prompt: "go",
      settings: { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "sleep 30", timeout: 1 }] }] } },
      script: { turns: [{ tools: [{ name: "Bash", input: { command: "echo after-hook" } }] }, { text: "Done." }] },
    });
    await cleanup();
    // An unhealthy run is judged by no one (expect throws RUN_UNHEALTHY); its checks still read what it recorded.
    vexpect(() => expect(trace, [hookFired("PreToolUse:Bash"), output("Done.")])).toThrow(vexpect.objectContaining({ code: "RUN_UNHEALTHY" }));
    vexpect(evalChecks(trace, [hookFired("PreToolUse:Bash"), output("Done.")]).map((r) => r.pass)).toEqual([hookFired("PreToolUse:Bash"), output("Done.")].map(() => true));
    vexpect(trace.toolCalls[0]).toMatchObject({ status: "success", result: "after-hook" });
    vexpect(trace.hooks[0]).toMatchObject({ name: "PreToolUse:Bash", blocked: false });
    vexpect(trace.hooks[0].exitCode).not.toBe(0);
  });

  it("keeps two parallel runs on one server apart", async () => {
    const mock = await startMockModel();
    try {
      const run = (name: string) =>
        runHarness({
          mock,
          prompt: `you are run ${name}`,
          script: { turns: [{ tools: [{ name: "Write", input: { file_path: `${name}.txt`, content: name } }] }, { text: `finished ${name}` }] },
        });
      const [a, b] = await Promise.all([run("alpha"), run("beta")]);
      await Promise.all([a.cleanup(), b.cleanup()]);
      for (const [r, self, other] of [[a, "alpha", "beta"], [b, "beta", "alpha"]] as const) {
        vexpect(r.trace.output).toBe(`finished ${self}`);
        vexpect(r.trace.files?.changes).toEqual([{ path: `${self}.txt`, change: "created", content: self }]);
        vexpect(r.trace.modelRequests?.length).toBe(2);
        vexpect(r.trace.modelRequests?.every((m) => m.messages.includes(`you are run ${self}`) && !m.messages.includes(other))).toBe(true);
      }
      vexpect(a.mockRun.apiKey).not.toBe(b.mockRun.apiKey);
    } finally {
      await mock.close();
    }
  });

  it("ends at max turns without failing the harness: the agent's ending is in the trace", async () => {
    const { trace, exitCode, cleanup } = await runHarness({
      prompt: "go",
      maxTurns: 1,
      script: { turns: [{ tools: [{ name: "Bash", input: { command: "echo one" } }] }, { tools: [{ name: "Bash", input: { command: "echo two" } }] }] },
    });
    await cleanup();
    vexpect(exitCode).toBe(1);
    vexpect(trace.outcome).toMatchObject({ subtype: "error_max_turns", isError: true });
    vexpect(trace.toolCalls.map((c) => c.input.command)).toEqual(["echo one"]);
  });

  it("reports an API fault nobody scripted (the model endpoint is down) as the failure reason", async () => {
    const mock = await startMockModel();
    await mock.close();
    const error = await rejection(runHarness({ mock, prompt: "go", maxRetries: 0, script: { turns: [{ text: "never served" }] } }));
    vexpect(error.reason).toBe("api-fault");
    vexpect(error.code).toBe("RUN_FAILED");
    vexpect(error.shortMessage).toMatch(/^claude run failed with an API error the script did not ask for: API Error/);
  });
});
