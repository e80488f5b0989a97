// proctor/node-test under node:test itself (run by `node --test test/node-test/` after the build).
import assert from "node:assert/strict";
import { test } from "node:test";
import { notTool, readTranscript, tool, denied, subagent, onlyTools } from "proctor";
import { assertAll, checkEach } from "proctor/node-test";

const trace = readTranscript(new URL("../fixtures/transcripts/explore-subagent-lockfile-hook.jsonl", import.meta.url).pathname);

test("checkEach runs each check as its own subtest", async (t) => {
  const results = await checkEach(t, trace, [denied("Write"), subagent("Explore", [onlyTools(["Glob", "Read"])]), tool("Agent")]);
  assert.equal(results.length, 3);
  assert.ok(results.every((r) => r.pass));
});

test("a failing check throws an AssertionError with the check's message", async () => {
  const subtests = [];
  const fake = { test: async (name, fn) => subtests.push([name, await Promise.resolve().then(fn).then(() => "ok", (e) => e)]) };
  await checkEach(fake, trace, [notTool("Write"), tool("Agent")]);
  assert.deepEqual(subtests.map(([name]) => name), ["notTool(Write)", "tool(Agent)"]);
  const [, error] = subtests[0];
  assert.ok(error instanceof assert.AssertionError);
  assert.match(error.message, /✗ notTool\(Write\)\n {2}expected no call to Write; found 1/);
  assert.equal(subtests[1][1], "ok");
});

test("assertAll throws one AssertionError listing every failure", () => {
  assert.throws(() => assertAll(trace, [notTool("Write"), tool("Bash"), tool("Agent")]), (e) => {
    assert.ok(e instanceof assert.AssertionError);
    assert.match(e.message, /^2 of 3 checks failed:/);
    assert.match(e.message, /✗ tool\(Bash\)/);
    return true;
  });
});

test("an empty list of checks is refused", async (t) => {
  await assert.rejects(checkEach(t, trace, []), /asserts nothing/);
});
