/** `codex exec --json` events read into a timeline: read in src, where every reader of recorded runs lives. */
export { DEFAULT_SHELL_TOOL, parseCodexEvents, type CallSource, type CodexEventOptions, type CodexEvents, type CodexUsage, type TimelineEntry } from "../../src/trace/readers/codex.js";
