// Two evals whose verdicts changed between claude 2.1.197 and 2.1.332, for the version matrix and
// `proctor bisect` (bench/versions.mjs; docs/harness.md records a run). Mock model, real claude binary.
import { custom, defineEval, toolStatus } from "proctor";

const workspace = { fixture: "../../examples/fixtures/app", plugins: ["../../examples/plugin"] };

/** The guard's deny reason reaches the model as the hook wrote it (older claude), or behind a `PreToolUse:Bash hook error: ` prefix. */
export const denyWording = defineEval({
  name: "hook deny reason reaches the model verbatim",
  mock: {
    ...workspace,
    prompt: "Clean out everything.",
    script: { turns: [{ tools: [{ name: "Bash", input: { command: "rm -rf ./*" } }] }, { text: "Summary: blocked." }] },
  },
  checks: [
    custom("denyReasonVerbatim", (trace) => {
      const call = trace.toolCalls.find((c) => c.name === "Bash" && c.status === "denied");
      return { pass: call?.result?.startsWith("Blocked by repo-hygiene") === true, message: `the denied call's result: ${JSON.stringify(call?.result?.slice(0, 60))}` };
    }),
  ],
  trials: 5,
  concurrency: 2,
});

/** Edit of a file the agent never read: refused by older claude ("File has not been read yet"), done by newer. */
export const editWithoutRead = defineEval({
  name: "Edit without a prior Read succeeds",
  mock: {
    ...workspace,
    prompt: "Change Keep to Kept in notes.txt.",
    script: { turns: [{ tools: [{ name: "Edit", input: { file_path: "notes.txt", old_string: "Keep", new_string: "Kept" } }] }, { text: "Summary: done." }] },
  },
  checks: [toolStatus("Edit", "success")],
  trials: 5,
  concurrency: 2,
});
