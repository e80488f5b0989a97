// proctor's checks as a promptfoo assertion:
//   assert:
//     - type: javascript
//       value: file://node_modules/proctor/promptfoo/assert.mjs
//       config: { checks: [{ kind: notTool, name: Bash }] }
// The checks come from `config.checks` (JSON form, or a path to a JSON file); the Trace from
// proctor's provider (metadata.trace) or from an output that is a claude stream-json transcript.
import { gradeWithChecks } from "../dist/reporters/promptfoo/assertion.js";
import { loadShellParser } from "../dist/src/effects/bash/parser.js";
import { loadSafetyChecks } from "../dist/src/checks/safety-loader.js";

export default async function grade(output, context) {
  try {
    return gradeWithChecks(output, context);
  } catch (error) {
    // Checks that classify shell commands need the parser (and, rebuilt from JSON, the safety
    // checks' code), loaded once on first need.
    if (error?.code !== "SHELL_PARSER_NOT_LOADED") throw error;
    await Promise.all([loadShellParser(), loadSafetyChecks()]);
    return gradeWithChecks(output, context);
  }
}
