/**
 * The command a Codex `command_execution` item ran, as the model wrote it: Codex reports
 * `/bin/bash -lc 'rm -rf build'`, and the checks (and the shell classifier) want `rm -rf build`.
 */

/** Split a POSIX shell line into words ('…', "…" with \-escapes, bare \-escapes); undefined when it doesn't parse. */
export function splitShellWords(line: string): string[] | undefined {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) return undefined;
      word += line.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === "\\" && j + 1 < line.length && '"\\$`\n'.includes(line.charAt(j + 1))) j++;
        word += line[j];
      }
      if (j >= line.length) return undefined;
      inWord = true;
      i = j;
    } else if (c === "\\") {
      if (i + 1 >= line.length) return undefined;
      word += line[++i];
      inWord = true;
    } else if (c === " " || c === "\t" || c === "\n") {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

const SHELL = /^(?:\/(?:usr\/)?bin\/)?(?:ba|z|da)?sh$/;

/** `/bin/bash -lc '<script>'` → `<script>`; anything else is returned as it is. */
export function unwrapShellCommand(command: string): string {
  const [shell, flag, script, ...rest] = splitShellWords(command.trim()) ?? [];
  if (shell !== undefined && flag !== undefined && script !== undefined && rest.length === 0 && SHELL.test(shell) && /^-l?c$/.test(flag)) return script;
  return command;
}
