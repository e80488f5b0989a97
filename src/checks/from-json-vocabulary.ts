/** The JSON kinds of the checks on what tools answered, hooks said, files hold and contracts allow. */
import type { ToolStatus } from "../trace/types.js";
import { allowedToolsCheck, readAllowedToolsDeclaration } from "../contracts/allowed-tools.js";
import { notOffered } from "./advertised.js";
import { effects } from "./effects.js";
import { fileContains } from "./file-contains.js";
import type { Builder } from "./from-json.js";
import { hookSaid, type HookSaidOptions } from "./hook-said.js";
import { toolResult } from "./tool-result.js";
import { toolStatuses } from "./tool-status.js";

export const VOCABULARY_BUILDERS: readonly [string, Builder][] = [
  ["toolStatuses", (r) => toolStatuses(r.string("name"), r.strings("statuses") as ToolStatus[])],
  ["toolResult", (r) => toolResult(r.string("name"), r.text("matcher"), { all: r.optional("all", r.raw) as boolean | undefined })],
  ["hookSaid", (r) => hookSaid(r.string("event"), r.text("matcher"), { in: r.optional("in", r.string) as HookSaidOptions["in"] })],
  ["fileContains", (r) => fileContains(r.string("path"), r.text("matcher"))],
  ["notOffered", (r) => notOffered(r.string("name"))],
  ["effects", (r) => effects(r.string("name"), r.raw("expected") as never, r.optional("args", r.raw) as never)],
  [
    "withinAllowedTools",
    (r) => {
      const path = r.string("path");
      const allowed = r.optional("allowed", r.strings);
      // The rules travel with the check; a bare path is read now, as the factory reads it.
      if (allowed === undefined) return allowedToolsCheck(readAllowedToolsDeclaration(path));
      return allowedToolsCheck({ path, name: r.string("name"), type: r.string("type") as "command" | "skill", allowed });
    },
  ],
];
