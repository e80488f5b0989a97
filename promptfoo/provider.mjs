// proctor as a promptfoo provider: each test case is one real claude run, against the scripted
// mock model (config.script, or vars.script per test) or the real API (tier: real).
//   providers:
//     - id: file://node_modules/proctor/promptfoo/provider.mjs
//       config: { plugins: [./my-plugin], script: { turns: [...] } }
// The response carries output, tokenUsage, cost and the Trace in metadata.trace.
export { ProctorProvider as default } from "../dist/harness/promptfoo/provider.js";
