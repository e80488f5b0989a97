/**
 * Seeds the differential fuzzer (and the reading of the tools' sources behind it) found: each a
 * command the classifier once called read-only that has an effect when the real tool runs it.
 * test/fuzz/differential.test.ts checks that every row is still refused AND still shows its
 * effect under the observer (so a row cannot rot into one that proves nothing).
 */
export interface Seed {
  readonly command: string;
  /** Run with POSIXLY_CORRECT=1 in the environment. */
  readonly posix?: boolean;
  /** What the tool does that the classifier missed. */
  readonly why: string;
}

export const SEEDS: readonly Seed[] = [
  { command: "xxd -ps in out", why: "xxd matches `-ps` by its first two letters (-p); read as -p -s, -s took `in` and hid the output operand" },
  { command: "xxd -postscript in out", why: "any word starting -p is -p" },
  { command: "xxd in -u", why: "xxd reads no option after its input: `-u` is the output file" },
  { command: "uniq -- two/*", why: "a glob after `--` expands to two operands: the second is uniq's output" },
  { command: "uniq two/{a,b}", why: "brace expansion adds the output operand" },
  { command: "xxd -- two/*", why: "a glob after `--` adds xxd's output operand" },
  { command: "sed -e 'w out' --version", why: "sed compiles -e scripts (opening `w` files) before --version exits" },
  { command: "sed -e 'w out' --help", why: "the same for --help" },
  { command: "sed -e 'w out' --sandbox in", why: "--sandbox covers only scripts compiled after it" },
  { command: "sed 'w out' --sandbox in", posix: true, why: "under POSIXLY_CORRECT --sandbox after the script is a file name" },
  { command: "sed 'w out' -e p in", posix: true, why: "under POSIXLY_CORRECT `-e p` are files and `w out` is the script" },
  { command: "echo | xargs --show-limits touch out", why: "--show-limits prints the limits and then runs the command" },
  { command: "unzip x.zip -l", why: "unzip reads no option after the archive: `-l` is the name of a member to extract" },
  { command: "unzip -l x.zip; unzip x.zip zipped", why: "a member name after the archive extracts it" },
  { command: "uniq x.zip --unique", posix: true, why: "uniq stops reading options after its first file under POSIXLY_CORRECT, though its getopt string asks for operands in order: `--unique` is the output file (found by the fuzzer, seed 7)" },
  { command: "echo -o out in | xargs '-I{}' -L1 sort", why: "a later -L cancels xargs's --replace, so the items are appended after all: `sort -o out in` (found by the fuzzer, seed 99)" },
  { command: "npm ls", why: "npm writes a debug log and an update-check stamp under ~/.npm on every run" },
  { command: "npm root", why: "the same for npm root" },
];
