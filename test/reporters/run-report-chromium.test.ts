/**
 * The HTML run report in a real browser (Debian's chromium, driven by playwright-core): it renders
 * without errors or requests, shows each check's rate and interval bar against its minimum, the
 * claude version, and an ablated eval's deltas.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { measure, notTool, tool, type Trace } from "../../src/index.js";
import { compareAblation } from "../../src/measure/ablation.js";
import { renderRunReportHtml } from "../../reporters/index.js";
import { makeTrace } from "../helpers/trace.js";

const CHROMIUM = [process.env.PROCTOR_CHROMIUM, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => p && existsSync(p));
const run = CHROMIUM || process.env.CI ? describe : describe.skip;
const dir = mkdtempSync(join(tmpdir(), "proctor-run-html-"));
let browser: Browser;

beforeAll(async () => {
  if (!CHROMIUM) return;
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
});
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

const versioned = (t: Trace): Trace => ({ ...t, source: { ...t.source, agentVersion: "2.1.197" } });
const bash = versioned(makeTrace({ calls: [{ name: "Bash", input: { command: "ls" } }] }));
const read = versioned(makeTrace({ calls: [{ name: "Read", input: { file_path: "a" } }] }));

run("proctor run --html in Chromium", () => {
  it("renders the rates, intervals against the minimum, the claude version and the ablation deltas", async () => {
    const withArm = await measure({ name: "guard <b>", run: (i) => (i < 9 ? bash : read), checks: [tool("Bash"), notTool("Write")], trials: 10, thresholds: { min: 0.95 }, progress: false });
    const without = await measure({ name: "guard <b> [without plugin:g]", run: (i) => (i < 2 ? bash : read), checks: [tool("Bash"), notTool("Write")], trials: 10, progress: false });
    const reports = [{ ...withArm, ablation: compareAblation(withArm, without, "plugin:g") }, without];
    const file = join(dir, "run.html");
    writeFileSync(file, renderRunReportHtml(reports, { title: "nightly" }));

    const page = await browser.newPage();
    const problems: string[] = [];
    const requests: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") problems.push(m.text());
    });
    page.on("request", (r) => requests.push(r.url()));
    const url = pathToFileURL(file).href;
    expect((await page.goto(url, { waitUntil: "load" }))?.ok()).toBe(true);
    expect(problems).toEqual([]);
    expect(requests).toEqual([url]);
    expect(await page.title()).toBe("nightly");
    expect(await page.locator("#versions").textContent()).toContain("claude 2.1.197");
    // The eval name is text, not markup.
    expect(await page.locator("#eval-0 h2").textContent()).toContain("guard <b>");
    expect(await page.locator("#eval-0 h2 .status").textContent()).toBe("failed");
    const rows = page.locator("#eval-0 tr.check");
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).locator("td.rate").textContent()).toBe("90.0% (9/10, 95% CI 59.6–98.2%)");
    expect(await rows.nth(0).locator("td.fail").count()).toBe(1);
    // The interval bar spans 59.6–98.2 % of the scale, and the minimum's mark sits at 95 %.
    const scale = (await rows.nth(0).locator(".scale").boundingBox())!;
    const ci = (await rows.nth(0).locator(".scale .ci").boundingBox())!;
    const min = (await rows.nth(0).locator(".scale .min").boundingBox())!;
    expect((ci.x - scale.x) / scale.width).toBeCloseTo(0.596, 1);
    expect((ci.x + ci.width - scale.x) / scale.width).toBeCloseTo(0.982, 1);
    expect((min.x - scale.x) / scale.width).toBeCloseTo(0.95, 1);
    const deltas = page.locator("#eval-0 table.ablation tr.delta");
    expect(await deltas.count()).toBe(2);
    expect(await deltas.nth(0).textContent()).toContain("+70 pts (9/10 with vs 2/10 without");
    expect(await deltas.nth(0).getAttribute("class")).toContain("significant");
    expect(await page.locator("#eval-1 h2 .status").textContent()).toBe("not gated");
    await page.close();
  });
});
