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

// A name shown to a person must name someone: at least one letter or digit that is drawn.
// Text made only of blanks passes isCleanText (U+2800 braille blank, U+3164 hangul filler,
// U+200B, the Unicode spaces…), and a few of those blanks are letters (Lo): the Hangul
// fillers U+115F, U+1160, U+3164 and U+FFA0. Like every invisible format character they
// are Default_Ignorable_Code_Point, which is what sets them apart from letters that show.
const VISIBLE_LETTER_OR_DIGIT = /[[\p{L}\p{N}]--\p{Default_Ignorable_Code_Point}]/v;

/** True when the text holds at least one letter or digit that renders (not a blank filler). */
export function hasVisibleLetterOrDigit(text: string): boolean {
  return VISIBLE_LETTER_OR_DIGIT.test(text);
}

/** The sentence error messages and the guide use for the rule above. */
export const VISIBLE_TEXT_RULE = 'com ao menos uma letra ou um dígito visível';
