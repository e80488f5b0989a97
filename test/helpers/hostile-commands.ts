/**
 * Commands for the confinement oracle: the classifier's read-only corpus, hostile payloads (writes
 * in and out of the work dir, HOME and /tmp; TCP and unix-socket connections; a remount; git config
 * programs; a background job), and the two composed.
 */
import fc from "fast-check";
import { READ_ONLY } from "../effects/classify-bash.corpus.js";

/** Where the payloads aim: a dir beside the work dir, a /tmp name, a TCP port and a unix socket listening in the test. */
export interface Targets {
  readonly outside: string;
  readonly tmpMarker: string;
  readonly port: number;
  readonly sock: string;
}

export function payloads(t: Targets): string[] {
  return [
    "touch PWNED",
    "echo x > PWNED",
    "echo x >> keep",
    "rm -f keep",
    "mkdir PWNED",
    "sed -i s/one/ONE/ keep",
    "sed -e 'w PWNED' --version",
    "sed --expression='w PWNED' --version",
    `touch ${t.outside}/PWNED`,
    "touch ~/PWNED",
    `touch ${t.tmpMarker}`,
    "git config user.name PWNED",
    "git -c core.pager='touch PWNED' -p log",
    `exec 3<>/dev/tcp/127.0.0.1/${t.port} && echo CONNECTED >&3`,
    `echo x > /dev/tcp/127.0.0.1/${t.port}`,
    `python3 -c "import socket; s = socket.socket(socket.AF_UNIX); s.connect('${t.sock}')"`,
    `socat - UNIX-CONNECT:${t.sock} </dev/null`,
    `socat - TCP:127.0.0.1:${t.port} </dev/null`,
    "mount -o remount,rw / && touch /PWNED-remount",
    `node -e "require('fs').writeFileSync('PWNED', 'x')"`,
    "(sleep 0.2; touch PWNED) &",
  ];
}

/** Read-only corpus commands that end quickly anywhere (no whole-filesystem walks, no waiting on input). */
export const QUICK_READ_ONLY = READ_ONLY.filter((c) => c.length <= 80 && !/find \/|du .*\/$|sleep|tail -f|watch|\btop\b|\bread\b|\/dev\/tcp/.test(c));

export function hostileCommands(t: Targets): fc.Arbitrary<string> {
  const base = fc.constantFrom(...QUICK_READ_ONLY);
  const hostile = fc.constantFrom(...payloads(t));
  return fc.oneof(
    base,
    hostile,
    fc.tuple(base, hostile).map(([b, h]) => `${b}; ${h}`),
    fc.tuple(base, hostile).map(([b, h]) => `${b} && ${h}`),
    fc.tuple(base, hostile).map(([b, h]) => `${h} | ${b}`),
    fc.tuple(base, hostile).map(([b, h]) => `${b} "$(${h})"`),
  );
}
