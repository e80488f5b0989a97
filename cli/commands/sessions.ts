import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { readFileSync } from "node:fs";
import { listSessionFiles, sessionPrompt, sessionsRoot } from "../../src/trace/session-log.js";
import { readTranscript } from "../../src/trace/transcript.js";
import { parseCommandArgs } from "../args.js";
import type { Command } from "../command.js";

const USAGE = "proctor sessions [DIR] [--json] [--limit N]";

const oneLine = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/**
 * List the Claude Code sessions under `~/.claude/projects` (or DIR, or `$CLAUDE_CONFIG_DIR/projects`),
 * newest first: id, start time, tool calls, status and prompt. Each id works as the argument of
 * `proctor check`, `proctor show` and `proctor replay`.
 */
const sessions: Command = async (argv) => {
  const { values, positionals } = parseCommandArgs(argv, { json: { type: "boolean" }, limit: { type: "string" } }, USAGE);
  if (positionals.length > 1) throw new InvalidInputError("INVALID_INPUT", `expected at most one folder\nusage: ${USAGE}`);
  const limit = values.limit === undefined ? 20 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new InvalidInputError("INVALID_INPUT", `--limit must be a positive whole number; got ${JSON.stringify(values.limit)}`);
  const root = positionals[0] ?? sessionsRoot();
  const rows = listSessionFiles(root)
    .slice(0, limit)
    .map((entry) => {
      try {
        const trace = readTranscript(entry.file);
        return {
          id: entry.id,
          project: entry.project,
          file: entry.file,
          startedAt: trace.source.startedAt ?? "",
          toolCalls: trace.toolCalls.length,
          status: trace.complete ? (trace.outcome?.isError ? "error" : "complete") : "incomplete",
          prompt: sessionPrompt(readFileSync(entry.file, "utf8")) ?? "",
        };
      } catch (error) {
        return { id: entry.id, project: entry.project, file: entry.file, startedAt: "", toolCalls: 0, status: `unreadable: ${(error as Error).message.split("\n")[0]}`, prompt: "" };
      }
    });
  if (values.json) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  if (rows.length === 0) {
    process.stdout.write(`no sessions under ${root}\n`);
    return 0;
  }
  for (const r of rows) {
    process.stdout.write(`${r.id}  ${r.startedAt.replace("T", " ").slice(0, 19)}  ${String(r.toolCalls).padStart(4)} calls  ${r.status.padEnd(10)}  ${oneLine(r.prompt, 60)}\n`);
  }
  return 0;
};

export default sessions;
