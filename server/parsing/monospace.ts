/**
 * Fixed-pitch font families by name: code listings are set in them. Read from a PDF font's name (TeX's typewriter
 * fonts among them, whose descriptors do not say fixed pitch) and from a Word run's font.
 */
const MONOSPACE_NAME =
  /courier|mono|consol|menlo|typewriter|nimbusmon|cmtt|fixedsys|inconsolata|monaco|sourcecode|source code|firacode|fira code|cascadia|sftt|txtt|pcrr|andale|lettergothic|letter gothic|cousine|lucida console/i;

export const isMonospaceFont = (name: string): boolean => MONOSPACE_NAME.test(name);
