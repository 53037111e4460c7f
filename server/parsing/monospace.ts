/**
 * Fixed-pitch font families by name: code listings are set in them. Read from a PDF font's name (TeX's typewriter
 * fonts among them, whose descriptors do not say fixed pitch) and from a Word run's font.
 */
const MONOSPACE_NAME =
  /courier|mono|consol|menlo|typewriter|nimbusmon|cmtt|fixedsys|inconsolata|monaco|sourcecode|source code|firacode|fira code|cascadia|sftt|txtt|pcrr|andale|lettergothic|letter gothic|cousine|lucida console/i;

export const isMonospaceFont = (name: string): boolean => MONOSPACE_NAME.test(name);

/** Paragraph styles of code listings in word processors: Word's, LibreOffice's, pandoc's and the usual custom names. */
export const CODE_STYLES = [
  "Code",
  "Code Block",
  "Source Code",
  "HTML Preformatted",
  "Preformatted Text",
  "Plain Text",
  "Macro Text",
  "Listing",
];
