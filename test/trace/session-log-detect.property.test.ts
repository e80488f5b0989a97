/**
 * isSessionLog skips parsing text that cannot name a `sessionId` key; it must answer exactly as
 * parsing the first event does — including keys spelt with `\u` escapes, which JSON.parse decodes.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isSessionLog } from "../../src/trace/session-log.js";

const LOG_TYPES = new Set(["user", "assistant", "attachment", "queue-operation", "last-prompt", "system", "summary"]);
/** The first non-empty line of the first 20, parsed: the reading isSessionLog stands for. */
function reference(text: string): boolean {
  for (const raw of text.split("\n").slice(0, 20)) {
    const line = raw.trim();
    if (line === "") continue;
    try {
      const e = JSON.parse(line) as Record<string, unknown>;
      return typeof e === "object" && e !== null && typeof e.sessionId === "string" && typeof e.type === "string" && LOG_TYPES.has(e.type) && !("session_id" in e);
    } catch {
      return false;
    }
  }
  return false;
}

/** "sessionId" spelt plainly or with some letters as \u escapes. */
const key = fc.array(fc.boolean(), { minLength: 9, maxLength: 9 }).map((escaped) =>
  [..."sessionId"].map((c, i) => (escaped[i] ? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}` : c)).join(""),
);
const event = fc.record({
  key: fc.oneof(key, fc.constantFrom("session_id", "sessionid", "uuid")),
  type: fc.constantFrom("user", "assistant", "system", "result", "stream_event"),
  id: fc.oneof(fc.constant('"3eb61bf7-a3c6-40c6-8236-1a79cd7784f6"'), fc.constant("7"), fc.constant("null")),
  extra: fc.constantFrom("", ',"session_id":"x"', ',"cwd":"/w"'),
}).map(({ key: k, type, id, extra }) => `{"type":"${type}","${k}":${id}${extra}}`);
const text = fc.array(fc.oneof(event, fc.constantFrom("", "  ", "not json", "{}", "[1]")), { minLength: 1, maxLength: 5 }).map((ls) => ls.join("\n"));

describe("isSessionLog", () => {
  it("answers as parsing the first event does, escaped keys included", () => {
    fc.assert(fc.property(text, (t) => {
      expect(isSessionLog(t)).toBe(reference(t));
      expect(isSessionLog(new TextEncoder().encode(t))).toBe(reference(t));
    }), { numRuns: 2000 });
  });

  it("reads a first event whose sessionId key is written with escapes as a session log", () => {
    const t = '{"type":"user","sess\\u0069onId":"3eb61bf7-a3c6-40c6-8236-1a79cd7784f6","message":{"role":"user","content":"hi"}}';
    expect(isSessionLog(t)).toBe(true);
  });
});
