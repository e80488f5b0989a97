/** proctor show, the HTML trace view and JUnit put each call's observed effects beside it, and the jail's refusals with the run. */
import { describe, expect, it } from "vitest";
import { renderJunitResults } from "../../reporters/junit/from-results.js";
import { renderTraceHtml } from "../../reporters/trace-view/html.js";
import { renderTraceText } from "../../reporters/trace-view/terminal.js";
import { observedLines } from "../../src/checks/observed.js";
import { effects, evalChecks } from "../../src/index.js";
import type { Trace } from "../../src/trace/types.js";
import { makeTrace } from "../helpers/trace.js";

const trace: Trace = makeTrace({
  calls: [
    {
      id: "toolu_a",
      name: "Bash",
      input: { command: "git log -1" },
      observed: [
        { kind: "exec", syscall: "execve", path: "/bin/bash", argv: ["/bin/bash"], pid: 1 },
        { kind: "exec", syscall: "execve", path: "/usr/bin/git", argv: ["git", "log"], pid: 2 },
        { kind: "exec", syscall: "execve", path: "/usr/bin/less", argv: ["less"], pid: 3 },
        { kind: "write", syscall: "openat", path: "/work/src/x.ts", pid: 3 },
        { kind: "connect", syscall: "connect", address: "10.0.0.1:443", pid: 3 },
        { kind: "write", syscall: "openat", path: "/dev/null", pid: 1 },
      ],
    },
    { id: "toolu_b", name: "Bash", input: { command: "ls" }, observed: [] },
    { id: "toolu_c", name: "Bash", input: { command: "cat /etc/passwd" } },
  ],
  source: { kind: "harness", cwd: "/work" },
  observation: { mechanism: "strace", others: [{ owner: { kind: "mcp", server: "db" }, effects: [{ kind: "connect", syscall: "connect", address: "unix:/run/pg.sock", pid: 9 }] }], unattributed: [], gaps: [] },
  confinement: { mode: "jail", refused: [{ kind: "confinement-refused", callId: "toolu_c", what: "write", target: "/etc/passwd", errno: "EROFS", message: "a write outside the trial" }] },
});

describe("observed effects in the reports", () => {
  it("lists each call's own effects, shortly, and the run's refusals", () => {
    expect(observedLines(trace)).toEqual([
      "#0 Bash: observed: exec git, exec less, wrote src/x.ts, connect 10.0.0.1:443 (+2 of its shell, sandbox and scratch)",
      "#2 Bash: observed: refused write /etc/passwd EROFS",
      "MCP server db: observed: connect unix:/run/pg.sock",
      "confinement refused write /etc/passwd EROFS (#2): a write outside the trial",
    ]);
  });

  it("proctor show puts them under each call", () => {
    const text = renderTraceText(trace, { colour: false });
    expect(text).toContain("#0 ✓ Bash");
    expect(text).toMatch(/#0 [^\n]*\n(\s+[^\n]*\n)*?\s+observed: exec git, exec less, wrote src\/x\.ts, connect 10\.0\.0\.1:443/);
    expect(text).toMatch(/#1 [^\n]*\n\s+observed: no effect\n/);
    expect(text).toContain("jail  confinement refused write /etc/passwd EROFS (#2): a write outside the trial");
    expect(text).toContain("observed  MCP server db: observed: connect unix:/run/pg.sock");
  });

  it("the HTML view too, escaped", () => {
    const html = renderTraceHtml(trace);
    expect(html).toContain('<p class="result observed effects">observed: exec git, exec less, wrote src/x.ts, connect 10.0.0.1:443 (+2 of its shell, sandbox and scratch)</p>');
    expect(html).toContain('<p class="result observed">observed: no effect</p>');
    expect(html).toContain("<h2>Observed and refused</h2>");
  });

  it("JUnit writes them to a failed check's system-out, its own call first", () => {
    const results = evalChecks(trace, [effects("Bash", { exec: ["git", "ls", "cat"] })]);
    const xml = renderJunitResults([{ name: "t", results, observed: observedLines(trace) }]);
    expect(xml).toMatch(/<system-out><!\[CDATA\[#0 Bash: observed: exec git, exec less/);
  });

  it("a trace without observation shows none", () => {
    const plain = makeTrace({ calls: [{ name: "Bash", input: { command: "ls" } }] });
    expect(observedLines(plain)).toEqual([]);
    expect(renderTraceText(plain, { colour: false })).not.toContain("observed");
  });
});
