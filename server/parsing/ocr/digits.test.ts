import { describe, expect, it } from "vitest";
import { fixDigitsInText, fixLine, fixToken, isValidIsbn } from "./digits";

describe("digit look-alikes", () => {
  it("reads letters inside numbers as digits", () => {
    expect(fixToken("2O21")).toBe("2021");
    expect(fixToken("1,O00")).toBe("1,000");
    expect(fixToken("3.l4")).toBe("3.14");
    expect(fixToken("1B5")).toBe("185");
    expect(fixToken("4Z.5%")).toBe("42.5%");
  });

  it("reads dates, times and ranges", () => {
    expect(fixToken("2O21-O3-l5")).toBe("2021-03-15");
    expect(fixToken("l2/O5/1999")).toBe("12/05/1999");
    expect(fixToken("1O:3O")).toBe("10:30");
    expect(fixToken("9-l9")).toBe("9-19");
  });

  it("leaves words, units and labels alone", () => {
    for (const word of [
      "100234-B7",
      "SOS",
      "Bob",
      "I",
      "lO",
      "5G",
      "1990s",
      "3A",
      "B1",
      "Table",
      "COVID-19",
      "H2O",
      "x86",
    ]) {
      expect(fixToken(word)).toBe(word);
    }
  });

  it("repairs an ISBN by its check digit, only when the line names one", () => {
    expect(isValidIsbn("978-3-16-148410-0")).toBe(true);
    expect(isValidIsbn("978-3-16-148410-1")).toBe(false);
    expect(isValidIsbn("0-306-40615-2")).toBe(true);
    expect(fixLine(["ISBN", "978-3-l6-l484lO-O"])).toEqual(["ISBN", "978-3-16-148410-0"]);
    expect(fixLine(["ISBN:", "O-3O6-4O6l5-2"])).toEqual(["ISBN:", "0-306-40615-2"]);
    // Without the label, a token with fewer digits than letters is not taken for a number.
    expect(fixLine(["see", "O-3O6-4O6l5-Z"])).toEqual(["see", "O-3O6-4O6l5-Z"]);
  });

  it("repairs a DOI prefix and keeps its suffix as read", () => {
    expect(fixToken("doi:1O.1O38/nature12373")).toBe("doi:10.1038/nature12373");
    expect(fixToken("l0.1145/SIGIR.2O20")).toBe("10.1145/SIGIR.2O20");
    expect(fixToken("https://doi.org/1O.48550/arXiv.2004.04906")).toBe("https://doi.org/10.48550/arXiv.2004.04906");
  });

  it("reads a zero inside a lower-case word as o", () => {
    expect(fixLine(["0rdered", "c0sts", "als0,", "0r", "zo0", "(Als0)", "0f"])).toEqual([
      "ordered",
      "costs",
      "also,",
      "or",
      "zoo",
      "(Also)",
      "of",
    ]);
    for (const token of ["x0", "h0", "t0", "a00", "B0", "v0.5", "10", "2020", "R0", "C0VID", "0x1F", "abc10"]) {
      expect(fixToken(token)).toBe(token);
    }
  });

  it("repairs a dotted version number after a v", () => {
    expect(fixToken("vl.1")).toBe("v1.1");
    expect(fixToken("SQuADvl.1")).toBe("SQuADv1.1");
    expect(fixToken("v2.O.1,")).toBe("v2.0.1,");
    for (const token of ["vl.l", "v1.1", "dev.Io", "nav.Ol"]) expect(fixToken(token)).toBe(token);
  });

  it("puts back a citation bracket read as a bar", () => {
    expect(fixLine(["PubLayNet", "|38]", "and", "[3,|", "[12-14|."])).toEqual([
      "PubLayNet",
      "[38]",
      "and",
      "[3,]",
      "[12-14].",
    ]);
    for (const token of ["|", "|a]", "[a|"]) expect(fixToken(token)).toBe(token);
  });

  it("drops a question mark read between an acronym and its number", () => {
    expect(fixLine(["Lucene-", "BM?25", "and", "TF-IDF/BM?25,"])).toEqual(["Lucene-", "BM25", "and", "TF-IDF/BM25,"]);
    for (const token of ["why?", "rings?”", "Q?", "what?2", "?25", "A?b"]) expect(fixToken(token)).toBe(token);
  });

  it("works on a whole line", () => {
    expect(fixDigitsInText("Revenue rose 1O% to $1,2O4.5O in 2O23.")).toBe("Revenue rose 10% to $1,204.50 in 2023.");
  });
});
