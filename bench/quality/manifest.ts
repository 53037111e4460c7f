/**
 * Documents of the quality bench: public test fixtures of other parsers, none of them in `../shared/corpus` and none
 * tuned on. They are not committed (their licences cover them as those projects' test files, not as ours to ship);
 * the bench reads them from a local folder laid out as `<peer>/<file>`: `QUARRY_QUALITY_DIR`, else
 * `../shared/quality`. Each entry says where the file comes from (repository, path, commit) and its sha256, so the
 * folder can be rebuilt exactly; a missing or different file is reported and skipped.
 *
 * References: `tags` = the PDF's own structure tree (headings, list items, table cells, the author's reading
 * order); `text` = pdftotext's words of the same pages (the text layer's words and numbers); `comparison` = a
 * peer's expected text (pdfplumber); `icdar` = ICDAR 2013 table ground truth (as shipped by tabula-java);
 * `unstructured` = unstructured's expected elements.
 */

export type QualityDoc = {
  file: string;
  repo: string;
  path: string;
  commit: string;
  licence: string;
  sha256: string;
  /** Reference files, relative to the quality folder. */
  comparison?: { file: string; path: string; sha256: string };
  icdar?: { file: string; path: string; sha256: string };
  unstructured?: { file: string; path: string; sha256: string };
  /** Also scored as a scan: its pages rendered to an image-only PDF, against the text layer of the original. */
  scan?: boolean;
  note: string;
};

const PDFPLUMBER = { repo: "jsvine/pdfplumber", commit: "147f2c4", licence: "MIT" };
const TABULA = { repo: "tabulapdf/tabula-java", commit: "2cdf3b4", licence: "MIT (ICDAR 2013 competition data)" };
const UNSTRUCTURED = { repo: "Unstructured-IO/unstructured", commit: "3e5482bfc", licence: "Apache-2.0" };

const plumber = (name: string, sha256: string, note: string, extra: Partial<QualityDoc> = {}): QualityDoc => ({
  ...PDFPLUMBER,
  file: `pdfplumber/${name}`,
  path: `tests/pdfs/${name}`,
  sha256,
  note,
  ...extra,
});

const ICDAR_DIR = "src/test/resources/technology/tabula/icdar2013-dataset";
const icdar = (name: string, pdfSha: string, xmlSha: string, note: string): QualityDoc => {
  const dir = `${ICDAR_DIR}/competition-dataset-${name.slice(0, 2)}`;
  return {
    ...TABULA,
    file: `tabula/${name}.pdf`,
    path: `${dir}/${name}.pdf`,
    sha256: pdfSha,
    icdar: { file: `tabula/${name}-str.xml`, path: `${dir}/${name}-str.xml`, sha256: xmlSha },
    note,
  };
};

const unstructured = (name: string, sha256: string, note: string, extra: Partial<QualityDoc> = {}): QualityDoc => ({
  ...UNSTRUCTURED,
  file: `unstructured/${name}`,
  path: `example-docs/pdf/${name}`,
  sha256,
  note,
  ...extra,
});

export const QUALITY_DOCS: QualityDoc[] = [
  plumber(
    "scotus-transcript-p1.pdf",
    "c63508c7b195e6b6c398311fb1f3a36de31f604e3ae94b486a6776f1f144b379",
    "court transcript, line numbers in the margin, tagged",
    {
      comparison: {
        file: "pdfplumber/scotus-transcript-p1.txt",
        path: "tests/comparisons/scotus-transcript-p1.txt",
        sha256: "55d81094ce6066f48f04694d88cee6d322c6dc4c5061ce47858cbb55603f4650",
      },
      scan: true,
    },
  ),
  plumber(
    "word365_structure.pdf",
    "3301c8da647514abf8fa145470bd0367daa3d8b0a1e7281f1c6850b50889ee53",
    "Word 365 export, tagged: headings, lists, a table",
  ),
  plumber(
    "pdf_structure.pdf",
    "247db629cecbb2d6c58eaac7531dfb82125608881c6433e620689c807900c64c",
    "tagged test page: headings, list, table",
  ),
  plumber(
    "2023-06-20-PV.pdf",
    "8e01f32e6a40f956aad593b0e54c5cec7684285ff4be0c7b754dce3711c67bb4",
    "French council minutes, tagged",
  ),
  plumber(
    "nics-background-checks-2015-11.pdf",
    "4f0ae6e017b0e97de211da8fd97316e55bd927af5740d6ce95e1b7b1539f9407",
    "ruled table, rotated column headers",
    { scan: true },
  ),
  plumber(
    "federal-register-2020-17221.pdf",
    "ac419e4e084ea7a7a33a7be3f129dd07bc705b1a9e45ad751e33357f17d60f5c",
    "three-column Federal Register notice",
  ),
  plumber(
    "la-precinct-bulletin-2014-p1.pdf",
    "a87eb3ca32462296ad07e6c62ab05c85527a5d7daca6f33d531eb4ae3f263b95",
    "election bulletin, form-like table",
  ),
  plumber(
    "senate-expenditures.pdf",
    "16921f0fc9b2c6039b23b694e0317917118ad7dd2b3a95a88518b7e144df527c",
    "expenditure listing, unruled columns",
  ),
  plumber(
    "issue-33-lorem-ipsum.pdf",
    "951e9ab1d5ec310429f89173357a7c9f84b08153fd7f81b5d060ed2487869f16",
    "two pages of prose",
  ),
  icdar(
    "eu-001",
    "ef7a64967276181a563e781bab46ea52dd376155ad2287c4e1303781203f91d8",
    "52f445b761148bc3999c215616b88c81f421eab121e44a3b58213f3ab67e98f1",
    "EU report, tables",
  ),
  icdar(
    "eu-002",
    "c46d1f2dcaebfe96b84d399a608b7b50bb29c6b67dfc9a2dbb5d9d5bd592795b",
    "ede6b3cd20c785c32966bba3074fe3340faf153a7d1e4ddc075e4edd3ff1b4fa",
    "EU report page, table",
  ),
  icdar(
    "eu-003",
    "dc51ec5f5b17bca82550e88505b4162b5bd4528752ef09560ddbec44751d2f39",
    "7aaa68522937cb4144a1760b27374ee93f3a5c99b7644ce24316c02b8488f437",
    "EU report page, table",
  ),
  icdar(
    "eu-004",
    "f36f2df28c4cf39a14cd814b4cb31b18d3e2a997a1c08472aa3d39b787819cf4",
    "091309d6cbf3ec0d5087f1bc192afa6434acb719c99537f0e1910b97b3d5ee9d",
    "EU study, multi-line headers",
  ),
  icdar(
    "eu-005",
    "6d96ea6972e99d17aba9e671366325aff53f485bc27c408a63173ab4c1296d9c",
    "e19df9af765e76eb508d76b7490d88749c33bc1a8b23aa30593cdcf880e17507",
    "EU statistics, tables",
  ),
  icdar(
    "eu-006",
    "be2aeede6566affd93df92875930d30ad1979e1c96b351a19ff563381f4ec2f3",
    "3d81f4b9d2a789ad54c3ca5966167eb6bead1a49cb7d34715b92da7c3087d447",
    "EU statistics, tables",
  ),
  icdar(
    "eu-007",
    "643d49e88d3a03dc7c360ab1af4d53ecfd0a409cd818aa835e84da38c55c2bef",
    "d1eabe4ef66de799b672c019a2f2bd1f23ffcd2e8fb030225af193919be9acfd",
    "EU report, tables",
  ),
  icdar(
    "eu-008",
    "582b1c5724c7dff5bd12123b01447eeff7de1b56946c7f67f1cd46dfb00c72d3",
    "764dd0de58a1c2ab9f557b9cd71b6dc518697af299c8190b9149223ff6594638",
    "EU report page, table",
  ),
  icdar(
    "us-002",
    "a1a3d580afc6313f9ffa2cfa3b9f3d0bb1406046174912cd6eb23d4f6cda8d57",
    "0892e14ffa492181218249e17f371d04a47d2248b77f4bb09292b40c321d7d92",
    "US government report, tables",
  ),
  icdar(
    "us-003",
    "e54c02e4e8cb1b6dbfeca4d47eab72ba30ab2af75b6e0916ecb21d5b67d032ed",
    "3aca5d02f9017d4e4fc25a753d353f0e0e34b0d6c8003a09c25ab969243602cf",
    "US government page, table",
  ),
  icdar(
    "us-004",
    "da6c30b2fde0104dc6cd22c0b8eab37d022d4d32faebd4f7e106c4df90fa5e70",
    "761b77953eb2f392c4ff24a713e9523ae2997be007c94d2578574271a4754118",
    "US government report, tables",
  ),
  icdar(
    "us-005",
    "81fcd5eec78b3c2e3f806a1acdb9b4d5ade72da0c77bccf0307ca43b649d035e",
    "69c576810bcf60704d3ae29ec6b1dc2fa0fa400fcc3285144674b3fd8b57d451",
    "US government page, table",
  ),
  icdar(
    "us-006",
    "eca1bd9ad82eb37cfb9982fe82b7206de01edaf2676a09baa14ffecc4fc3ecb6",
    "179df18296e68b03beeb66d7a149b1ed0b8fd3d3ce7322e31beb30c634055f2c",
    "US government report, tables",
  ),
  icdar(
    "us-008",
    "d0b4005d4a2e4f8597d0c3feb20fed9381ec45fccc77a4337b4f6f770f87065b",
    "00b8373d4ef9d53d0bc1e1c03096a0afebc8cea99ce210061481bb08003c049e",
    "US government report, tables",
  ),
  icdar(
    "us-009",
    "429b0f3ab81f71b47d42832cde44ef5e13db64fb86fd5f5237ced556f22d2789",
    "e3ac56822220e1785a2cb1ce84df105847dbcd8a67179e1d5c3142fcfd53a2de",
    "US government page, table",
  ),
  icdar(
    "us-012",
    "fcc161cc6c817f886c4d2a6c620a2edbc877131ca5dd18eadecd90654a9b8692",
    "1f2293e00d5b3c7e402128e377ffed6050a4e4628c87c92542041b01f64765b4",
    "US government page, table",
  ),
  unstructured(
    "multi-column-2p.pdf",
    "f65262032174fad010ce05bedad0989cd9a930788bb90cdbba4e89ee99891072",
    "two-column paper, two pages",
    {
      unstructured: {
        file: "unstructured/multi-column-2p.pdf.json",
        path: "test_unstructured_ingest/expected-structured-output/local-single-file-chunk-no-orig-elements/multi-column-2p.pdf.json",
        sha256: "d8e3c4c6d72ce5c85d8843124e68d10cf99865b02ff971773e63ca1819628f2b",
      },
    },
  ),
  unstructured(
    "list-item-example.pdf",
    "ce21d1a0ff660a7045a2d64f042f9049d52c207263cb06f48610ef221d5195c8",
    "numbered and bulleted lists",
  ),
  unstructured(
    "header-test-doc.pdf",
    "adf8503692538a2e367132f66e9d1ced3ca58218e5398cd2b470d375569424e5",
    "page headers and footers",
  ),
  unstructured(
    "embedded-images-tables.pdf",
    "00cf5fc3c334076f982b88d4e8f8bf1ecdf8273ce2b1de9d79f462b1c0a54e65",
    "tagged page with pictures and tables",
  ),
  unstructured("fake-memo.pdf", "f54e68281e2018cc3200626aa3cc970c63b4ff2f3afb89a4204207a66f5a2aeb", "memo, tagged"),
  unstructured(
    "pdf-with-ocr-text.pdf",
    "a0e8a73f4b94e9f04aabd8d74db9e23c6ef000b5d15ec389ebe86f91a31bb49b",
    "scan with an OCR text layer",
  ),
];
