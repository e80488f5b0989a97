/**
 * A run's temp root is removed off the main thread (`removeRunDirsInBackground`) and stays tracked
 * until it is gone. Real node processes that exit, or are signalled, while a removal is under way
 * leave no temp root behind and end as they would have; a root that cannot be removed is named on
 * stderr without a crash, and does not keep the other roots.
 */
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";

const prepare = path.resolve(import.meta.dirname, "../../dist/harness/workdir/prepare.js");
const scratch = mkdtempSync(path.join(tmpdir(), "proctor-cleanup-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * The driver: prepares `roots` temp roots, fills the first with `files` files, starts its removal
 * in the background, prints the roots, then ends as `how` says, `delay` ms later.
 */
const driver = path.join(scratch, "driver.mjs");
writeFileSync(
  driver,
  `import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { prepareRunDirs, removeRunDirsInBackground } from ${JSON.stringify(prepare)};
const [files, how, delay, stuck] = [Number(process.argv[2]), process.argv[3], Number(process.argv[4]), process.argv[5] === "stuck"];
const a = prepareRunDirs({}, process.cwd());
const b = prepareRunDirs({}, process.cwd());
for (let i = 0; i < files; i++) {
  const d = path.join(a.workDir, "d" + (i % 40));
  mkdirSync(d, { recursive: true });
  writeFileSync(path.join(d, "f" + i), "x");
}
if (stuck) {
  writeFileSync(path.join(a.workDir, "stuck"), "x");
  execFileSync("chattr", ["+i", path.join(a.workDir, "stuck")]);
}
process.stdout.write(JSON.stringify([a.root, b.root]) + "\\n");
const removal = removeRunDirsInBackground(a.root);
removal.catch(() => process.stdout.write("rejected\\n"));
const end = () => {
  if (how === "exit") process.exit(3);
  else if (how === "return") process.exitCode = 5;
  else process.kill(process.pid, how);
};
// Busy until the signal ends it, as a driver is: a signal raised by the last timer of a process about to end anyway is dropped by Node.
if (how.startsWith("SIG")) setInterval(() => {}, 1000);
if (delay === 0) end();
else setTimeout(end, delay);
`,
);

async function drive(files: number, how: string, delay: number, stuck = false) {
  const child = spawn(process.execPath, [driver, String(files), how, String(delay), stuck ? "stuck" : ""], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const [code, signal] = (await once(child, "exit")) as [number | null, NodeJS.Signals | null];
  const roots = JSON.parse(stdout.split("\n")[0] ?? "[]") as string[];
  return { code, signal, stdout, stderr, roots };
}

describe.runIf(process.platform === "linux")("a temp root removed in the background", () => {
  it("is gone, right as the process ends, however it ends mid-removal", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(0, 200, 3000), fc.constantFrom("exit", "return", "SIGTERM", "SIGINT", "SIGHUP"), fc.constantFrom(0, 1, 5, 20), async (files, how, delay) => {
        const r = await drive(files, how, delay);
        expect(r.roots).toHaveLength(2);
        // Looked at once, right away: the exit hook removes what is left, not the supervisor a grace later.
        expect(r.roots.filter((d) => existsSync(d))).toEqual([]);
        expect(r.stderr).toBe("");
        if (how === "exit") expect(r.code).toBe(3);
        else if (how === "return") expect(r.code).toBe(5);
        else expect(r.signal).toBe(how);
      }),
      { numRuns: 10 },
    );
  }, 120_000);

  it("that cannot be removed is named on stderr at exit, without a crash, and the other roots still go", async () => {
    const probe = path.join(scratch, "probe");
    writeFileSync(probe, "");
    try {
      execFileSync("chattr", ["+i", probe], { stdio: "ignore" });
      execFileSync("chattr", ["-i", probe], { stdio: "ignore" });
    } catch {
      return; // no immutable files here (not root, or a file system without them): nothing can refuse removal
    }
    const r = await drive(100, "return", 20, true);
    const [stuckRoot, other] = r.roots as [string, string];
    try {
      expect(r.stdout).toContain("rejected");
      expect(r.code).toBe(5);
      expect(r.stderr).toContain(`could not remove the temp dir ${stuckRoot}`);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(other)).toBe(false);
    } finally {
      execFileSync("chattr", ["-i", path.join(stuckRoot, "work", "stuck")]);
      rmSync(stuckRoot, { recursive: true, force: true });
    }
  }, 60_000);
});
