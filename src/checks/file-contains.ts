/**
 * `fileContains`: what a file in the work dir holds after the run.
 *
 * Checks are pure, so the content comes from the Trace alone: the work-dir snapshot keeps the new
 * content of every small text file the run created or modified (≤ 64 KiB, UTF-8, not a link). A
 * file the run left alone is not in the record — its content is whatever the eval put there — and
 * a large or binary file's content was not kept: each of these fails, saying why, and is
 * inconclusive (negating it is no pass either). A deleted file contains nothing: a plain failure.
 */
import type { FileChange, Trace } from "../trace/types.js";
import { defineTraceCheck, type Check, type Verdict } from "./check.js";
import { quote } from "./describe.js";
import { NO_SNAPSHOT, pathMatcher } from "./files.js";
import { textMatches } from "./text.js";
import { requireName, requireText } from "./validate.js";

function show(matcher: string | RegExp): string {
  return typeof matcher === "string" ? JSON.stringify(matcher) : String(matcher);
}

/** A fail-closed verdict: the trace cannot tell what the file holds. */
function unknown(path: string, matcher: string | RegExp, why: string): Verdict {
  return { pass: false, message: `cannot tell whether ${path} contains ${show(matcher)}: ${why}`, expected: { path, matcher }, inconclusive: true };
}

/**
 * After the run, the file at `path` (a glob: some file matching it) contains `matcher` (a
 * substring) or matches it (a RegExp). Reads the content the work-dir snapshot kept, so it holds
 * only for a file the run created or modified (runHarness records it; a transcript does not).
 */
export function fileContains(path: string, matcher: string | RegExp): Check<Trace> {
  requireName("fileContains", "path", path);
  requireText("fileContains", "matcher", matcher);
  return defineTraceCheck("fileContains", { path, matcher }, (trace) => {
    if (!trace.files) return unknown(path, matcher, "the trace has no file record (run it through runHarness, which snapshots the work dir)");
    if (trace.files.source !== "snapshot") return unknown(path, matcher, `the trace keeps no file contents: ${NO_SNAPSHOT}`);
    const match = pathMatcher(path, trace.source.cwd);
    const there = trace.files.changes.filter((c) => match(c.path));
    if (there.length === 0) {
      const changed = trace.files.changes.map((c) => `${c.change} ${c.path}`);
      return unknown(
        path,
        matcher,
        `the run did not change it, and the snapshot keeps the content of changed files only (so it holds what the eval put there; changed: ${changed.slice(0, 10).join(", ") || "nothing"}${changed.length > 10 ? ", …" : ""})`,
      );
    }
    const hit = there.find((c) => c.content !== undefined && textMatches(c.content, matcher));
    if (hit) return { pass: true, message: `${hit.path} (${hit.change}) contains ${show(matcher)}` };
    const readable = there.filter((c) => c.content !== undefined);
    const unread = there.filter((c) => c.content === undefined && c.change !== "deleted");
    // A file whose content was not kept might hold the text: no verdict on it.
    if (unread.length > 0) return unknown(path, matcher, there.filter((c) => c.content === undefined).map(noContent).join("; "));
    if (readable.length === 0) return { pass: false, message: `expected ${path} to contain ${show(matcher)}; ${there.map(noContent).join("; ")}`, expected: { path, matcher } };
    return {
      pass: false,
      message: `expected ${path} to contain ${show(matcher)}; it does not:\n${readable.slice(0, 5).map((c) => `    ${c.path}: ${quote(c.content as string, 300)}`).join("\n")}`,
      expected: { path, matcher },
      actual: readable.length === 1 ? readable[0]?.content : readable.map((c) => ({ path: c.path, content: c.content })),
    };
  });
}

function noContent(change: FileChange): string {
  return change.change === "deleted"
    ? `${change.path} was deleted by the run, so no file is there`
    : `${change.path} was ${change.change}, but its content was not kept (larger than 64 KiB, not UTF-8 text, or a link)`;
}
