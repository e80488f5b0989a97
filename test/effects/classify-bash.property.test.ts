/**
 * Soundness as a property: however read-only pieces are combined with a write redirection or a
 * mutating command — through lists, pipes, subshells, groups, substitutions, quoting — the whole
 * is never read-only. And usefulness: read-only pieces combined the same way stay read-only.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyBash } from "../../src/safety.js";

const READ = ["ls -la", "cat f", "git status", "git log --oneline -3", "grep -n foo f", "echo hi", "wc -l f", "head -n 2 f", "rg foo", "sort f", "find . -name x", "sed -n 1p f", "pwd", "test -f f", "git diff --stat", "jq . f"];

/** Mutating commands, some spelled to dodge a naive reader (quotes, escapes, paths, prefixes). */
const MUTATE = [
  "rm -rf x", "'rm' x", "r\"\"m x", "\\rm x", "/bin/rm x", "touch f", "mv a b", "cp a b", "mkdir d", "chmod +x f",
  "git commit -m x", "git push", "git branch -D x", "git tag -d v", "git config k v", "git diff --output=o",
  "git log --outp=o", "sed -i s/a/b/ f", "sed '-i' s/a/b/ f", "sed --in-pl s/a/b/ f", "sed -n 'w o' f",
  "sort -o out f", "sort --outp=o f", "tee out", "find . -delete", "find . '-delete'", "find . -fprint o",
  "date -s now", "uniq a b", "tree -o o", "npm install", "./run.sh", "curl x", "awk '{print > \"o\"}' f",
];

const REDIRECT = ["> f", ">> f", ">| f", "&> f", "&>> f", "2> f", "1> f", ">& f", '> "$f"', "> $(echo f)", ">'o'"];
const JOIN = [" ; ", " && ", " || ", " | ", "\n", " |& "];

type Piece = { text: string; poisoned: boolean };

const readPiece: fc.Arbitrary<Piece> = fc.constantFrom(...READ).map((text) => ({ text, poisoned: false }));
const poisonPiece: fc.Arbitrary<Piece> = fc.oneof(
  fc.constantFrom(...MUTATE).map((text) => ({ text, poisoned: true })),
  fc.tuple(fc.constantFrom(...READ), fc.constantFrom(...REDIRECT)).map(([c, r]) => ({ text: `${c} ${r}`, poisoned: true })),
);

/** Wrap a piece in a construct that still runs it. */
function wrap(piece: Piece, how: number): Piece {
  switch (how) {
    case 1:
      return { ...piece, text: `(${piece.text})` };
    case 2:
      return { ...piece, text: `{ ${piece.text}; }` };
    case 3:
      return { ...piece, text: `echo $(${piece.text})` };
    case 4:
      return { ...piece, text: `ls "$(${piece.text})"` };
    case 5:
      return { ...piece, text: `! ${piece.text}` };
    case 6:
      return { ...piece, text: `cat <<EOF\n$(${piece.text})\nEOF` };
    default:
      return piece;
  }
}

/**
 * tree-sitter-bash 0.25 misreads some line breaks inside pipelines (`a | b | c\nd || e` joins `c`
 * and `d`); the classifier detects that and refuses (undecidable), so the usefulness property
 * keeps to one line.
 */
const SAFE_JOIN = [" ; ", " && ", " || ", " | "];

/**
 * A here-document ends only at a line holding nothing but its delimiter, so after wrap 6 Bash
 * reads the rest of the line (`EOF ; ls`) as more body, and the classifier rightly refuses a
 * here-document that never ends; the usefulness property leaves that wrap out.
 */
const line = (pieces: fc.Arbitrary<Piece[]>, joins = JOIN, maxWrap = 6) =>
  fc
    .tuple(pieces, fc.array(fc.constantFrom(...joins), { minLength: 8, maxLength: 8 }), fc.array(fc.integer({ min: 0, max: maxWrap }), { minLength: 8, maxLength: 8 }))
    .map(([ps, joins, wraps]) => {
      const wrapped = ps.map((p, i) => wrap(p, wraps[i]));
      return { text: wrapped.map((p, i) => (i === 0 ? p.text : `${joins[i]}${p.text}`)).join(""), poisoned: wrapped.some((p) => p.poisoned) };
    });

describe("classifyBash properties", () => {
  it("never calls a command with a write redirection or a mutating command read-only", () => {
    const withPoison = fc
      .tuple(fc.array(readPiece, { maxLength: 4 }), poisonPiece, fc.array(readPiece, { maxLength: 3 }))
      .map(([before, poison, after]) => [...before, poison, ...after]);
    fc.assert(
      fc.property(line(withPoison), ({ text }) => {
        expect(classifyBash(text), text).not.toBe("read-only");
      }),
      { numRuns: 3000 },
    );
  });

  it("keeps combinations of read-only commands read-only", () => {
    fc.assert(
      fc.property(line(fc.array(readPiece, { minLength: 1, maxLength: 5 }), SAFE_JOIN, 5), ({ text }) => {
        expect(classifyBash(text), text).toBe("read-only");
      }),
      { numRuns: 1000 },
    );
  });
});
