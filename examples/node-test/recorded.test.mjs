// The same recorded-transcript checks under node:test: one subtest per check, so
// `node --test --test-reporter=junit examples/node-test/` gives one JUnit testcase per check.
import { test } from "node:test";
import { denied, hookFired, notTool, onlyTools, output, readTranscript, subagent, toolWith, wrote } from "proctor";
import { checkEach } from "proctor/node-test";

const transcript = (name) => readTranscript(new URL(`../transcripts/${name}`, import.meta.url).pathname);

test("a refactor run", (t) =>
  checkEach(t, transcript("edit-write-bash-fail.jsonl"), [
    toolWith("Edit", { file_path: /src\/app\.js$/ }),
    wrote("test/app.test.js"),
    output(/exit code 3/),
    notTool("Bash", { command: /\brm\s+-rf?\b/ }),
  ]));

test("a delegated search guarded by a lockfile hook", (t) =>
  checkEach(t, transcript("explore-subagent-lockfile-hook.jsonl"), [
    subagent("Explore", [onlyTools(["Glob", "Grep", "Read"])]),
    hookFired("PreToolUse:Write"),
    denied("Write", { file_path: /package-lock\.json$/ }),
  ]));
