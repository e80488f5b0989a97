/**
 * The gate's V8 code cache (`TAG | refreshes | length | data | data`) under attack, on a copy of
 * the built CLI inside dist/ (so the shell parser's packages resolve as from the real one): a
 * damaged header, one damaged copy, both copies damaged alike, runs that refresh it at once, a
 * refresh racing a damaged write, a shell-parser run right after a miss. Each answer must equal
 * the answer with the cache off, and the next start must accept the cache that is left.
 */
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { codeCacheFile, readCodeCache } from "../../cli/code-cache.js";

const root = path.resolve(fileURLToPath(import.meta.url), "../../..");
const dir = mkdtempSync(path.join(root, "dist", ".code-cache-attack-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const copy = path.join(dir, "cli");
cpSync(path.join(root, "dist/cli"), copy, { recursive: true });
const standalone = path.join(copy, "standalone");
const bin = path.join(copy, "proctor.cjs");
const gate = path.join(standalone, "gate.cjs");
const cache = codeCacheFile(gate) ?? "";
const clear = () => {
  for (const f of readdirSync(standalone)) if (f.endsWith(".cache") || f.endsWith(".tmp")) rmSync(path.join(standalone, f), { recursive: true, force: true });
};
clear();
const tmpLeft = () => readdirSync(standalone).filter((f) => f.endsWith(".tmp"));

const event = (command: string) => JSON.stringify({ hook_event_name: "PreToolUse", session_id: "s", tool_name: "Bash", tool_input: { command }, cwd: dir });
/** A plain command (judged without the shell parser), and two the parser must judge. */
const FAST = event("rm -rf build");
const ARITH = event("echo $(( 1 + 2 )) > out.txt");
const HEREDOC = event("cat <<EOF\nhello\nEOF");
const READ = JSON.stringify({ hook_event_name: "PreToolUse", session_id: "s", tool_name: "Read", tool_input: { file_path: "x" }, cwd: dir });
const ARGS = [bin, "gate", "--purity", "bounded", "--approve"];

type Outcome = { stdout: string; stderr: string; status: number | null; signal: NodeJS.Signals | null };
function run(input: string, env: Record<string, string> = {}): Outcome {
  const r = spawnSync(process.execPath, ARGS, { input, encoding: "utf8", timeout: 15_000, env: { ...process.env, ...env } });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status, signal: r.signal };
}
function runAsync(input: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ARGS, { encoding: "utf8", timeout: 15_000 }, (error, stdout, stderr) =>
      resolve({ stdout, stderr, status: error ? ((error as { code?: number }).code ?? null) : 0, signal: error ? ((error as { signal?: NodeJS.Signals }).signal ?? null) : null }),
    );
    child.stdin?.end(input);
  });
}
const baseline = new Map([FAST, ARITH, HEREDOC, READ].map((input) => [input, run(input, { PROCTOR_COMPILE_CACHE: "0" })]));
const expected = (input: string) => baseline.get(input) as Outcome;

/** What a fresh start makes of the cache file: absent, rejected (by proctor or V8), or accepted. */
function cacheState(): string {
  const probe = `
    import { existsSync } from "node:fs";
    import { compileCommonJs, readCodeCache } from ${JSON.stringify(path.join(root, "dist/cli/code-cache.js"))};
    if (!existsSync(process.argv[1])) { console.log("absent"); process.exit(0); }
    const cached = readCodeCache(process.argv[1]);
    console.log(cached === undefined || compileCommonJs(process.argv[2], cached.data).cachedDataRejected === true ? "rejected" : "accepted");`;
  return execFileSync(process.execPath, ["--input-type=module", "-e", probe, cache, gate], { encoding: "utf8" }).trim();
}
const header = () => {
  const b = readFileSync(cache);
  return { refreshes: b.readUInt32LE(4), length: b.readUInt32LE(8) };
};

describe("the gate's code cache under attack", () => {
  it("the baselines are real answers (deny, the parser's verdicts, silence for a Read)", () => {
    expect(expected(FAST).stdout).toContain('"permissionDecision":"deny"');
    expect(expected(ARITH).stdout).toContain('"permissionDecision":"deny"');
    expect(expected(HEREDOC).stdout).toContain('"permissionDecision":"allow"');
    expect(expected(READ).status).toBe(0);
    for (const outcome of baseline.values()) expect(outcome.stderr).toBe("");
  });

  it("a damaged header (tag, length, refresh count up to 2^32 - 1) or one damaged copy: the same answer, then a cache the next start accepts", () => {
    clear();
    expect(run(FAST)).toEqual(expected(FAST));
    const valid = readFileSync(cache);
    const length = valid.readUInt32LE(8);
    const withHeader = (at: number, value: number) => {
      const b = Buffer.from(valid);
      b.writeUInt32LE(value >>> 0, at);
      return b;
    };
    const oneCopy = (which: 0 | 1) => {
      const b = Buffer.from(valid);
      b[12 + which * length + (length >> 1)]! ^= 0x10;
      return b;
    };
    const damaged: Record<string, Buffer> = {
      tag: withHeader(0, 0x33636371),
      "length + 1": withHeader(8, length + 1),
      "length - 1": withHeader(8, length - 1),
      "length 0": withHeader(8, 0),
      "length 2^32 - 1": withHeader(8, 0xffffffff),
      "length 2^31": withHeader(8, 0x80000000),
      "first copy": oneCopy(0),
      "second copy": oneCopy(1),
      "copies cut to one": valid.subarray(0, 12 + length),
      "a third copy": Buffer.concat([valid, valid.subarray(12, 12 + length)]),
    };
    for (const [name, bytes] of Object.entries(damaged)) {
      writeFileSync(cache, bytes);
      expect({ name, ...run(FAST) }).toEqual({ name, ...expected(FAST) });
      // Replaced by one this code reads (V8's verdict on it is asked at the end: a fresh process per answer is slow).
      expect({ name, intact: readCodeCache(cache) !== undefined, refreshes: header().refreshes }).toEqual({ name, intact: true, refreshes: 0 });
    }
    expect(cacheState()).toBe("accepted");
    // A refresh count at or near its limit on intact data: the cache is used and, past 8, left alone.
    for (const refreshes of [0xffffffff, 0xfffffffe, 0x80000000, 8]) {
      writeFileSync(cache, withHeader(4, refreshes));
      const inode = statSync(cache).ino;
      expect({ refreshes, ...run(FAST) }).toEqual({ refreshes, ...expected(FAST) });
      expect(statSync(cache).ino).toBe(inode);
      expect(header().refreshes).toBe(refreshes);
    }
    writeFileSync(cache, withHeader(4, 7));
    expect(run(READ)).toEqual(expected(READ));
    expect(header().refreshes).toBe(8);
    expect(cacheState()).toBe("accepted");
    expect(tmpLeft()).toEqual([]);
  }, 60_000);

  // Both copies damaged alike pass the twin check, and V8 does not check a cache's bytes: the
  // process dies (SIGSEGV, or V8's fatal "unreachable code" SIGTRAP), or loops, every start from
  // then on, since it never lives to replace the cache — an exit that is neither 0 nor 2 lets the
  // call through. Only something writing into proctor's install can do this (it could as well
  // rewrite gate.cjs), so the format guards against torn and partial writes, not forgery; a
  // checksum of ~170 KB in JavaScript costs ~8 ms at start-up (measured), more than the cache saves.
  it.fails("both copies damaged alike: the same answer (known: V8 crashes on the forged cache)", () => {
    clear();
    expect(run(FAST)).toEqual(expected(FAST));
    const valid = readFileSync(cache);
    const length = valid.readUInt32LE(8);
    const forged = Buffer.from(valid);
    const [from, to] = [length >> 2, (3 * length) >> 2];
    forged.fill(0xff, 12 + from, 12 + to);
    forged.fill(0xff, 12 + length + from, 12 + length + to);
    writeFileSync(cache, forged);
    try {
      expect(run(FAST)).toEqual(expected(FAST));
    } finally {
      clear();
    }
  }, 60_000);

  it("twelve runs refreshing the cache at once, fast-path, parser-path and Read calls mixed: every answer as with the cache off, then a cache the next start accepts", async () => {
    clear();
    expect(run(READ)).toEqual(expected(READ));
    const inputs = Array.from({ length: 12 }, (_, i) => [FAST, ARITH, READ, HEREDOC][i % 4] as string);
    const outcomes = await Promise.all(inputs.map(runAsync));
    for (const [i, o] of outcomes.entries()) expect(o).toEqual(expected(inputs[i] as string));
    expect(tmpLeft()).toEqual([]);
    expect(cacheState()).toBe("accepted");
    // It settles: past the refreshes, the file is left alone, and still accepted.
    for (let i = 0; i < 9; i++) expect(run(FAST)).toEqual(expected(FAST));
    const settled = statSync(cache).ino;
    expect(run(ARITH)).toEqual(expected(ARITH));
    expect(run(FAST)).toEqual(expected(FAST));
    expect(statSync(cache).ino).toBe(settled);
    expect(cacheState()).toBe("accepted");
  }, 60_000);

  it("refreshes racing damaged writes (garbage, torn, one copy changed) in place: every answer as with the cache off", async () => {
    clear();
    expect(run(FAST)).toEqual(expected(FAST));
    const valid = readFileSync(cache);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("garbage", "torn", "one copy"), fc.nat(valid.length - 13), async (kind, at) => {
        const damaged = kind === "garbage" ? Buffer.alloc(valid.length, at & 0xff) : kind === "torn" ? valid.subarray(0, 12 + at) : Buffer.from(valid);
        if (kind === "one copy") damaged[12 + at]! ^= 0x01;
        let writing = true;
        const writer = (async () => {
          while (writing) {
            writeFileSync(cache, damaged);
            await new Promise((r) => setTimeout(r, 3));
          }
        })();
        const outcomes = await Promise.all([FAST, READ, FAST, ARITH].map(runAsync));
        writing = false;
        await writer;
        expect(outcomes).toEqual([FAST, READ, FAST, ARITH].map(expected));
      }),
      { numRuns: 4 },
    );
    expect(run(FAST)).toEqual(expected(FAST));
    expect(cacheState()).toBe("accepted");
    expect(tmpLeft()).toEqual([]);
  }, 60_000);

  it("a parser-path run (arithmetic, a here-doc) right after a miss, then fast-path runs: each start accepts the cache left by the one before", () => {
    for (const first of [ARITH, HEREDOC]) {
      clear();
      expect(run(first)).toEqual(expected(first));
      expect(cacheState()).toBe("accepted");
      for (let i = 0; i < 4; i++) {
        expect(run(FAST)).toEqual(expected(FAST));
        expect(cacheState()).toBe("accepted");
      }
      expect(run(first === ARITH ? HEREDOC : ARITH)).toEqual(expected(first === ARITH ? HEREDOC : ARITH));
      expect(cacheState()).toBe("accepted");
    }
    // Only the gate's own cache and the flag-suffixed ones of what loaded after the parser's flags.
    expect(readdirSync(standalone).filter((f) => f.startsWith("gate.cjs.") && f.endsWith(".cache"))).toEqual([path.basename(cache)]);
  }, 60_000);
});
