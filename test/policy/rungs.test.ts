import { describe, expect, it } from "vitest";
import {
  APPROVAL_RUNGS, BUILT_IN_TOOL_ACCESS, RUNG_TOOL_DESCRIPTION_SUFFIXES, applyRungAwareToolDescriptions,
  getRungToolDescriptionSuffix, isAccessClassGrantedAtRung, isGrantedAtRung, isToolGatedAtRung,
  resolveGatedToolNames, stripRungToolDescriptionSuffix, type ApprovalRung,
} from "../../src/safety.js";

// Written out by hand: the normative copy, verbatim.
const MANUAL = "Calling this tool will require the user's approval. Only use it when the result cannot be achieved with the other provided tools.";
const ASSISTED = "Calling this tool MAY require the user's approval if it does not look safe. Only use it when it is impossible to achieve the result with the other provided tools.";
const AUTO = "Calling this tool MAY be refused by the auto-rater if it does not look safe. Only use it when it is impossible to achieve the result with the other provided tools.";

/** Claude Code's tools as the CLI in devDependencies advertises them, plus an MCP and a custom tool. */
const BOUND = ["Agent", "Bash", "Edit", "Glob", "Grep", "NotebookEdit", "Read", "Skill", "TaskCreate", "WebFetch", "WebSearch", "Write", "mcp__docs__search", "my_tool"];

describe("rung copy", () => {
  it("is the normative copy, verbatim", () => {
    expect(RUNG_TOOL_DESCRIPTION_SUFFIXES).toEqual({ manual: MANUAL, write: MANUAL, assisted: ASSISTED, auto: AUTO, bypass: null });
    expect(getRungToolDescriptionSuffix("auto")).toBe(AUTO);
    expect(getRungToolDescriptionSuffix("bypass")).toBeNull();
  });
});

describe("access classes", () => {
  it("map Claude Code's own tools", () => {
    expect(["Read", "Grep", "Glob", "LS"].map((t) => BUILT_IN_TOOL_ACCESS[t])).toEqual(["read", "read", "read", "read"]);
    expect(["Edit", "Write", "NotebookEdit", "MultiEdit"].map((t) => BUILT_IN_TOOL_ACCESS[t])).toEqual(["write", "write", "write", "write"]);
    for (const t of ["Bash", "WebFetch", "mcp__docs__search", "Agent"]) expect(BUILT_IN_TOOL_ACCESS[t]).toBeUndefined();
  });
  it("grant read at every rung, write from write up, and unclassed tools nowhere", () => {
    for (const rung of APPROVAL_RUNGS) {
      expect(isAccessClassGrantedAtRung("Read", rung)).toBe(true);
      expect(isAccessClassGrantedAtRung("Write", rung)).toBe(rung !== "manual");
      expect(isAccessClassGrantedAtRung("Bash", rung)).toBe(false);
      expect(isAccessClassGrantedAtRung("toString", rung)).toBe(false);
    }
  });
});

describe("the gating rule", () => {
  it("gates, per rung, exactly these tools (shell first)", () => {
    const gated = (rung: ApprovalRung) => resolveGatedToolNames({ rung, boundToolNames: BOUND });
    expect(gated("manual")).toEqual(["Bash", "Agent", "Edit", "NotebookEdit", "Skill", "TaskCreate", "WebFetch", "WebSearch", "Write", "mcp__docs__search", "my_tool"]);
    expect(gated("write")).toEqual(["Bash", "Agent", "Skill", "TaskCreate", "WebFetch", "WebSearch", "mcp__docs__search", "my_tool"]);
    for (const rung of ["assisted", "auto", "bypass"] as const) expect(gated(rung)).toEqual(["Bash"]);
    expect(resolveGatedToolNames({ rung: "auto", boundToolNames: BOUND, gateShell: false })).toEqual([]);
    expect(resolveGatedToolNames({ rung: "manual", boundToolNames: ["", "Write", "Write"] })).toEqual(["Write"]);
  });
  it("agrees name for name with the set resolver", () => {
    for (const rung of APPROVAL_RUNGS) {
      const gated = resolveGatedToolNames({ rung, boundToolNames: BOUND });
      for (const toolName of BOUND) expect(isToolGatedAtRung({ toolName, rung })).toBe(gated.includes(toolName));
    }
  });
  it("grants what the live rung does not gate, and gated tools only by class", () => {
    for (const rung of APPROVAL_RUNGS) {
      const gated = resolveGatedToolNames({ rung, boundToolNames: BOUND });
      for (const tool of BOUND) {
        const granted = isGrantedAtRung(tool, rung, gated);
        if (rung === "bypass") expect(granted).toBe(true);
        else if (rung === "manual" || rung === "write") expect(granted).toBe(!gated.includes(tool));
        else expect(granted).toBe(tool !== "Bash");
      }
    }
  });
});

describe("applyRungAwareToolDescriptions", () => {
  const tools = () => [
    { name: "Read", description: "Reads a file." },
    { name: "Bash", description: "Runs a command." },
    { name: "Write", description: "" },
    { description: "magic" },
  ];

  it("appends the rung's sentence to tools that are not auto-approved, and nothing to granted ones", () => {
    const out = applyRungAwareToolDescriptions(tools(), { rung: "manual", gatedTools: resolveGatedToolNames({ rung: "manual", boundToolNames: ["Read", "Bash", "Write"] }) });
    expect(out).toEqual([
      { name: "Read", description: "Reads a file." },
      { name: "Bash", description: `Runs a command. ${MANUAL}` },
      { name: "Write", description: MANUAL },
      { description: "magic" },
    ]);
  });

  it("is idempotent and re-appliable at another rung", () => {
    const list = tools();
    const at = (rung: ApprovalRung) => applyRungAwareToolDescriptions(list, { rung, gatedTools: resolveGatedToolNames({ rung, boundToolNames: ["Read", "Bash", "Write"] }) });
    at("manual");
    at("manual");
    expect(list[1].description).toBe(`Runs a command. ${MANUAL}`);
    at("auto");
    expect(list.map((t) => t.description)).toEqual(["Reads a file.", `Runs a command. ${AUTO}`, "", "magic"]);
    at("bypass");
    expect(list[1].description).toBe("Runs a command.");
  });

  it("strips any rung's sentence, stacked or alone", () => {
    expect(stripRungToolDescriptionSuffix(`X ${ASSISTED} ${MANUAL}`)).toBe("X");
    expect(stripRungToolDescriptionSuffix(AUTO)).toBe("");
    expect(stripRungToolDescriptionSuffix("untouched")).toBe("untouched");
  });
});
