/**
 * Calibrate the claude under test once, before any test file runs (harness/claude/calibrate.ts):
 * otherwise the first trial in each worker waits for two control runs, inside its own test's time.
 */
import { runHarness } from "../../harness/index.js";

export default async function calibrate(): Promise<void> {
  try {
    const { cleanup } = await runHarness({ prompt: "go", script: { turns: [{ text: "Done." }] }, timeoutMs: 120_000 });
    await cleanup();
  } catch {
    // Only a head start: a claude that cannot run here fails in the tests that need it, with their own message.
  }
}
