/** Checks on what the model was offered: the tools listed in the requests it received. */
import type { Trace } from "../trace/types.js";
import { defineTraceCheck, type Check } from "./check.js";
import { noModelRequests } from "./text.js";
import { toolNameMatches } from "./tools.js";
import { requireName } from "./validate.js";
import { at } from "../util/narrow.js";

/**
 * Some model request offered this tool (exact name, `*`, or a trailing-`*` glob like
 * `mcp__github__*`) — proof an MCP server, plugin or setting really put it in front of the model.
 * Needs captured model requests (runHarness); fails closed without them.
 */
export function advertised(name: string): Check<Trace> {
  requireName("advertised", "name", name);
  return defineTraceCheck("advertised", { name }, (trace) => {
    const requests = trace.modelRequests;
    if (!requests || requests.length === 0) return noModelRequests(`the model to be offered ${name}`, name);
    const hit = requests.findIndex((r) => r.tools.some((t) => toolNameMatches(name, t.name)));
    if (hit !== -1) {
      const request = at(requests, hit);
      const names = request.tools.filter((t) => toolNameMatches(name, t.name)).map((t) => t.name);
      return { pass: true, message: `request ${hit + 1} (${request.agent}) offered ${names.join(", ")}`, actual: names };
    }
    const offered = [...new Set(requests.flatMap((r) => r.tools.map((t) => t.name)))].sort();
    return {
      pass: false,
      message: `expected the model to be offered ${name}; none of ${requests.length} request(s) did. Offered: ${offered.length ? offered.join(", ") : "no tools"} (is the server/plugin configured for the run, and is the tool allowed?)`,
      expected: name,
      actual: offered,
    };
  });
}
