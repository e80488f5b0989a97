/** A Codex run's timeline as a Trace: read in src, where every reader of recorded runs lives. */
export { buildCodexTrace, parseCodexJsonl, readCodexJsonl, type CodexTraceExtras } from "../../src/trace/readers/codex-trace.js";
