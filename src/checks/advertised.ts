/** Checks on what the model was offered: the tools listed in the requests it received (or not). */
import type { Trace } from "../trace/types.js";
import { defineTraceCheck, type Check } from "./check.js";
import { absenceUnprovable } from "./describe.js";
import { unknownToolName } from "./names.js";
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

/**
 * No model request offered this tool (exact name, `*`, or a trailing-`*` glob): a disallowed tool,
 * a server left out, a skill that hid it, really kept from the model. Needs captured model
 * requests (runHarness); without them, or on a run that may have gone on, it fails: no evidence.
 */
export function notOffered(name: string): Check<Trace> {
  requireName("notOffered", "name", name);
  return defineTraceCheck("notOffered", { name }, (trace) => {
    const requests = trace.modelRequests;
    if (!requests || requests.length === 0) return { ...noModelRequests(`the model never to be offered ${name}`, name), inconclusive: true };
    const offering = requests.flatMap((r, i) => (r.tools.some((t) => toolNameMatches(name, t.name)) ? [i] : []));
    if (offering.length > 0) {
      const first = at(requests, at(offering, 0));
      const names = first.tools.filter((t) => toolNameMatches(name, t.name)).map((t) => t.name);
      return {
        pass: false,
        message: `expected the model never to be offered ${name}; ${offering.length} of ${requests.length} request(s) offered it, first request ${at(offering, 0) + 1} (${first.agent}): ${names.join(", ")} (disallow it in the settings, or drop the server/plugin that adds it)`,
        expected: name,
        actual: names,
      };
    }
    if (!name.includes("*")) {
      const unknown = unknownToolName(trace, name);
      if (unknown) return { pass: false, message: `notOffered: ${unknown}`, expected: name };
    }
    const unprovable = absenceUnprovable(trace);
    if (unprovable) return { pass: false, message: `cannot confirm ${name} was never offered: ${unprovable}` };
    return { pass: true, message: `none of ${requests.length} request(s) offered ${name}` };
  });
}
