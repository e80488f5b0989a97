/**
 * One line of an `strace -f -y` log as data: the pid, the system call, its arguments (raw text,
 * split at the top level) and what it returned. Interrupted calls (`<unfinished ...>` … `<...
 * resumed>`) are joined by LineJoiner before they are parsed.
 */

/** A system call as strace printed it. */
export interface StraceCall {
  readonly pid: number;
  readonly name: string;
  /** Each argument's raw text (`AT_FDCWD</work>`, `"a\"b"`, `O_WRONLY|O_CREAT`, `{sa_family=…}`). */
  readonly args: readonly string[];
  /** The return value (`-1`, `3`, `?`), the path `-y` printed beside a returned fd, the errno, and a child's pid in strace's namespace. */
  readonly ret: { readonly value: string; readonly path?: string; readonly errno?: string; readonly hostPid?: number };
}

/** Joins an interrupted call's two halves, per pid, so every call is parsed whole. */
export class LineJoiner {
  private readonly pending = new Map<number, string>();

  /** The whole call once it is complete (undefined while it is still unfinished, or for a line that is no call). */
  push(line: string): string | undefined {
    const m = /^(\d+) +(.*)$/.exec(line);
    if (!m) return undefined;
    const pid = Number(m[1]);
    const rest = m[2] ?? "";
    if (rest.endsWith(" <unfinished ...>")) {
      this.pending.set(pid, `${pid} ${rest.slice(0, -" <unfinished ...>".length)}`);
      return undefined;
    }
    const resumed = /^<\.\.\. [\w]+ resumed>(.*)$/.exec(rest);
    if (resumed) {
      const head = this.pending.get(pid);
      this.pending.delete(pid);
      if (head === undefined) return undefined;
      const tail = resumed[1] ?? "";
      // strace prints the resumed part starting at the next argument (`, 0666) = 3`) or at the close (`) = 3`).
      return `${head}${tail.startsWith(")") || tail.startsWith(",") || tail.startsWith(" ") ? "" : ", "}${tail}`;
    }
    return line;
  }

  /** Calls left unfinished when the log ended (the process was killed inside them). */
  get unfinished(): number {
    return this.pending.size;
  }
}

/** Parse one whole call line; undefined for anything else (signals, exits, a damaged line). */
export function parseCallLine(line: string): StraceCall | undefined {
  const m = /^(\d+) +([a-z_0-9]+)\(/.exec(line);
  if (!m) return undefined;
  const split = splitArgs(line, m[0].length);
  if (!split) return undefined;
  const ret = parseReturn(line.slice(split.end + 1));
  if (!ret) return undefined;
  return { pid: Number(m[1]), name: m[2] ?? "", args: split.args, ret };
}

/** Split the argument list that starts at `start` (after the `(`) at its top-level commas. */
function splitArgs(s: string, start: number): { args: string[]; end: number } | undefined {
  const args: string[] = [];
  let depth = 0;
  let from = start;
  for (let i = start; i < s.length; i++) {
    const c = s[i];
    if (c === '"') {
      i = skipString(s, i);
      continue;
    }
    if (c === "<" && i > start && /[\w\]]/.test(s[i - 1] ?? "")) {
      i = skipDecoration(s, i);
      continue;
    }
    if (c === "/" && s[i + 1] === "*") {
      const close = s.indexOf("*/", i + 2);
      if (close < 0) return undefined;
      i = close + 1;
      continue;
    }
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth--;
    else if (c === ")") {
      if (depth === 0) {
        const last = s.slice(from, i).trim();
        if (last !== "" || args.length > 0) args.push(last);
        return { args, end: i };
      }
      depth--;
    } else if (c === "," && depth === 0) {
      args.push(s.slice(from, i).trim());
      from = i + 1;
    }
  }
  return undefined;
}

/** Index of the closing quote of the string that opens at `i` (backslash escapes skipped). */
function skipString(s: string, i: number): number {
  for (let j = i + 1; j < s.length; j++) {
    if (s[j] === "\\") j++;
    else if (s[j] === '"') return j;
  }
  return s.length;
}

/** Index of the `>` that closes the `-y` decoration opening at `i` (strace escapes `>` inside it). */
function skipDecoration(s: string, i: number): number {
  let depth = 0;
  for (let j = i; j < s.length; j++) {
    if (s[j] === "\\") j++;
    else if (s[j] === "<") depth++;
    else if (s[j] === ">" && --depth === 0) return j;
  }
  return s.length;
}

/** ` = 3</path>`, ` = -1 EACCES (Permission denied)`, ` = 2 /* 15556 in strace's PID NS *\/`, ` = ?`. */
function parseReturn(s: string): StraceCall["ret"] | undefined {
  const m = /^ += (-?\d+|0x[0-9a-f]+|\?)/.exec(s);
  if (!m?.[1]) return undefined;
  let rest = s.slice(m[0].length);
  let fdPath: string | undefined;
  if (rest.startsWith("<")) {
    const end = skipDecoration(rest, 0);
    fdPath = decodeEscapes(rest.slice(1, end));
    rest = rest.slice(end + 1);
  }
  const errno = /^ (E[A-Z0-9]+) \(/.exec(rest)?.[1];
  const host = /\/\* (\d+) in strace's PID NS \*\//.exec(rest)?.[1];
  return { value: m[1], ...(fdPath !== undefined ? { path: fdPath } : {}), ...(errno ? { errno } : {}), ...(host ? { hostPid: Number(host) } : {}) };
}

/** A quoted string argument's text (C escapes decoded as UTF-8 bytes), and whether strace cut it (`"…"...`). */
export function decodeString(raw: string): { text: string; cut: boolean } | undefined {
  const s = raw.trim();
  if (!s.startsWith('"')) return undefined;
  const close = skipString(s, 0);
  if (close >= s.length) return undefined;
  return { text: decodeEscapes(s.slice(1, close)), cut: s.slice(close + 1).startsWith("...") };
}

const SIMPLE: Record<string, number> = { n: 10, t: 9, r: 13, v: 11, f: 12, a: 7, b: 8, e: 27 };

/** strace's C escapes (`\n`, `\"`, `\x41`, `\303\251`) to text, decoding the bytes as UTF-8. */
export function decodeEscapes(s: string): string {
  if (!s.includes("\\")) return s;
  const bytes: number[] = [];
  const enc = new TextEncoder();
  for (let i = 0; i < s.length; i++) {
    const c = s[i] ?? "";
    if (c !== "\\") {
      const cp = s.codePointAt(i) ?? 0;
      const ch = String.fromCodePoint(cp);
      bytes.push(...enc.encode(ch));
      i += ch.length - 1;
      continue;
    }
    const n = s[i + 1];
    if (n === undefined) break;
    const simple = SIMPLE[n];
    if (simple !== undefined) {
      bytes.push(simple);
      i++;
    } else if (n === "x" && /^[0-9a-fA-F]{2}$/.test(s.slice(i + 2, i + 4))) {
      bytes.push(parseInt(s.slice(i + 2, i + 4), 16));
      i += 3;
    } else if (/[0-7]/.test(n)) {
      const oct = /^[0-7]{1,3}/.exec(s.slice(i + 1))?.[0] ?? "0";
      bytes.push(parseInt(oct, 8) & 0xff);
      i += oct.length;
    } else {
      bytes.push(...enc.encode(n));
      i++;
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** The path a `-y` decorated fd argument names (`3</work/a>`, `AT_FDCWD</work>`), if any. */
export function fdPath(raw: string): string | undefined {
  const i = raw.indexOf("<");
  if (i < 0 || !raw.endsWith(">")) return undefined;
  return decodeEscapes(raw.slice(i + 1, -1));
}

/** The strings of an `["a", "b"...]` array argument, and whether strace cut any of them or the list. */
export function decodeArray(raw: string): { items: string[]; cut: boolean } | undefined {
  const s = raw.trim();
  if (!s.startsWith("[")) return undefined;
  const items: string[] = [];
  let cut = false;
  for (let i = 1; i < s.length; i++) {
    if (s[i] === '"') {
      const close = skipString(s, i);
      items.push(decodeEscapes(s.slice(i + 1, close)));
      if (s.slice(close + 1).startsWith("...")) cut = true;
      i = close;
    } else if (s[i] === "]") {
      if (s.slice(i + 1).startsWith("...")) cut = true;
      break;
    }
  }
  return { items, cut };
}
