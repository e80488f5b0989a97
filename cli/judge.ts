/** The CLI grades `judged` checks with the built-in claude judge unless the checks' files installed their own. */
import type { Check } from "../src/checks/check.js";
import { getDefaultJudge, setDefaultJudge } from "../src/checks/judged.js";

/** Install `claudeJudge()` as the default judge when some check is `judged` and no default is set. */
export async function installBuiltInJudge(checks: readonly Pick<Check<never>, "toJSON">[]): Promise<void> {
  if (getDefaultJudge() || !JSON.stringify(checks.map((c) => c.toJSON())).includes('"kind":"judged"')) return;
  const { claudeJudge } = await import("../harness/judge/claude-judge.js");
  setDefaultJudge(claudeJudge());
}
