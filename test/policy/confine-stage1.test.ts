/**
 * A whole trial's first seccomp stage (harness/claude/jail.ts) is the jail's program with AF_UNIX
 * let through for the forwarder to the mock (socat): `socket(AF_UNIX)` and every `socketpair`
 * allowed, and nothing else different. The oracle is the program itself without the option: the
 * two must answer alike on every call but those.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bwrapArgs } from "../../src/policy/confine.js";
import { ARCH, ERRNO, jailFilter, runFilter } from "../../src/policy/confine-seccomp.js";
import { SYSCALL_NR, type SyscallName } from "../../src/policy/confine-syscalls.js";

const AF_UNIX = 1;
const strict = jailFilter();
const stage1 = jailFilter([], { allowUnixSockets: true });

describe("a whole trial's first seccomp stage", () => {
  it("allows AF_UNIX sockets and socketpairs of any type; the strict program refuses them", () => {
    for (const arch of ["x86_64", "aarch64"] as const) {
      const nr = (n: SyscallName) => SYSCALL_NR[n][arch === "x86_64" ? 0 : 1] as number;
      expect(runFilter(stage1, { arch: ARCH[arch], nr: nr("socket"), args: [AF_UNIX, 1] })).toEqual({ action: "allow" });
      expect(runFilter(strict, { arch: ARCH[arch], nr: nr("socket"), args: [AF_UNIX, 1] })).toEqual({ action: "errno", errno: ERRNO.EACCES });
      expect(runFilter(stage1, { arch: ARCH[arch], nr: nr("socketpair"), args: [AF_UNIX, 2] })).toEqual({ action: "allow" });
      expect(runFilter(strict, { arch: ARCH[arch], nr: nr("socketpair"), args: [AF_UNIX, 2] })).toEqual({ action: "errno", errno: ERRNO.EACCES });
      // AF_VSOCK (40) stays refused in both.
      expect(runFilter(stage1, { arch: ARCH[arch], nr: nr("socket"), args: [40, 1] })).toEqual({ action: "errno", errno: ERRNO.EAFNOSUPPORT });
    }
  });

  it("property: on every other call the two stages answer alike (io_uring, keyrings, mounts, namespaces stay refused)", () => {
    const names = Object.keys(SYSCALL_NR) as SyscallName[];
    fc.assert(
      fc.property(fc.constantFrom("x86_64" as const, "aarch64" as const), fc.constantFrom(...names), fc.array(fc.nat({ max: 0xffffffff }), { minLength: 6, maxLength: 6 }), (arch, name, args) => {
        const nr = SYSCALL_NR[name][arch === "x86_64" ? 0 : 1];
        if (nr === null) return true;
        const a = runFilter(stage1, { arch: ARCH[arch], nr, args });
        const b = runFilter(strict, { arch: ARCH[arch], nr, args });
        const unixSocket = name === "socket" && args[0] === AF_UNIX;
        if (unixSocket || name === "socketpair") return a.action === "allow";
        return JSON.stringify(a) === JSON.stringify(b);
      }),
      { numRuns: 3000 },
    );
  });

  it("a work dir beneath a writable dir is shown by that bind, and a trial keeps its own TMPDIR", () => {
    const args = bwrapArgs({ cwd: "/tmp/proctor-run-x/work", writable: ["/tmp/proctor-run-x"], setTmpdir: false });
    expect(args.join(" ")).not.toContain("--ro-bind /tmp/proctor-run-x/work");
    expect(args.join(" ")).toContain("--bind /tmp/proctor-run-x /tmp/proctor-run-x");
    expect(args).not.toContain("TMPDIR");
    // The gate's use is unchanged: the work dir read-only, TMPDIR set.
    const gate = bwrapArgs({ cwd: "/srv/project" });
    expect(gate.join(" ")).toContain("--ro-bind /srv/project /srv/project");
    expect(gate.join(" ")).toContain("--setenv TMPDIR /tmp");
  });
});
