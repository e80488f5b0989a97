/** A file record from the file-editing tool calls alone — what a transcript can tell without a snapshot. */
import path from "node:path";
import type { FileChange, FileRecord, ToolCall } from "./types.js";
import { ownEntry } from "../util/narrow.js";

const FILE_TOOLS: Record<string, string> = { Write: "file_path", Edit: "file_path", MultiEdit: "file_path", NotebookEdit: "notebook_path" };

/** Relative to `cwd` with POSIX separators when inside it; absolute otherwise. */
export function relativeToCwd(file: string, cwd: string | undefined): string {
  if (!cwd || !path.posix.isAbsolute(file)) return file.replace(/^\.\//, "");
  const rel = path.posix.relative(cwd, file);
  return rel.startsWith("..") || path.posix.isAbsolute(rel) ? file : rel;
}

/** Changes reported by successful Write/Edit/MultiEdit/NotebookEdit calls, first change kind kept per path. */
export function filesFromCalls(calls: readonly ToolCall[], cwd: string | undefined): FileRecord {
  const changes = new Map<string, FileChange>();
  const seen = new Set<string>();
  for (const call of calls) {
    const key = ownEntry(FILE_TOOLS, call.name);
    if (!key || call.status !== "success") continue;
    const file = call.input[key];
    if (typeof file !== "string" || seen.has(file)) continue;
    // The same path again makes the same relative path, already recorded: no second path.relative.
    seen.add(file);
    const rel = relativeToCwd(file, cwd);
    if (changes.has(rel)) continue;
    const created = call.name === "Write" && /\bcreated\b/i.test(call.result ?? "");
    changes.set(rel, { path: rel, change: created ? "created" : "modified" });
  }
  return { source: "tool-calls", changes: [...changes.values()] };
}
