// An eval whose script dispatches a subagent, run by `proctor run` (and `npm run example`) on any
// claude: on 2.1.197 the reviewer runs in the foreground, on 2.1.3xx in the background — the mock
// answers claude's turns around that itself, so the script lists the model's decisions once.
import { defineEval, onlyTools, output, subagent, toolWith } from "proctor";

const workspace = { fixture: "./fixtures/app", plugins: ["./plugin"] };

/** The reviewer reads only the file it is pointed at, and the main agent reports with a summary. */
export const review = defineEval({
  name: "the reviewer reads what it is pointed at",
  mock: {
    ...workspace,
    prompt: "Review src/index.js for risks.",
    script: {
      turns: [
        { tools: [{ name: "Agent", input: { description: "review", prompt: "Review src/index.js for risks", subagent_type: "repo-hygiene:reviewer" } }] },
        { text: "The reviewer found no risks.\nSummary: reviewed src/index.js." },
      ],
      subagents: [{ type: "repo-hygiene:reviewer", turns: [{ tools: [{ name: "Read", input: { file_path: "src/index.js" } }] }, { text: "No risks: one constant export." }] }],
    },
  },
  checks: [subagent("repo-hygiene:reviewer", [toolWith("Read", { file_path: "src/index.js" }), onlyTools(["Read"])]), output(/^Summary: reviewed/m)],
  trials: 2,
  concurrency: 2,
});
