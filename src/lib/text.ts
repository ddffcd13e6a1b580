// Text hygiene: the one rule for every piece of text that comes from outside (client parameters today,
// remote servers with federation). Control characters never reach stored text.

// C0 controls except tab (\t) and line feed (\n), DEL and the C1 controls. A carriage return is dropped too:
// "\r\n" from a browser's textarea becomes "\n".
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/** Strips control characters (keeping tab and newline) and replaces lone surrogates with U+FFFD. */
export function cleanText(text: string): string {
  const wellFormed = text.isWellFormed() ? text : text.toWellFormed();
  return wellFormed.replace(CONTROL_CHARACTERS, "");
}
