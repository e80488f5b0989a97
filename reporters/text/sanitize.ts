/**
 * Agent text goes into terminals, XML and HTML: strip what would corrupt them (ANSI escapes,
 * characters XML 1.0 forbids) before a reporter writes it.
 */
import { stripVTControlCharacters } from "node:util";
import { requireString } from "../../src/errors/arguments.js";

// Everything outside XML 1.0's Char production; with the `u` flag lone surrogates match too.
const NOT_XML_CHAR = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Remove ANSI colour and cursor escapes (agents' tool results are often coloured). */
export function stripAnsi(text: string): string {
  requireString("stripAnsi", "text", text);
  return stripVTControlCharacters(text);
}

/** Text safe for an XML document: ANSI stripped, forbidden characters (NUL, lone surrogates, …) dropped. */
export function xmlSafe(text: string): string {
  requireString("xmlSafe", "text", text);
  return stripAnsi(text).replace(NOT_XML_CHAR, "");
}

/** Escape for HTML text and attribute values. */
export function escapeHtml(text: string): string {
  requireString("escapeHtml", "text", text);
  return xmlSafe(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);
}

/** First line of `text`, cut to `max` characters with an ellipsis. */
export function firstLine(text: string, max = 100): string {
  const line = stripAnsi(text).split("\n").find((l) => l.trim() !== "") ?? "";
  const trimmed = line.trim();
  return trimmed.length > max ? `${trimmed.slice(0, max - 1)}…` : trimmed;
}
