// proctor's checks as a promptfoo assertion:
//   assert:
//     - type: javascript
//       value: file://node_modules/proctor/promptfoo/assert.mjs
//       config: { checks: [{ kind: notTool, name: Bash }] }
// The checks come from `config.checks` (JSON form, or a path to a JSON file); the Trace from
// proctor's provider (metadata.trace) or from an output that is a claude stream-json transcript.
export { gradeWithChecks as default } from "../dist/reporters/promptfoo/assertion.js";
