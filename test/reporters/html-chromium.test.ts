/**
 * The HTML trace view in a real browser (Debian's chromium, driven by playwright-core): the page
 * renders without errors, requests nothing beyond itself, and shows every call with its failed checks.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evalChecks, notTool, readTranscript, tool, turns } from "../../src/index.js";
import { renderTraceHtml } from "../../reporters/index.js";

const CHROMIUM = [process.env.PROCTOR_CHROMIUM, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => p && existsSync(p));
// Under CI the browser is installed by .ci/run, so a missing one is a failure there, not a skip.
const run = CHROMIUM || process.env.CI ? describe : describe.skip;

const explore = readTranscript(new URL("../fixtures/transcripts/explore-subagent-lockfile-hook.jsonl", import.meta.url).pathname);
const dir = mkdtempSync(join(tmpdir(), "proctor-html-"));
let browser: Browser;

beforeAll(async () => {
  if (!CHROMIUM) return;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // playwright gives every launch a fresh temporary profile (the --user-data-dir of the probe).
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
});
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

run("proctor show --html in Chromium", () => {
  it("has a browser to run in", () => {
    expect(CHROMIUM, "install chromium (apt-get install -y --no-install-recommends chromium) or set PROCTOR_CHROMIUM").toBeTruthy();
  });

  it("renders without errors or requests, shows every call, and puts the failed check next to its call", async () => {
    const results = evalChecks(explore, [notTool("Write"), tool("Glob"), turns({ max: 1 })]);
    const file = join(dir, "trace.html");
    writeFileSync(file, renderTraceHtml(explore, { results, title: "explore run" }));

    const page = await browser.newPage();
    const problems: string[] = [];
    const requests: string[] = [];
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") problems.push(`console.${m.type()}: ${m.text()}`);
    });
    page.on("request", (r) => requests.push(r.url()));
    const url = pathToFileURL(file).href;
    const response = await page.goto(url, { waitUntil: "load" });
    expect(response?.ok()).toBe(true);

    expect(problems).toEqual([]);
    expect(requests).toEqual([url]);
    expect(await page.title()).toBe("explore run");

    const calls = page.locator("li.call");
    expect(await calls.count()).toBe(explore.toolCalls.length);
    expect(await calls.locator(".name").allTextContents()).toEqual(["Agent", "Glob", "Write"]);
    for (const i of [0, 1, 2]) expect(await page.locator(`#call-${i}`).isVisible()).toBe(true);
    // The subagent's call is drawn indented further right than the main agent's.
    const x = async (sel: string) => (await page.locator(sel).boundingBox())!.x;
    expect(await x("#call-1")).toBeGreaterThan(await x("#call-0"));
    // The failed check sits inside the Write call's element; the turns check (no call) is in the summary only.
    expect(await page.locator("#call-2 .check-failed").textContent()).toContain("notTool(Write)");
    expect(await page.locator("#call-2 .check-failed").isVisible()).toBe(true);
    expect(await page.locator("li.call .check-failed").count()).toBe(1);
    expect(await page.locator("#checks").textContent()).toContain("2 of 3 failed");
    expect(await page.locator("#checks li.fail").allTextContents()).toEqual([expect.stringContaining("notTool(Write)"), expect.stringContaining("turns(max: 1)")]);
    await page.close();
  });
});
