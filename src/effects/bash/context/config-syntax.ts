/**
 * Git's configuration file syntax, parsed the way git's own `config.c` parses it: sections
 * (`[core]`, `[diff "x"]`, the old `[section.sub]`), case-insensitive section and key names,
 * case-sensitive subsections, values with quotes, the escapes `\n \t \b \\ \"`, line
 * continuations and `#`/`;` comments. Anything git would reject is an error here too, so a file
 * that git reads differently from proctor never passes as harmless.
 */

/** One `key = value` line of a configuration file. */
export interface ConfigEntry {
  /** Section name, lowercased (`diff`). */
  readonly section: string;
  /** Subsection as written (`[diff "Foo"]` → `Foo`); absent for `[core]`. */
  readonly subsection?: string;
  /** Key name, lowercased (`textconv`). */
  readonly name: string;
  /** The value; `undefined` for a bare `key` line, which git reads as boolean true. */
  readonly value?: string;
  /** Where it came from, for messages: `file:line`, or the environment variable. */
  readonly origin: string;
}

/** The result of parsing: every entry, or the first syntax error with its line. */
export type ParsedConfig = { readonly entries: ConfigEntry[] } | { readonly error: string };

const isAlpha = (c: string) => /^[A-Za-z]$/.test(c);
const isKeyChar = (c: string) => /^[A-Za-z0-9-]$/.test(c);
const isSpace = (c: string) => c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\v" || c === "\f";

/** The full dotted name git prints for an entry (`diff.Foo.textconv`). */
export function entryKey(entry: Pick<ConfigEntry, "section" | "subsection" | "name">): string {
  if (entry.section === "") return entry.name; // a key before any section, as git prints it
  return entry.subsection === undefined ? `${entry.section}.${entry.name}` : `${entry.section}.${entry.subsection}.${entry.name}`;
}

/**
 * Split a dotted key given on the command line or in the environment (`diff.a.b.textconv`):
 * the section is before the first dot, the name after the last, the subsection in between.
 */
export function splitKey(key: string, origin: string): ConfigEntry | undefined {
  const first = key.indexOf(".");
  const last = key.lastIndexOf(".");
  if (first <= 0 || last === key.length - 1) return undefined;
  const section = key.slice(0, first).toLowerCase();
  const name = key.slice(last + 1).toLowerCase();
  return first === last ? { section, name, origin } : { section, subsection: key.slice(first + 1, last), name, origin };
}

/** Parse the text of one configuration file; `file` names it in origins and errors. */
export function parseConfig(text: string, file: string): ParsedConfig {
  const src = text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  let i = 0;
  let line = 1;
  /** The line of the character read last, for messages. */
  let at = 1;
  /** git's get_next_char: end of input reads as a newline. */
  const next = (): string => {
    at = line;
    if (i >= src.length) {
      i++;
      return "\n";
    }
    const c = src.charAt(i++);
    if (c === "\n") line++;
    return c;
  };
  const eof = () => i > src.length;
  const fail = (what: string): ParsedConfig => ({ error: `${file}:${at}: ${what}` });

  const entries: ConfigEntry[] = [];
  let section: string | undefined;
  let subsection: string | undefined;
  let comment = false;

  for (;;) {
    if (i >= src.length) return { entries };
    const c = next();
    if (c === "\n") {
      comment = false;
      continue;
    }
    if (comment || isSpace(c)) continue;
    if (c === "#" || c === ";") {
      comment = true;
      continue;
    }
    if (c === "[") {
      // get_base_var / get_extended_base_var
      let base = "";
      let sub: string | undefined;
      for (;;) {
        const d = next();
        if (eof() || d === "\n") return fail("unterminated section header");
        if (d === "]") break;
        if (isSpace(d)) {
          let e = next();
          while (isSpace(e) && e !== "\n") e = next();
          if (e !== '"') return fail(`bad section header: expected a quoted subsection after [${base}`);
          sub = "";
          for (;;) {
            let f = next();
            if (f === "\n") return fail("unterminated subsection name");
            if (f === '"') break;
            if (f === "\\") {
              f = next();
              if (f === "\n") return fail("unterminated subsection name");
            }
            sub += f;
          }
          if (next() !== "]") return fail("bad section header: expected ] after the subsection");
          break;
        }
        if (!isKeyChar(d) && d !== ".") return fail(`bad character ${JSON.stringify(d)} in a section name`);
        base += d.toLowerCase();
      }
      if (base === "") return fail("empty section name");
      if (sub === undefined && base.includes(".")) {
        // The old `[section.subsection]` form: git lowercases the whole header.
        const dot = base.indexOf(".");
        section = base.slice(0, dot);
        subsection = base.slice(dot + 1);
      } else {
        section = base;
        subsection = sub;
      }
      continue;
    }
    if (!isAlpha(c)) return fail(`bad character ${JSON.stringify(c)} where a key name starts`);
    const keyLine = line;
    let name = c.toLowerCase();
    let d = next();
    while (isKeyChar(d)) {
      name += d.toLowerCase();
      d = next();
    }
    while (d === " " || d === "\t") d = next();
    let value: string | undefined;
    if (d !== "\n") {
      if (d !== "=") return fail(`bad key line: expected = after ${name}`);
      // parse_value
      let out = "";
      let quote = false;
      let inComment = false;
      let spaces = 0;
      for (;;) {
        let e = next();
        if (e === "\n") {
          if (quote) return fail(`unterminated quoted value of ${name}`);
          break;
        }
        if (inComment) continue;
        if (isSpace(e) && !quote) {
          if (out.length > 0) spaces++;
          continue;
        }
        if (!quote && (e === ";" || e === "#")) {
          inComment = true;
          continue;
        }
        out += " ".repeat(spaces);
        spaces = 0;
        if (e === "\\") {
          e = next();
          if (e === "\n") continue; // a continuation (git accepts one at the end of the file too)
          const escaped: Record<string, string> = { t: "\t", b: "\b", n: "\n", "\\": "\\", '"': '"' };
          if (escaped[e] === undefined) return fail(`bad escape \\${e} in the value of ${name}`);
          out += escaped[e];
          continue;
        }
        if (e === '"') {
          quote = !quote;
          continue;
        }
        out += e;
      }
      value = out;
    }
    // git accepts a key before any section; no such key can name a program, but keep it visible.
    entries.push({ section: section ?? "", ...(subsection === undefined ? {} : { subsection }), name, ...(value === undefined ? {} : { value }), origin: `${file}:${keyLine}` });
  }
}

/**
 * Parse `GIT_CONFIG_PARAMETERS` (what `git -c` hands to child processes): single-quoted words
 * `'key'='value'` or `'key=value'`, separated by blanks, with `'\''` for a quote.
 */
export function parseConfigParameters(text: string): ConfigEntry[] | undefined {
  let i = 0;
  const quoted = (): string | undefined => {
    if (text[i] !== "'") return undefined;
    let out = "";
    i++;
    for (;;) {
      if (i >= text.length) return undefined;
      const c = text[i++];
      if (c !== "'") {
        out += c;
        continue;
      }
      if (text.startsWith("\\''", i)) {
        out += "'";
        i += 3;
        continue;
      }
      return out;
    }
  };
  const entries: ConfigEntry[] = [];
  while (i < text.length) {
    if (isSpace(text.charAt(i))) {
      i++;
      continue;
    }
    const key = quoted();
    if (key === undefined) return undefined;
    let value: string | undefined;
    if (text[i] === "=") {
      i++;
      value = quoted();
      if (value === undefined) return undefined;
    }
    const eq = value === undefined ? key.indexOf("=") : -1;
    const entry = splitKey(eq === -1 ? key : key.slice(0, eq), "GIT_CONFIG_PARAMETERS");
    if (!entry) return undefined;
    const v = value ?? (eq === -1 ? undefined : key.slice(eq + 1));
    entries.push(v === undefined ? entry : { ...entry, value: v });
  }
  return entries;
}
