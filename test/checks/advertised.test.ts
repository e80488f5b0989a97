import { describe, expect as vexpect, it } from "vitest";
import { advertised, checkFromJSON } from "../../src/index.js";
import { makeTrace } from "../helpers/trace.js";

const requests = [
  { agent: "main", system: "", messages: "", tools: [{ name: "Bash", description: "Run" }, { name: "mcp__github__search", description: "Search" }] },
  { agent: "Explore", system: "", messages: "", tools: [{ name: "Read", description: "Read" }] },
];

describe("advertised", () => {
  it("passes when some request offered the tool, by exact name or trailing-* glob", () => {
    vexpect(advertised("Read").eval(makeTrace({ modelRequests: requests }))).toMatchObject({ pass: true, message: "request 2 (Explore) offered Read" });
    vexpect(advertised("mcp__github__*").eval(makeTrace({ modelRequests: requests }))).toMatchObject({ pass: true, actual: ["mcp__github__search"] });
  });

  it("fails listing what was offered", () => {
    const r = advertised("WebFetch").eval(makeTrace({ modelRequests: requests }));
    vexpect(r.pass).toBe(false);
    vexpect(r.message).toBe("expected the model to be offered WebFetch; none of 2 request(s) did. Offered: Bash, Read, mcp__github__search (is the server/plugin configured for the run, and is the tool allowed?)");
  });

  it("fails closed without recorded model requests", () => {
    vexpect(advertised("Bash").eval(makeTrace()).message).toMatch(/this trace has no recorded model requests/);
    vexpect(advertised("Bash").eval(makeTrace({ modelRequests: [] })).pass).toBe(false);
  });

  it("round-trips through JSON and rejects a bad name when built", () => {
    vexpect(checkFromJSON(advertised("Bash").toJSON()).toJSON()).toEqual({ kind: "advertised", name: "Bash" });
    vexpect(() => advertised("")).toThrow(/advertised: name must be a non-empty string/);
  });
});
