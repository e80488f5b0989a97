import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, lstatSync, readlinkSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { bwrapArgs, type ConfineStep, confineCommand, DEFAULT_LIMITS, SYSTEM_PATHS, jailTmp, limitsFromEnv, pathPrefixes, unsafeWorkDir } from "../../src/policy/confine.js";
import { confineAnswer } from "../../src/policy/confine-gate.js";
import { ARCH, ERRNO, jailFilter, runFilter, SECCOMP_PARTS, type SeccompPart } from "../../src/policy/confine-seccomp.js";
import { ALLOWED_SYSCALLS, REFUSED_SYSCALLS, SYSCALL_NR, type SyscallName } from "../../src/policy/confine-syscalls.js";

const hasBwrap = spawnSync("bwrap", ["--ro-bind", "/", "/", "true"]).status === 0;
const isRoot = process.getuid?.() === 0;
const SYSTEM = new Set<string>(SYSTEM_PATHS);
const work = mkdtempSync(join(tmpdir(), "proctor-confine-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const visible = pathPrefixes(process.env.PATH, process.env.HOME);

function run(command: string, omit: ConfineStep[] = []): { status: number | null; out: string } {
  const r = spawnSync("/bin/bash", ["-c", confineCommand(command, { cwd: work, omit, visible })], { cwd: work, encoding: "utf8", timeout: 30_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

/**
 * The oracle for the seccomp program, written from the rules rather than the assembler: what the
 * kernel should answer for one call. Arguments are low words.
 */
function expected(arch: "x86_64" | "aarch64", nr: number, args: readonly number[], omit: ReadonlySet<SeccompPart>): number | "allow" {
  const ix = arch === "x86_64" ? 0 : 1;
  const name = (Object.keys(SYSCALL_NR) as SyscallName[]).find((n) => SYSCALL_NR[n][ix] === nr);
  if (arch === "x86_64" && nr >= 0x40000000) return ERRNO.EPERM;
  if (name === undefined) return ERRNO.ENOSYS;
  const [a0 = 0, a1 = 0] = args;
  const off = (p: SeccompPart) => omit.has(p);
  switch (name) {
    case "socket":
      return off("unixSocket") || [2, 10, 16].includes(a0) ? "allow" : a0 === 1 ? ERRNO.EACCES : ERRNO.EAFNOSUPPORT;
    case "socketpair":
      return off("socketpairStream") || (a0 === 1 && (a1 & ~0x80800) === 1) ? "allow" : ERRNO.EACCES;
    case "clone":
      return off("namespaces") || (a0 & 0x7e020000) === 0 ? "allow" : ERRNO.EPERM;
    case "clone3":
      return off("namespaces") ? "allow" : ERRNO.ENOSYS;
    case "flock":
      return off("locks") ? "allow" : ERRNO.ENOLCK;
    case "fcntl":
      return off("locks") || ![6, 7, 37, 38, 1024].includes(a1) ? "allow" : ERRNO.ENOLCK;
    case "ioctl":
      return a1 === 0x5412 || a1 === 0x541c ? ERRNO.EPERM : "allow";
    case "personality":
      return [0, 8, 0x20000, 0x20008, 0xffffffff].includes(a0 >>> 0) ? "allow" : ERRNO.EPERM;
  }
  const groups: [SeccompPart, string[]][] = [
    ["debug", ["ptrace", "process_vm_readv", "process_vm_writev"]],
    ["ioUring", ["io_uring_setup", "io_uring_enter", "io_uring_register"]],
    ["keyring", ["keyctl", "add_key", "request_key"]],
    ["namespaces", ["unshare", "setns", "mount", "umount2", "pivot_root", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "open_tree", "mount_setattr"]],
  ];
  for (const [part, names] of groups) if (names.includes(name) && off(part)) return "allow";
  if (REFUSED_SYSCALLS.includes(name)) return ERRNO.EPERM;
  if (ALLOWED_SYSCALLS.includes(name)) return "allow";
  throw new Error(`no rule for ${name}`);
}

describe("the seccomp allowlist", () => {
  it("answers each call as the rules say, on both architectures, with any parts left out (property, against an oracle)", () => {
    const nrs = (Object.values(SYSCALL_NR) as (readonly (number | null)[])[]).flat().filter((n): n is number => n !== null);
    const word = fc.oneof(fc.constantFrom(0, 1, 2, 10, 16, 40, 6, 7, 37, 38, 1024, 0x5412, 0x541c, 0x80801, 0x10000000, 0x20000, 0xffffffff), fc.nat({ max: 0xffffffff }));
    fc.assert(
      fc.property(
        fc.constantFrom("x86_64" as const, "aarch64" as const),
        fc.oneof(fc.constantFrom(...nrs), fc.nat({ max: 1100 }), fc.constant(0x40000000 + 1)),
        fc.array(word, { minLength: 2, maxLength: 2 }),
        fc.subarray([...SECCOMP_PARTS]),
        (arch, nr, args, omit) => {
          const got = runFilter(jailFilter(omit), { arch: ARCH[arch], nr, args });
          const want = expected(arch, nr, args, new Set(omit));
          expect(got).toEqual(want === "allow" ? { action: "allow" } : { action: "errno", errno: want });
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("refuses any other architecture (i386 compat) with EPERM, and never kills", () => {
    expect(runFilter(jailFilter(), { arch: 0x40000003, nr: 1 })).toEqual({ action: "errno", errno: ERRNO.EPERM });
    const f = jailFilter();
    for (let i = 0; i < f.length; i += 8) {
      const view = new DataView(f.buffer, i, 8);
      if (view.getUint16(0, true) === 0x06) expect([0x7fff0000, 0x00050000].includes(view.getUint32(4, true) & 0xffff0000)).toBe(true);
    }
  });

  it("stays small enough to pass inline (well under the kernel's 4096 instructions)", () => {
    expect(jailFilter().length / 8).toBeLessThan(600);
  });
});

describe("the recipe's inputs", () => {
  it("refuses a work dir that would show the host's tree", () => {
    expect(unsafeWorkDir("/")).toMatch(/whole tree/);
    expect(unsafeWorkDir("//")).toMatch(/whole tree/);
    expect(unsafeWorkDir("relative")).toMatch(/not an absolute path/);
    expect(unsafeWorkDir("/dev/shm")).toMatch(/host's \/dev/);
    expect(unsafeWorkDir("/home/u/project")).toBeUndefined();
  });

  it("the gate denies, saying why, a call from the work dir / or with a bad PROCTOR_JAIL_* value", () => {
    const req = { toolName: "Bash", toolInput: { command: "ls" }, decision: "allow" as const, reason: "proctor gate: ok", mode: "on" as const, preflight: () => ({ ok: true as const, confiner: { kind: "bwrap" as const, path: "/usr/bin/bwrap" } }) };
    const root = confineAnswer({ ...req, cwd: "/" });
    expect([root.decision, root.reason]).toEqual(["deny", expect.stringMatching(/work dir is \/ .*denied/)]);
    const bad = confineAnswer({ ...req, cwd: "/work/p", env: { PROCTOR_JAIL_TMP_MIB: "-1" } });
    expect([bad.decision, bad.reason]).toEqual(["deny", expect.stringMatching(/PROCTOR_JAIL_TMP_MIB="-1" is not a positive whole number/)]);
    expect(confineAnswer({ ...req, cwd: "/work/p" }).decision).toBe("allow");
  });

  it("reads the limits from PROCTOR_JAIL_*, naming a bad value", () => {
    expect(limitsFromEnv({})).toEqual(DEFAULT_LIMITS);
    expect(limitsFromEnv({ PROCTOR_JAIL_PROCESSES: "64", PROCTOR_JAIL_TMP_MIB: "32" })).toEqual({ ...DEFAULT_LIMITS, processes: 64, tmpMiB: 32 });
    expect(() => limitsFromEnv({ PROCTOR_JAIL_MEMORY_MIB: "lots" })).toThrow(/PROCTOR_JAIL_MEMORY_MIB="lots" is not a positive whole number/);
    expect(() => limitsFromEnv({ PROCTOR_JAIL_CPU_SECONDS: "0" })).toThrow(/PROCTOR_JAIL_CPU_SECONDS/);
  });

  it("shows PATH entries' install prefixes, never a dir it must not show whole", () => {
    expect(pathPrefixes("/root/.pyenv/shims:/usr/local/bin:/p/node_modules/.bin:/root/bin:/opt/x/bin:/tmp/bin:relative", "/root")).toEqual(["/root/.pyenv", "/p/node_modules", "/root/bin", "/tmp/bin"]);
    const dir = fc.array(fc.constantFrom("usr", "bin", "tmp", "home", "u", ".bin", "shims", "root", "proc", "x"), { minLength: 0, maxLength: 4 }).map((xs) => `/${xs.join("/")}`);
    fc.assert(
      fc.property(fc.array(dir, { maxLength: 5 }), fc.constantFrom("/root", "/home/u", undefined), (dirs, home) => {
        for (const p of pathPrefixes(dirs.join(":"), home)) {
          expect(["/", "/tmp", "/proc", "/home", "/root", home]).not.toContain(p);
          expect(dirs.some((d) => d === p || d.startsWith(`${p}/`))).toBe(true);
        }
      }),
    );
  });

  it("binds a shown path once, and not beneath another shown path or the work dir", () => {
    const binds = (visible: string[]) => {
      const a = bwrapArgs({ cwd: "/work/p", visible });
      return a.flatMap((x, i) => (x === "--ro-bind-try" && !SYSTEM.has(a[i + 1] as string) ? [a[i + 1]] : []));
    };
    expect(binds(["/a", "/a/b", "/c/", "/c", "/work/p/node_modules", "/ab"])).toEqual(["/a", "/c", "/ab"]);
  });

  it.runIf(lstatSync("/bin").isSymbolicLink())("makes a merged-/usr host's /bin the same link inside, not a second mount of /usr/bin", () => {
    const a = bwrapArgs({ cwd: "/work/p" }).join(" ");
    expect(a).toContain(`--symlink ${readlinkSync("/bin")} /bin`);
    expect(a).not.toContain("--ro-bind-try /bin /bin");
  });

  it("puts the shell's own words (claude's executable) among the mounts, before the root is sealed read-only", () => {
    const text = confineCommand("true", { cwd: "/work/p", rawArgs: "RAW" });
    expect(text.indexOf(" RAW ")).toBeGreaterThan(text.indexOf("'--ro-bind' '/work/p'"));
    expect(text.indexOf(" RAW ")).toBeLessThan(text.indexOf("'--remount-ro' '/'"));
  });

  it("says on stderr, never silently, when Landlock cannot be applied (no perl, or a kernel without it)", () => {
    expect(confineCommand("true", { cwd: "/work/p" })).toContain("this kernel has no Landlock");
    // One line, as a transcript shows a command (the Perl's own "\n" stay escapes).
    expect(confineCommand("true", { cwd: "/work/p" })).not.toContain("\n");
    const noPerl = confineCommand("true", { cwd: "/work/p", perl: false });
    expect(noPerl).toContain("no /usr/bin/perl to apply it");
    expect(noPerl).toContain("this kernel has no Landlock");
    for (const perl of ["/usr/bin/perl", false] as const) expect(confineCommand("true", { cwd: "/work/p", perl, omit: ["landlock"] })).not.toContain("Landlock not applied");
    // An architecture the Perl stage has no syscall numbers for takes the bash form.
    expect(confineCommand("true", { cwd: "/work/p", arch: "riscv64" })).toContain("no /usr/bin/perl to apply it");
  });

  it("moves TMPDIR below /tmp when the work dir is there, so a Landlock rule on it cannot cover the work dir", () => {
    expect(jailTmp({ cwd: "/tmp/clone" })).toBe("/tmp/.proctor-jail-tmp");
    expect(jailTmp({ cwd: "/work/p" })).toBe("/tmp");
    expect(jailTmp({ cwd: "/work/p", visible: ["/tmp/clone/node_modules"] })).toBe("/tmp/.proctor-jail-tmp");
    expect(jailTmp({ cwd: "/tmp/scratch", writable: ["/tmp/scratch"] })).toBe("/tmp"); // an observer's writable copy
  });
});

describe.runIf(hasBwrap)("confined command (real bwrap)", () => {
  it("sets up the inside the same way with the Perl stage and without it: descriptors closed, limits set, seccomp loaded", () => {
    const c = "for f in u v t f; do ulimit -$f; done; ls /proc/self/fd | wc -l; grep -c '^Seccomp:.2' /proc/self/status; echo x > notes.new || echo REFUSED";
    const outs = [undefined, false as const].map((perl) => {
      // fd 7 is open in the caller: it must not pass in.
      const r = spawnSync("/bin/bash", ["-c", `exec 7</dev/null; ${confineCommand(c, { cwd: work, visible, ...(perl === undefined ? {} : { perl }) })}`], { cwd: work, encoding: "utf8", timeout: 30_000 });
      return r.stdout;
    });
    const l = DEFAULT_LIMITS;
    expect(outs[0]).toBe(`${[l.processes, l.memoryMiB * 1024, l.cpuSeconds, l.fileMiB * 1024].join("\n")}\n4\n1\nREFUSED\n`);
    expect(outs[1]).toBe(outs[0]);
  });

  it("a caller's start-up hooks (PERL5OPT with PERL5DB, BASH_ENV) do not run before the layers, in either form", () => {
    // In the work dir, so it is visible inside; exported by the caller's shell after its own start.
    const hook = join(work, "hook.sh");
    writeFileSync(hook, "echo HOOKED-BASH\n");
    try {
      const exports = `export PERL5OPT=-d PERL5DB='BEGIN { print "HOOKED-PERL\\n" }' BASH_ENV=${hook}`;
      for (const perl of [undefined, false as const]) {
        const r = spawnSync("/bin/bash", ["-c", `${exports}; ${confineCommand("echo RAN", { cwd: work, visible, ...(perl === undefined ? {} : { perl }) })}`], { cwd: work, encoding: "utf8" });
        expect(r.stdout, String(perl)).toBe("RAN\n");
        // Without the unset, each hook runs (the test can fail).
        const open = spawnSync("/bin/bash", ["-c", `${exports}; ${confineCommand("echo RAN", { cwd: work, visible, unsetEnv: [], ...(perl === undefined ? {} : { perl }) })}`], { cwd: work, encoding: "utf8" });
        expect(open.stdout, String(perl)).toMatch(/HOOKED/);
      }
    } finally {
      rmSync(hook, { force: true });
    }
  });

  it("reads like bash -c", () => {
    const r = run("echo hello; ls /usr | head -1");
    expect(r.status).toBe(0);
    expect(r.out).toBe(execFileSync("/bin/bash", ["-c", "echo hello; ls /usr | head -1"], { encoding: "utf8" }));
  });

  it("runs everyday commands: ls, git status/log/diff, grep, sort through TMPDIR, a heredoc, node -e, python3 -c", () => {
    writeFileSync(join(work, "notes.txt"), "alpha\nbeta\n");
    spawnSync("git", ["init", "-q"], { cwd: work });
    spawnSync("git", ["add", "notes.txt"], { cwd: work });
    spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one"], { cwd: work });
    writeFileSync(join(work, "notes.txt"), "alpha\ngamma\n");
    const c = [
      "ls notes.txt",
      "git status --short",
      "git log --format=%s",
      "git diff --stat | tail -1",
      "grep -c a notes.txt",
      "seq 200000 | sort -rn -S 64K -T \"$TMPDIR\" | head -1",
      "cat <<EOF\nheredoc\nEOF",
      "node -e 'console.log(6*7)'",
      "python3 -c 'print(2**10)'",
    ].join("\n");
    const r = run(c);
    expect(r.out).toBe("notes.txt\n M notes.txt\none\n 1 file changed, 1 insertion(+), 1 deletion(-)\n2\n200000\nheredoc\n42\n1024\n");
  });

  it("refuses redirections and sed w into the work dir", () => {
    expect(run("echo x > pwned1").status).not.toBe(0);
    run("sed -e 'w PWNED' --version");
    expect(existsSync(join(work, "pwned1")) || existsSync(join(work, "PWNED"))).toBe(false);
  });

  it("refuses a remount of / while the cap drop, seccomp or Landlock holds (as root; the host's binds stay locked read-only in the jail's user namespace regardless)", () => {
    const c = "mount -o remount,rw / && touch /PWNED && echo REMOUNTED";
    for (const omit of [[], ["capDrop"], ["seccomp"], ["landlock"], ["capDrop", "seccomp"], ["capDrop", "landlock"], ["seccomp", "landlock"]] as ConfineStep[][]) expect(run(c, omit).out, omit.join()).not.toContain("REMOUNTED");
    if (isRoot) expect(run(c, ["capDrop", "seccomp", "landlock"]).out).toContain("REMOUNTED");
  });

  it.runIf(isRoot)("the cap drop keeps root from reading a file its mode denies (CAP_DAC_OVERRIDE)", () => {
    writeFileSync(join(work, "secret"), "SECRET\n");
    chmodSync(join(work, "secret"), 0);
    expect(run("cat secret").out).toMatch(/Permission denied/);
    expect(run("cat secret", ["capDrop"]).out).toContain("SECRET");
  });

  it("refuses a sysctl write while /proc/sys is read-only or Landlock holds (writes back the same value, as root)", () => {
    const c = "v=$(cat /proc/sys/vm/overcommit_ratio); echo $v > /proc/sys/vm/overcommit_ratio && echo WROTE";
    for (const omit of [[], ["procSysRo"], ["landlock"]] as ConfineStep[][]) expect(run(c, omit).out, omit.join()).not.toContain("WROTE");
    if (isRoot) expect(run(c, ["procSysRo", "landlock"]).out).toContain("WROTE");
  });

  it("keeps a work dir under /tmp visible, with the host's other /tmp entries hidden", () => {
    expect(run("pwd").out.trim()).toBe(work);
    expect(run(`ls ${tmpdir()} | grep -c proctor-confine-`).out.trim()).toBe("1");
  });

  it("refuses a writer run by git config (core.pager) in the work dir", () => {
    run("git init -q . 2>/dev/null; git -c core.pager='touch PAGER_PWNED' -p log");
    expect(existsSync(join(work, "PAGER_PWNED"))).toBe(false);
  });
});
