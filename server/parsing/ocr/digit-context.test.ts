import { describe, expect, it } from "vitest";
import { fixLineGroups } from "./digit-context";

const line = (text: string) =>
  fixLineGroups(text.split(" "))
    .map((g) => g.text)
    .join(" ");

describe("digit repairs from the line's context", () => {
  it("joins an ISBN split at spaces when the joined number's check digit holds", () => {
    expect(line("ISBN 978-1-4503- 9385 -0 (print)")).toBe("ISBN 978-1-4503-9385-0 (print)");
    expect(line("ISBN 978-1-45O3-9385 -O")).toBe("ISBN 978-1-4503-9385-0");
    // A wrong check digit is not an ISBN: the parts stay apart (the trailing hyphen still joins the next part).
    expect(line("ISBN 978-1-4503- 9385 -1")).toBe("ISBN 978-1-4503-9385 -1");
    // An ISBN-10 followed by a number is not made a longer one.
    expect(line("ISBN 0-306-40615-2 123")).toBe("ISBN 0-306-40615-2 123");
  });

  it("reads the ISBN label through look-alikes when a valid ISBN follows", () => {
    expect(line("lSBN 978-3-16-148410-0")).toBe("ISBN 978-3-16-148410-0");
    expect(line("BBN: 978-3-l6-l484lO-O")).toBe("ISBN: 978-3-16-148410-0");
    expect(line("IS BN 0-306-40615-2 and")).toBe("ISBN 0-306-40615-2 and");
    // Not before a number that fails its check digit, and ISSN is its own label.
    expect(line("BBN 978-3-16-148410-1")).toBe("BBN 978-3-16-148410-1");
    expect(line("ISSN 0-306-40615-2")).toBe("ISSN 0-306-40615-2");
    expect(line("IS BN is")).toBe("IS BN is");
  });

  it("joins dates, ranges and DOIs that came apart after their separator", () => {
    expect(line("due 2026-01- 31 at")).toBe("due 2026-01-31 at");
    expect(line("pp. 1021- 1033 (2019)")).toBe("pp. 1021-1033 (2019)");
    expect(line("ordered on 12.05. 2023.")).toBe("ordered on 12.05.2023.");
    expect(line("doi:10.1145/ 3397271.3401075 and")).toBe("doi:10.1145/3397271.3401075 and");
    expect(line("DOl 10.1038/nature12373")).toBe("DOI 10.1038/nature12373");
    expect(line("rose to $1,204, 330.75 while")).toBe("rose to $1,204,330.75 while");
  });

  it("keeps numbers that only stand side by side apart", () => {
    for (const text of [
      "values 12.5 -3.2 and 4",
      "pages 10 - 20 of 30",
      "in 12. 2023 was",
      "items 1, 204, 305",
      "scores 1,204, and 330",
      "see 10.1145/ and more",
    ]) {
      expect(line(text)).toBe(text);
    }
  });

  it("reads look-alike tokens as figures in a row of figures only", () => {
    expect(line("2019 lO 19.99 SO")).toBe("2019 10 19.99 50");
    expect(line("2O2O l,25O BB 3")).toBe("2020 1,250 88 3");
    // Among words, or with fewer figures than other tokens, they stay.
    expect(line("SO 2019 was the year lO")).toBe("SO 2019 was the year lO");
    expect(line("IO SO BB 12")).toBe("IO SO BB 12");
  });

  it("keeps the tokens' positions: each group names the words it was made of", () => {
    expect(fixLineGroups(["pp.", "1021-", "1033"])).toEqual([
      { from: 0, to: 0, text: "pp." },
      { from: 1, to: 2, text: "1021-1033" },
    ]);
  });
});

describe("rulings and doubled dashes read into numbers", () => {
  it("drops a table ruling read at a number's edge and splits two cells read as one token", () => {
    expect(line("247| 64 |90")).toBe("247 64 90");
    expect(line("247|NO 64」YES 59「")).toBe("247 NO 64 YES 59");
    // A citation bracket read as a bar stays digits.ts's repair; a bar between words is not a number's.
    expect(line("see |38] and P(a|b) NO|12")).toBe("see [38] and P(a|b) NO 12");
    expect(line("cat | dog")).toBe("cat | dog");
  });

  it("reads a hyphen read twice next to a digit as one", () => {
    expect(line("2019-NM-035\u2014-AD Fax:202\u2014-493-2251.")).toBe("2019-NM-035-AD Fax:202-493-2251.");
    expect(line("[AD\u2014-2019-NM-035\u2014-AD]")).toBe("[AD-2019-NM-035-AD]");
    expect(line("word\u2014-word and 10\u201420")).toBe("word\u2014-word and 10\u201420");
  });
});
