/**
 * sed and awk carry programs of their own, and both languages can write files or run commands
 * (`sed 's/a/b/w out'`, `sed e`, awk's `system()` and `print > file`). Their programs are read
 * here conservatively: read-only only when nothing in them can write or execute.
 */
import { scanOptions } from "./options.js";
import { readOnly, sideEffecting, undecidable, type Arg, type BashVerdict } from "./verdict.js";

/** sed commands that only read, print or edit the pattern/hold space. */
const SED_PLAIN = new Set("=dDgGhHlnNpPqQxzF".split(""));

/** Scan one sed script; `undefined` when it only reads. */
export function sedScriptProblem(script: string): BashVerdict | undefined {
  let i = 0;
  const n = script.length;
  const skipBlank = () => {
    while (i < n && /[ \t]/.test(script[i])) i++;
  };
  const toLineEnd = () => {
    while (i < n && script[i] !== "\n") i++;
  };
  /** Read a delimited part (`/regex/`), honouring backslash escapes; false when unterminated. */
  const delimited = (delim: string): boolean => {
    while (i < n && script[i] !== delim) {
      if (script[i] === "\\") i++;
      else if (script[i] === "\n") return false;
      i++;
    }
    if (i >= n) return false;
    i++;
    return true;
  };
  const address = (): boolean => {
    skipBlank();
    if (/[0-9]/.test(script[i] ?? "")) {
      while (i < n && /[0-9~]/.test(script[i])) i++;
      return true;
    }
    if (script[i] === "$") {
      i++;
      return true;
    }
    if (script[i] === "/" || script[i] === "\\") {
      if (script[i] === "\\") i++;
      const d = script[i++];
      if (d === undefined || !delimited(d)) return false;
      while (i < n && /[IM]/.test(script[i])) i++;
      return true;
    }
    return true; // no address
  };
  while (i < n) {
    skipBlank();
    const c = script[i];
    if (c === undefined) break;
    if (c === "\n" || c === ";" || c === "}" || c === "{") {
      i++;
      continue;
    }
    if (c === "#") {
      toLineEnd();
      continue;
    }
    if (!address()) return undecidable("the sed script does not parse");
    skipBlank();
    if (script[i] === ",") {
      i++;
      skipBlank();
      if (script[i] === "+" || script[i] === "~") i++;
      if (!address()) return undecidable("the sed script does not parse");
      skipBlank();
    }
    while (script[i] === "!" || script[i] === " ") i++;
    const cmd = script[i++];
    if (cmd === undefined) break;
    if (cmd === "{" || cmd === "}") continue;
    if (SED_PLAIN.has(cmd)) {
      if (cmd === "l" || cmd === "q" || cmd === "Q") while (i < n && /[ 0-9]/.test(script[i])) i++;
      continue;
    }
    if (cmd === "s" || cmd === "y") {
      const d = script[i++];
      if (d === undefined || d === "\n" || d === "\\") return undecidable("the sed script does not parse");
      if (!delimited(d) || !delimited(d)) return undecidable("the sed script does not parse");
      if (cmd === "y") continue;
      while (i < n && /[gpiImM0-9]/.test(script[i])) i++;
      if (script[i] === "w") return sideEffecting("the sed script writes a file (`s///w`)");
      if (script[i] === "e") return undecidable("the sed script runs a command (`s///e`)");
      continue;
    }
    if (cmd === "a" || cmd === "i" || cmd === "c") {
      toLineEnd(); // text to print
      continue;
    }
    if (cmd === ":" || cmd === "b" || cmd === "t" || cmd === "T") {
      while (i < n && script[i] !== "\n" && script[i] !== ";") i++;
      continue;
    }
    if (cmd === "r" || cmd === "R" || cmd === "v") {
      toLineEnd(); // reads a file / checks a version
      continue;
    }
    if (cmd === "w" || cmd === "W") return sideEffecting(`the sed script writes a file (\`${cmd}\`)`);
    if (cmd === "e") return undecidable("the sed script runs a command (`e`)");
    return undecidable(`the sed script uses \`${cmd}\`, which proctor does not read`);
  }
  return undefined;
}

/** `sed`: read-only without -i and with scripts that neither write nor execute. */
export function classifySed(args: readonly Arg[]): BashVerdict {
  const scripts: Arg[] = [];
  const operands: Arg[] = [];
  let sandbox = false;
  let endOfOptions = false;
  const long = (name: string, full: string) => name.length > 0 && full.startsWith(name);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const v = arg.value;
    if (endOfOptions || (v !== undefined && (v.length < 2 || !v.startsWith("-")))) {
      operands.push(arg);
      continue;
    }
    if (v === undefined) return undecidable(`\`sed\` gets the argument ${arg.text}, computed at run time, where it could be an option`);
    if (v === "--") {
      endOfOptions = true;
      continue;
    }
    if (v.startsWith("--")) {
      const eq = v.indexOf("=");
      const name = v.slice(2, eq === -1 ? undefined : eq);
      if (long(name, "in-place")) return sideEffecting("`sed --in-place` rewrites its input files");
      if (long(name, "file")) return undecidable("`sed --file` reads its script from a file proctor cannot see");
      if (long(name, "sandbox")) sandbox = true;
      if (long(name, "expression")) {
        if (eq !== -1) scripts.push({ value: v.slice(eq + 1), text: arg.text });
        else if (args[i + 1]) scripts.push(args[++i]);
      } else if (long(name, "line-length") && eq === -1) i++;
      continue;
    }
    for (let j = 1; j < v.length; j++) {
      const c = v[j];
      if (c === "i") return sideEffecting("`sed -i` rewrites its input files");
      if (c === "f") return undecidable("`sed -f` reads its script from a file proctor cannot see");
      if (c === "e" || c === "l") {
        const rest = v.slice(j + 1);
        const value = rest !== "" ? { value: rest, text: arg.text } : args[++i];
        if (c === "e" && value) scripts.push(value);
        break;
      }
    }
  }
  if (scripts.length === 0) {
    if (operands.length === 0) return readOnly("sed without a script");
    scripts.push(operands[0]);
  }
  for (const script of scripts) {
    if (script.value === undefined) return undecidable(`the sed script ${script.text} is computed at run time`);
    const problem = sedScriptProblem(script.value);
    if (problem && !sandbox) return problem;
  }
  return readOnly("sed prints only");
}

/**
 * `awk` / `gawk` / `mawk`: read-only when the program is fixed text with no `system`, no output
 * redirection (`>`; `>=` is fine), no pipe (`|`; `||` is fine) and no indirect call (`@`).
 */
export function classifyAwk(command: string, args: readonly Arg[]): BashVerdict {
  const scan = scanOptions(command, args, {
    short: { i: "runs", l: "runs", f: "runs", E: "runs", p: "writes", d: "writes", o: "writes", D: "runs" },
    long: { include: "runs", load: "runs", file: "runs", exec: "runs", profile: "writes", "dump-variables": "writes", "pretty-print": "writes", debug: "runs" },
    shortValued: "Fv",
    longValued: ["field-separator", "assign"],
  });
  if (scan.verdict) return scan.verdict;
  const program = scan.operands[0];
  if (!program) return readOnly(`${command} without a program`);
  if (program.value === undefined) return undecidable(`the ${command} program ${program.text} is computed at run time`);
  const text = program.value;
  if (/\bsystem\s*\(/.test(text) || /\bsystem\b/.test(text)) return undecidable(`the ${command} program calls system()`);
  if (/\|(?!\|)/.test(text.replace(/\|\|/g, ""))) return undecidable(`the ${command} program pipes to or from a command (\`|\`)`);
  if (/>(?!=)/.test(text)) return sideEffecting(`the ${command} program may write a file (\`>\`)`);
  if (text.includes("@")) return undecidable(`the ${command} program makes an indirect call (\`@\`)`);
  if (/\/inet[46]?\//.test(text)) return sideEffecting(`the ${command} program opens a network connection (\`/inet/…\`)`);
  return readOnly(`${command} prints only`);
}
