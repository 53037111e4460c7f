/** What a PDF font's name says of its face, where its descriptor's flags are not to be trusted. */

/**
 * Bold fonts by name, TeX's too: Computer Modern's bold extended (CMBX10), bold (CMB10), sans bold (CMSSBX10), and
 * cm-super's (SFBX1000, SFSX1000), whose names do not say "bold".
 */
export const BOLD_FONT = /bold|black|heavy|semibold|demi|(?:^|\+)(?:cmbx|cmb\d|cmssbx|sfbx|sfsx)/i;
/** Fonts of small capitals, whose letters a PDF maps to lower case: TeX's CMCSC and Latin Modern's Caps, "…-SC". */
export const SMALL_CAPS_FONT = /cmcsc|smallcaps?|smcp|romancaps|-sc$/i;
/** Italic fonts by name, URW's abbreviation ("NimbusRomNo9L-ReguItal", Times as LaTeX sets it) and TeX's CMTI too. */
export const ITALIC_FONT = /italic|oblique|slant|-It\b|ital$|^(?:[A-Z]{6}\+)?cmti\d/i;
