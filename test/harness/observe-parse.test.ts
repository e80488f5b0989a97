/** The strace-log reader and the attribution on recorded lines (strace 6.1, claude 2.1.197 and 2.1.332 runs, shortened). */
import { describe, expect, it } from "vitest";
import { attributeEffects, quoteForEval, type ObserveContext } from "../../harness/observe/attribute.js";
import { probeStrace } from "../../harness/observe/observer.js";
import { parseStraceLog } from "../../harness/observe/read-log.js";
import { decodeEscapes, LineJoiner, parseCallLine } from "../../harness/observe/strace-line.js";
import type { ToolCall, Trace } from "../../src/trace/types.js";

describe("strace lines", () => {
  it("parses a call with -y decorations, the return fd's path and an errno", () => {
    expect(parseCallLine('21687 openat(AT_FDCWD</tmp/w>, "/tmp/ff", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</tmp/ff>')).toEqual({
      pid: 21687,
      name: "openat",
      args: ["AT_FDCWD</tmp/w>", '"/tmp/ff"', "O_WRONLY|O_CREAT|O_TRUNC", "0666"],
      ret: { value: "3", path: "/tmp/ff" },
    });
    expect(parseCallLine('7 mkdir("/ro/x", 0777) = -1 EROFS (Read-only file system)')?.ret).toEqual({ value: "-1", errno: "EROFS" });
    expect(parseCallLine("15555 clone(child_stack=NULL, flags=0x1200000|17, child_tidptr=0x7fd70df23490) = 2 /* 15556 in strace's PID NS */")?.ret).toEqual({ value: "2", hostPid: 15556 });
  });

  it("joins an interrupted call with its resumption", () => {
    const j = new LineJoiner();
    expect(j.push('21687 openat(AT_FDCWD</t>, "/t/ff", O_WRONLY|O_CREAT|O_TRUNC, 0666 <unfinished ...>')).toBeUndefined();
    expect(j.push('21701 execve("/usr/bin/cat", ["cat"], 0x5 /* 39 vars */) = 0')).toContain("execve");
    const whole = j.push("21687 <... openat resumed>)             = 3</t/ff>");
    expect(parseCallLine(whole ?? "")?.ret.path).toBe("/t/ff");
    expect(j.unfinished).toBe(0);
  });

  it("decodes strace's escapes: octal UTF-8 bytes, \\n, \\76 for > inside a decoration", () => {
    expect(decodeEscapes("\\303\\251 x")).toBe("é x");
    expect(decodeEscapes("n\\nl")).toBe("n\nl");
    expect(decodeEscapes("a\\76b")).toBe("a>b");
    expect(decodeEscapes('q\\"d\\\\')).toBe('q"d\\');
  });
});

const LOG = `100 execve("/bin/claude", ["/bin/claude", "-p"], 0x1 /* 3 vars */) = 0
100 openat(AT_FDCWD</w>, "/home/.claude/s.jsonl", O_WRONLY|O_CREAT|O_APPEND|O_CLOEXEC, 0666) = 20</home/.claude/s.jsonl>
100 clone(child_stack=NULL, flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, parent_tid=[101], tls=0x1, child_tidptr=0x2) = 101
101 openat(AT_FDCWD</w>, "/w", O_RDONLY|O_DIRECTORY|O_PATH|O_CLOEXEC) = 18</w>
101 rename("/proc/self/fd/18/w.txt.tmp.100.31af0e80a696", "/proc/self/fd/18/w.txt") = 0
100 clone3({flags=CLONE_VM|CLONE_VFORK, exit_signal=SIGCHLD, stack=0x3, stack_size=0x9000}, 88) = 200
200 execve("/bin/bash", ["/bin/bash", "-c", "source /s.sh && eval 'echo '\\"'\\"'hi'\\"'\\"' > out.txt' < /dev/null && pwd -P >| /tmp/cwd-1"], 0x4 /* 9 vars */) = 0
200 openat(AT_FDCWD</w>, "/dev/null", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</dev/null>
200 openat(AT_FDCWD</w>, "out.txt", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</w/out.txt>
200 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x5) = 201
201 execve("/bin/sh", ["/bin/sh", "-c", "echo hooked >> h.txt"], 0x6 /* 9 vars */) = 0
201 openat(AT_FDCWD</w>, "h.txt", O_WRONLY|O_CREAT|O_APPEND, 0666) = 3</w/h.txt>
201 connect(3<socket:[1]>, {sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr("1.2.3.4")}, 16) = -1 EACCES (Permission denied)
200 openat(AT_FDCWD</w>, "/tmp/cwd-1", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</tmp/cwd-1>
200 kill(100, SIGTERM) = 0
200 kill(201, SIGTERM) = 0
100 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7) = 300
300 execve("/bin/sh", ["/bin/sh", "-c", "echo hooked >> h.txt"], 0x6 /* 9 vars */) = 0
300 openat(AT_FDCWD</w>, "h.txt", O_WRONLY|O_CREAT|O_APPEND, 0666) = 3</w/h.txt>
300 mknodat(AT_FDCWD</w>, "p", S_IFIFO|0666) = 0
100 clone(child_stack=NULL, flags=SIGCHLD) = 400
400 execve("/usr/bin/node", ["node", "/srv/mcp.mjs"], 0x8 /* 3 vars */) = 0
400 mkdir("state", 0777) = 0
400 sendto(5<socket:[2]>, "x", 1, 0, {sa_family=AF_INET6, sin6_port=htons(53), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, 28) = 1
999 unlink("/w/stray") = 0
`;

const call = (id: string, name: string, input: Record<string, unknown>): ToolCall => ({ id, name, input, status: "success", agent: "main" });
const trace = (calls: ToolCall[]): Trace => ({ version: 1, source: { kind: "harness" }, complete: true, toolCalls: calls, subagents: [], skills: [], hooks: [], replies: [], errors: [] });
const CONTEXT: ObserveContext = { binary: "/bin/claude", cwd: "/w", hooks: [{ name: "PostToolUse:Bash", command: "echo hooked >> h.txt" }], mcpServers: [{ name: "srv", command: "node", args: ["/srv/mcp.mjs"] }] };

describe("reading a log and tying effects to owners", () => {
  const log = parseStraceLog(LOG);
  const t = attributeEffects(trace([call("c1", "Bash", { command: "echo 'hi' > out.txt" }), call("w1", "Write", { file_path: "w.txt", content: "x" })]), log, CONTEXT);
  const brief = (e: { kind: string; path?: string; to?: string; address?: string; errno?: string }) => [e.kind, e.path ?? e.address, e.to, e.errno].filter(Boolean).join(" ");

  it("quotes a command the way claude's wrapper does", () => {
    expect(quoteForEval("echo 'hi' > out.txt")).toBe(`'echo '"'"'hi'"'"' > out.txt'`);
  });

  it("puts the shell's write on the call, without the wrapper's cwd file, its exec or /dev/null; its child's effects (pid 201); a signal outside the call stays, one inside it does not", () => {
    expect(t.toolCalls[0]?.observed?.map(brief)).toEqual(["write /w/out.txt", "exec /bin/sh", "write /w/h.txt", "refused 1.2.3.4:443 EACCES", "signal"]);
    expect(t.toolCalls[0]?.observed?.find((e) => e.kind === "signal")).toMatchObject({ signal: "SIGTERM", target: 100 });
  });

  it("a hook command the call itself runs stays the call's; the one the agent runs is the hook's", () => {
    // pid 201 runs the hook's command line but is the call's child: its write and refused connect are the call's.
    expect(log.effects.filter((e) => e.pid === 201).map(brief)).toEqual(["exec /bin/sh", "write /w/h.txt", "refused 1.2.3.4:443 EACCES"]);
    const hook = t.observation?.others.find((o) => o.owner.kind === "hook");
    expect(hook?.effects.map(brief)).toEqual(["exec /bin/sh", "write /w/h.txt", "create /w/p"]);
    expect(hook?.effects.find((e) => e.kind === "create")?.fileType).toBe("fifo");
  });

  it("the Write call's rename through /proc/self/fd is resolved and on the call; the MCP server's on the server; a stranger unattributed", () => {
    expect(t.toolCalls[1]?.observed?.map(brief)).toEqual(["rename /w/w.txt.tmp.100.31af0e80a696 /w/w.txt"]);
    expect(t.observation?.others.find((o) => o.owner.kind === "mcp")?.effects.map(brief)).toEqual(["exec /usr/bin/node", "mkdir /w/state", "connect [::1]:53"]);
    expect(t.observation?.others.find((o) => o.owner.kind === "agent")?.effects.map(brief)).toEqual(["exec /bin/claude", "write /home/.claude/s.jsonl"]);
    expect(t.observation?.unattributed.map(brief)).toEqual(["delete /w/stray"]);
    expect(t.observation?.gaps).toEqual([]);
  });

  it("a Bash call whose shell is not in the log is a gap, never silently empty", () => {
    const t2 = attributeEffects(trace([call("c9", "Bash", { command: "touch never" })]), log, CONTEXT);
    expect(t2.observation?.gaps).toEqual([expect.stringContaining("Bash call c9")]);
  });

  it("finds the shell of a command longer than strace prints (the argument cut short)", () => {
    const long = `echo ${"a".repeat(40)} and more text than the log kept`;
    const cutLog = `100 execve("/bin/claude", ["/bin/claude"], 0x1 /* 1 vars */) = 0
100 clone(child_stack=NULL, flags=SIGCHLD) = 500
500 execve("/bin/bash", ["/bin/bash", "-c", "source /s && eval 'echo ${"a".repeat(40)} and mo"...], 0x1 /* 1 vars */) = 0
500 openat(AT_FDCWD</w>, "long.txt", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</w/long.txt>
`;
    const t3 = attributeEffects(trace([call("c5", "Bash", { command: long })]), parseStraceLog(cutLog), CONTEXT);
    expect(t3.toolCalls[0]?.observed?.map(brief)).toEqual(["write /w/long.txt"]);
  });

  it("caps what one process may hold, and says so", () => {
    const lines = Array.from({ length: 50 }, (_, i) => `5 openat(AT_FDCWD</w>, "f${i}", O_WRONLY|O_CREAT, 0666) = 3</w/f${i}>`).join("\n");
    const capped = parseStraceLog(`${lines}\n`, { perProcess: 10, total: 100, processes: 10 });
    expect(capped.effects).toHaveLength(10);
    expect(capped.gaps).toEqual([expect.stringContaining("40 effect(s) beyond")]);
  });

  it("a log cut inside a line is a gap", () => {
    expect(parseStraceLog('5 openat(AT_FDCWD</w>, "f", O_WRONLY').gaps).toEqual([expect.stringContaining("cut short")]);
  });
});

describe("where strace cannot run", () => {
  it("says why and how to install it", () => {
    expect(probeStrace("/nonexistent/strace")).toEqual({ usable: false, reason: expect.stringContaining("apt-get install -y strace") });
  });

  it("a strace that cannot trace is refused with the reason", () => {
    expect(probeStrace("false")).toEqual({ usable: false, reason: expect.stringContaining("ptrace is refused") });
  });
});

describe("a call rewritten by a hook, confined by bubblewrap, under a jail proctor launched", () => {
  // 50: the jail's bash and bwrap (launched around claude); 51: socat beside it; 100: claude, exec'd last.
  const JAILED = `50 execve("/bin/bash", ["/bin/bash", "-c", "exec bwrap ..."], 0x1 /* 3 vars */) = 0
50 execve("/usr/bin/bwrap", ["bwrap", "--unshare-all"], 0x1 /* 3 vars */) = 0
50 mkdir("/newroot/run", 0755) = 0
50 clone(child_stack=NULL, flags=SIGCHLD) = 51
51 execve("/usr/bin/socat", ["socat", "TCP-LISTEN:1"], 0x1 /* 3 vars */) = 0
51 connect(3<socket:[9]>, {sa_family=AF_UNIX, sun_path="/run/proctor/mock.sock"}, 110) = 0
50 clone(child_stack=NULL, flags=SIGCHLD) = 100
100 execve("/bin/claude", ["/bin/claude", "-p"], 0x1 /* 3 vars */) = 0
100 clone3({flags=CLONE_VM|CLONE_VFORK, exit_signal=SIGCHLD, stack=0x3, stack_size=0x9000}, 88) = 200
200 execve("/bin/bash", ["/bin/bash", "-c", "eval 'bwrap --ro-bind / / -- cat notes.txt' < /dev/null"], 0x4 /* 9 vars */) = 0
200 execve("/usr/bin/bwrap", ["bwrap", "--ro-bind", "/", "/", "--", "cat", "notes.txt"], 0x4 /* 9 vars */) = 0
200 openat(AT_FDCWD</w>, "/proc/201/uid_map", O_WRONLY|O_CLOEXEC) = 3</proc/201/uid_map>
200 clone(child_stack=NULL, flags=SIGCHLD) = 201
201 mkdir("/tmp/newroot", 0755) = 0
201 symlinkat("/proc/self/fd/0", AT_FDCWD</>, "/newroot/dev/stdin") = 0
201 execve("/usr/bin/cat", ["cat", "notes.txt"], 0x4 /* 9 vars */) = 0
201 openat(AT_FDCWD</w>, "/w/leak.txt", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</w/leak.txt>
`;
  const log = parseStraceLog(JAILED);
  const rewritten: ToolCall = { ...call("g1", "Bash", { command: "cat notes.txt" }), ran: { command: "bwrap --ro-bind / / -- cat notes.txt", by: "hook" } };
  const t = attributeEffects(trace([rewritten]), log, CONTEXT);
  const brief = (e: { kind: string; path?: string; to?: string }) => [e.kind, e.path, e.to].filter(Boolean).join(" ");

  it("the call's shell is found by the command that ran; bubblewrap's own set-up is left out, the payload's write is kept", () => {
    expect(t.toolCalls[0]?.observed?.map(brief)).toEqual(["exec /usr/bin/bwrap", "exec /usr/bin/cat", "write /w/leak.txt"]);
    expect(t.observation?.gaps).toEqual([]);
  });

  it("the jail proctor launched around claude (its bwrap, socat) is machinery: nothing unattributed", () => {
    expect(t.observation?.unattributed).toEqual([]);
    expect(t.observation?.others.map((o) => o.owner.kind)).toEqual(["agent"]);
  });
});

describe("a command claude passes unquoted", () => {
  it("`eval ls` (a plain word) is found, and not mistaken for `eval lsof`", () => {
    const log = parseStraceLog(`100 execve("/bin/claude", ["/bin/claude", "-p"], 0x1 /* 3 vars */) = 0
100 clone(child_stack=NULL, flags=SIGCHLD) = 200
200 execve("/bin/bash", ["/bin/bash", "-c", "source /s.sh && eval lsof < /dev/null && pwd -P >| /tmp/cwd-1"], 0x4 /* 9 vars */) = 0
100 clone(child_stack=NULL, flags=SIGCHLD) = 300
300 execve("/bin/bash", ["/bin/bash", "-c", "source /s.sh && eval ls < /dev/null && pwd -P >| /tmp/cwd-1"], 0x4 /* 9 vars */) = 0
300 clone(child_stack=NULL, flags=SIGCHLD) = 301
301 execve("/usr/bin/ls", ["ls"], 0x4 /* 9 vars */) = 0
`);
    const t = attributeEffects(trace([call("l1", "Bash", { command: "ls" })]), log, CONTEXT);
    expect(t.toolCalls[0]?.observed?.map((e) => [e.kind, e.path, e.pid])).toEqual([["exec", "/usr/bin/ls", 301]]);
    expect(t.observation?.gaps).toEqual([]);
  });
});
