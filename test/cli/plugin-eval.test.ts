/**
 * `proctor run EVAL_DIR` and `proctor mock serve` through the built bin: bad suites are refused
 * with claude's words and a code; the server routes each session to its case's script and answers
 * judge calls from the case's rules (requests made here as claude makes them).
 */
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { llmJudgePrompt } from "../../src/plugin-eval/grade.js";
import { CLI, proctor } from "../helpers/cli.js";

const FIXTURE = new URL("../fixtures/plugin-eval/greeter", import.meta.url).pathname;
const temps: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), "proctor-cli-pe-"));
  temps.push(d);
  return d;
};
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

describe("proctor run EVAL_DIR (a claude plugin eval suite)", () => {
  it("refuses an invalid case with claude's message, SUITE_INVALID, exit 2", async () => {
    const dir = temp();
    cpSync(FIXTURE, dir, { recursive: true });
    writeFileSync(join(dir, "evals/notes/case.yaml"), 'schema_version: "1.1"\nname: notes\nruns: 51\nexecution: { prompt: hi }\ngraders: [{ type: file_exists, name: x, path: a }]\n');
    const r = await proctor(["run", join(dir, "evals")]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^proctor run: error \[SUITE_INVALID\] notes: invalid case.yaml:\n {2}runs: Number must be less than or equal to 50/);
  });

  it("refuses a case without a script on the mock tier, naming the file to write", async () => {
    const dir = temp();
    cpSync(FIXTURE, dir, { recursive: true });
    rmSync(join(dir, "evals/quiet/proctor.script.json"));
    const r = await proctor(["run", join(dir, "evals"), "--mock"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('case "quiet" (evals/quiet) has no script for the mock tier: write evals/quiet/proctor.script.json');
  });

  it("refuses suite options on eval files", async () => {
    const r = await proctor(["run", "examples/hygiene.eval.mjs", "--ablation", "none"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("--ablation is for claude plugin eval suites");
  });
});

/** Start `proctor mock serve` and read its URL. */
async function serve(args: string[]) {
  const child = spawn(process.execPath, [CLI, "mock", "serve", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = /ANTHROPIC_BASE_URL=(\S+)/.exec(out);
      if (m) resolve(m[1] as string);
    });
    child.on("exit", (code) => reject(new Error(`mock serve exited ${code}`)));
  });
  return { url, child };
}

const post = async (url: string, session: string | undefined, body: Record<string, unknown>) => {
  const res = await fetch(`${url}/v1/messages`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": "any", ...(session ? { "x-claude-code-session-id": session } : {}) }, body: JSON.stringify({ model: "m", max_tokens: 10, ...body }) });
  return (await res.json()) as { content?: { type: string; text?: string; name?: string }[]; error?: { message: string } };
};
const userText = (text: string) => ({ messages: [{ role: "user", content: [{ type: "text", text: "<system-reminder>ctx</system-reminder>" }, { type: "text", text }] }] });
const TOOLS = { tools: [{ name: "Skill", description: "d", input_schema: { type: "object" } }] };

describe("proctor mock serve", () => {
  it("gives each session its case's script, by the prompt it starts with, and answers judge calls from the case's rules", async () => {
    const { url, child } = await serve(["--suite", join(FIXTURE, "evals")]);
    try {
      // Two sessions of the same case each start at the script's first turn.
      for (const session of ["11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"]) {
        const first = await post(url, session, { ...userText("Say hello to Alex."), ...TOOLS });
        expect(first.content?.[0]).toMatchObject({ type: "tool_use", name: "Skill" });
      }
      // A session's next request continues its own script (session id in metadata.user_id, as claude also sends it).
      const next = await post(url, undefined, { ...userText("Say hello to Alex."), ...TOOLS, metadata: { user_id: JSON.stringify({ session_id: "11111111-1111-4111-8111-111111111111" }) } });
      expect(next.content?.[0]).toMatchObject({ type: "text", text: "Hello, Alex!" });
      const quiet = await post(url, "33333333-3333-4333-8333-333333333333", { ...userText("Reply with the single word done."), ...TOOLS });
      expect(quiet.content?.[0]).toMatchObject({ type: "text", text: "Done." });
      // The judge: PASS when the output matches the grader's pass_if, FAIL otherwise.
      const judge = async (output: string) => (await post(url, "44444444-4444-4444-8444-444444444444", userText(llmJudgePrompt("The reply greets Alex by name.", "last_message", output)))).content?.[0]?.text;
      expect(await judge("Hello, Alex!")).toBe("PASS");
      expect(await judge("Hello!")).toBe("FAIL");
      // A session no case starts is refused, saying why.
      const stranger = await post(url, "55555555-5555-4555-8555-555555555555", { ...userText("something else"), ...TOOLS });
      expect(stranger.error?.message).toContain("no case's prompt starts this session");
    } finally {
      child.kill("SIGTERM");
    }
  }, 60_000);

  it("exits 2 without a suite or a script", async () => {
    const r = await proctor(["mock", "serve"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^proctor mock: error \[INVALID_INPUT\] proctor mock serve needs --suite EVAL_DIR/);
  });
});
