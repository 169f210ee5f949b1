// Which characters free text from outside may hold (referenciaExterna, a webhook URL,
// a client id, the customer's data). Refused, and documented in the guide:
// - ill-formed UTF-16 (a lone surrogate, such as JSON's "\ud800"): PostgreSQL would
//   store U+FFFD instead, so the value read back would differ from the value sent,
//   and two different inputs would compare equal after storage;
// - control characters (C0, DEL, C1: NUL cannot be stored in PostgreSQL text at all);
// - line and paragraph separators (U+2028, U+2029), which break lines in logs and pages;
// - bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069),
//   which make a text display as something else ("Trojan Source", CVE-2021-42574).
// Every other character is accepted, emoji and their joiners included.
const REFUSED = /[\p{Cc}\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** True when the text is well-formed and holds none of the refused characters. */
export function isCleanText(text: string): boolean {
  return text.isWellFormed() && !REFUSED.test(text);
}

/** The sentence the guide and error messages use for the rule above. */
export const CLEAN_TEXT_RULE =
  'sem caracteres de controle, separadores de linha, controles de direção de texto ou UTF-16 malformado';
