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
 * `unstructured` = unstructured's expected elements; `camelot` = camelot's expected tables (tests/data.py, the
 * lists its tests compare its default lattice/network output with; tuning set); `tabulaJson` = tabula-java's expected
 * tables of a whole page (its JSON fixtures, spanning cells included; tuning set); `csvTables` = gmft's expected
 * tables of open-access papers' pages (its DITR formatter's CSVs its tests compare with, a model's output checked
 * by its authors, not hand-made ground truth; row labels it repeats down a group count as cells; tuning set); `code` = listings in a typewriter font (no peer ships code
 * ground truth for these files).
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
  /** camelot's data.py and the names of the tables of this document in it, in page order. */
  camelot?: { file: string; path: string; sha256: string; tables: string[] };
  /** tabula-java's expected tables as its JSON writer prints them (tabula-json.ts). */
  tabulaJson?: { file: string; path: string; sha256: string };
  /** A JSON object of table name → CSV and the names of this document's tables in page order (csv-tables.ts). */
  csvTables?: { file: string; path: string; sha256: string; tables: string[] };
  /** The pages scored (1-based), instead of the first ones: a paper's pages with tables. */
  pages?: number[];
  /** Also scored as a scan: its pages rendered to an image-only PDF, against the text layer of the original. */
  scan?: boolean;
  /**
   * Has code listings: without tagged `Code`, its runs of two or more lines in a typewriter font (references.ts) are
   * the listings code recall is scored against. Only set where the fixed-pitch text is code, not a typewritten page.
   */
  code?: boolean;
  /** Never looked at while tuning the parser: its scores are reported apart (the tables' held-out figures). */
  heldOut?: boolean;
  note: string;
};

const PDFPLUMBER = { repo: "jsvine/pdfplumber", commit: "147f2c4", licence: "MIT" };
const TABULA = { repo: "tabulapdf/tabula-java", commit: "2cdf3b4", licence: "MIT (ICDAR 2013 competition data)" };
const CAMELOT = { repo: "camelot-dev/camelot", commit: "2b80d0bc6", licence: "MIT" };
const UNSTRUCTURED = { repo: "Unstructured-IO/unstructured", commit: "3e5482bfc", licence: "Apache-2.0" };
const PDFJS = { repo: "mozilla/pdf.js", commit: "0f26334f9", licence: "Apache-2.0 (pdf.js test corpus)" };
const PYMUPDF = { repo: "pymupdf/PyMuPDF", commit: "53c9aaf53", licence: "AGPL-3.0 (PyMuPDF test resources)" };

const plumber = (name: string, sha256: string, note: string, extra: Partial<QualityDoc> = {}): QualityDoc => ({
  ...PDFPLUMBER,
  file: `pdfplumber/${name}`,
  path: `tests/pdfs/${name}`,
  sha256,
  note,
  ...extra,
});

const ICDAR_DIR = "src/test/resources/technology/tabula/icdar2013-dataset";
const icdar = (name: string, pdfSha: string, xmlSha: string, note: string, heldOut = false): QualityDoc => {
  const dir = `${ICDAR_DIR}/competition-dataset-${name.slice(0, 2)}`;
  return {
    ...TABULA,
    file: `tabula/${name}.pdf`,
    path: `${dir}/${name}.pdf`,
    sha256: pdfSha,
    icdar: { file: `tabula/${name}-str.xml`, path: `${dir}/${name}-str.xml`, sha256: xmlSha },
    note,
    ...(heldOut ? { heldOut } : {}),
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

const CAMELOT_DATA = {
  file: "camelot/data.py",
  path: "tests/data.py",
  sha256: "27e9937c2b96f513c115353dadc619dac78bf3c369d8161720fd207b65d343e2",
};
const camelot = (name: string, path: string, sha256: string, tables: string[], note: string): QualityDoc => ({
  ...CAMELOT,
  file: `camelot/${name}`,
  path,
  sha256,
  camelot: { ...CAMELOT_DATA, tables },
  note,
});

const TABULA_DIR = "src/test/resources/technology/tabula";
const tabulaJson = (name: string, pdfSha: string, jsonSha: string, note: string): QualityDoc => ({
  ...TABULA,
  licence: "MIT (tabula-java test resources)",
  file: `tabula/${name}.pdf`,
  path: `${TABULA_DIR}/${name}.pdf`,
  sha256: pdfSha,
  tabulaJson: { file: `tabula/${name}.json`, path: `${TABULA_DIR}/json/${name}.json`, sha256: jsonSha },
  note,
});

const GMFT = {
  repo: "conjuncts/gmft",
  commit: "ac7ef5e",
  licence: "open-access articles (CC BY) in an MIT repository",
};
const GMFT_REFS = {
  file: "gmft/ditr_csvs.json",
  path: "data/test/references/ditr_csvs.json",
  sha256: "1b902266af92a6d5a3f12fe168ec3937934d306497b96f16f6f84b8173674724",
};
/** A paper of gmft's test data, scored on its pages with tables (not rotated ones) against gmft's expected CSVs. */
const gmft = (name: string, sha256: string, pages: number[], tables: string[], note: string): QualityDoc => ({
  ...GMFT,
  file: `gmft/${name}`,
  path: `data/pdfs/${name}`,
  sha256,
  pages,
  csvTables: { ...GMFT_REFS, tables },
  note,
});

/** Tagged PDFs of pdf.js's test corpus (files in the repository, not the linked ones): headings in the tree. */
const pdfjs = (name: string, sha256: string, note: string, extra: Partial<QualityDoc> = {}): QualityDoc => ({
  ...PDFJS,
  file: `pdfjs/${name}`,
  path: `test/pdfs/${name}`,
  sha256,
  note,
  ...extra,
});

/** Tagged PDFs of PyMuPDF's test resources, all held out: the heading rules were not tuned on them. */
const pymupdf = (name: string, sha256: string, note: string): QualityDoc => ({
  ...PYMUPDF,
  file: `pymupdf/${name}`,
  path: `tests/resources/${name}`,
  sha256,
  note,
  heldOut: true,
});

/** Tagged PDFs of the PDF Association's PDF/UA reference suite 1.1, as shipped in opendataloader-pdf's samples. */
const ODL = {
  repo: "opendataloader-project/opendataloader-pdf",
  commit: "20fe436c9",
  licence: "PDF/UA Reference Suite (PDF Association), in an Apache-2.0 repository",
};
const pdfua = (name: string, sha256: string, note: string, extra: Partial<QualityDoc> = {}): QualityDoc => ({
  ...ODL,
  file: `pdfua/${name}`,
  path: `samples/pdf/pdfua-1-reference-suite-1-1/${name}`,
  sha256,
  note,
  ...extra,
});

/** LaTeX papers tagged by the LaTeX tagging project's code (LPPL): numbered sections, run-in paragraph headings. */
const latex3 = (
  name: string,
  path: string,
  commit: string,
  sha256: string,
  note: string,
  extra: Partial<QualityDoc> = {},
): QualityDoc => ({
  repo: "latex3/tagging-project",
  commit,
  licence: "LPPL 1.3c",
  file: `latex3/${name}`,
  path,
  sha256,
  note,
  ...extra,
});

/** The PDF Association's examples of correctly tagged headings (Techniques for Accessible PDF; no licence stated). */
const pdfuaTechnique = (name: string, folder: string, sha256: string, note: string): QualityDoc => ({
  repo: "pdf-association/techniques-for-accessible-pdf",
  commit: "d725dcc",
  licence: "PDF Association examples, no licence stated",
  file: `pdfua-techniques/${name}`,
  path: `headings/${folder}/${name}`,
  sha256,
  note,
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
  icdar(
    "eu-010",
    "a328ff297056c6da316d8033a8752e15cf20416b88ccb1f7f88d12627617307d",
    "a1f793bbd507798a16b84a10c17d8362d3b57e025584100377f63617dea56b67",
    "EU document, tables (tuning set)",
  ),
  icdar(
    "eu-011",
    "f3e94b7020e079dff7da367db7e6128181bf929e3cdbd6e98227f67f8eb96fd0",
    "a2c7fca15f2a7d8cfe40e13b115671fc234c6e30581082ac28ea1e15a0adeb6d",
    "EU document, tables (tuning set)",
  ),
  icdar(
    "eu-012",
    "03c87aa857f7fbb6c327a1a5e8770e173e5e72966316a09dafccb76bc6f49c4b",
    "1eca94ca5ce33b7eead3692c08639a47492cc83a569591ce03adc8a93c54f831",
    "EU document, tables (tuning set)",
  ),
  icdar(
    "eu-013",
    "2bfff226fcc80eacc55181643466e8ed24df0b794ceabdfe8dc60423efbdfb9a",
    "ffe672172f64cb3a1f1851f22534b99ae619bb8f8ea5dc90eb865c71de49b96d",
    "EU document, tables (tuning set)",
  ),
  icdar(
    "eu-014",
    "8cecbb2877f5ed65f3b87722e38e7e813de5709dfb8bd9fb83e2e4afda57a860",
    "8085c68ae2e19695269dd3118173e36e11024fd575777e4f4ede891121c7b26d",
    "EU document, tables (tuning set)",
  ),
  icdar(
    "eu-015",
    "874175bf3dbc1135f8adb556a394ed313bd61df04517a546c5549e0250787b40",
    "718a6937bacd34ff24a921cdf0107921fa8ad6ff2cb1f27ce73a2259ae6e882b",
    "EU document, tables (tuning set)",
  ),
  icdar(
    "us-013",
    "4b7c42c27567c089c7dbf551c63e8e10da78e2cf94ec6766ebe69b66f6ed72cc",
    "ac2331844d5def15c50aa734be82e71e0ba40b08221837c25a7f4bc340c4053c",
    "US document, tables (tuning set)",
  ),
  icdar(
    "us-014",
    "73c0a8cd87fb3ab9bfd1b7499dfa724b963135ccd0d76ee81d7a0d77161fc63e",
    "956bd676767255d551ecbaba3fc740d52d4a27b4df20b42930a92efc0648b1a7",
    "US document, tables (tuning set)",
  ),
  icdar(
    "us-015",
    "314b6a63e282bf6af1273152ed1e7690747e053268186447ad1b8aa3beafe34b",
    "82e000f8f60bda7c93eb4aabeb395acc37795da39334231e962b5d1559f1c0e5",
    "US document, tables (tuning set)",
  ),
  icdar(
    "us-016",
    "42ae351aed2a855be7f9c913fe7e279e508e2717b42567b69ac3efe95297ab50",
    "c94b6e284ff0d0bacf634177c909f77f6ba5520796a3e263d72e84ada075087c",
    "US document, tables (tuning set)",
  ),
  icdar(
    "us-017",
    "62ccd00c8c7d67973d2abb77e4a30e173793602e91f60b9d1d1f6b9c60221989",
    "7091368b7052d672244dfa3cbfd811c4b19b60aa2a48eb1a30b64808cedc1221",
    "US document, tables (tuning set)",
  ),
  icdar(
    "us-018",
    "67f2e2e83b3d19006f949b38a4fd2a2c2ef96d725cdfd3ad6e9f463798d57297",
    "bd0b9020624350957601bf03bb41bf99d948bd969d1df657ddc25b2b4ff3abab",
    "US document, tables (tuning set)",
  ),
  icdar(
    "eu-016",
    "f5bd12fa072564fcb0bd245dfe921f2c036c5959a0b830c7d9aca89de8c54b9a",
    "93cb2327c2232736b7ccac266b25b4cad6b7ddd21d8a9a5181718438a8d11fef",
    "EU document, tables (held out)",
    true,
  ),
  icdar(
    "eu-017",
    "8de3587bd649191d2676da873750f3777ea8a3b2ec68521759a00f3016c65341",
    "eac438b631a0807c6f02a106e8d26b96e13fa14b079026617c2c3eafaea314f7",
    "EU document, tables (held out)",
    true,
  ),
  icdar(
    "eu-018",
    "002ba9ad55f8daed8631b4529cfa07fb983745cf8f52b55094dc7de2dc6f9e5a",
    "18573c58a21119a3d65f9599667b7a51dd771146bf448b136d83c87d6d916712",
    "EU document, tables (held out)",
    true,
  ),
  icdar(
    "eu-019",
    "0662e650f8f063fc83cfe3eea25462ecd3ce410677ca11aabffd7e89eb49285d",
    "72c968e77cffd3f9085cbb89020853945e00b5bcf258c785eedc4195eaa45071",
    "EU document, tables (held out)",
    true,
  ),
  icdar(
    "eu-020",
    "903495463f2babc09480dfe731bcc40254b06ca4ed568063b414386682581b29",
    "bca62bbe61bc7b12e68234deb1f67c0514cf79fbf7e0a6cc45c12eb77c4c3464",
    "EU document, tables (held out)",
    true,
  ),
  icdar(
    "eu-021",
    "bcfb10614036b133b3b205126d6bdb56be8e542e0d69654f1af34f5435d2d675",
    "6018ea76faaf5c6d09a721416c3edefd403d82ea5955338dba5f90d969e0956f",
    "EU document, tables (held out)",
    true,
  ),
  icdar(
    "eu-022",
    "131d42bf2d53b65f21672659090594a81d81496a4a083fa0a001db30276225f2",
    "66effcbb37113ae669e5ad04d2db81da4ea987deb924749cab036a4351e4b4af",
    "EU document, tables (held out)",
    true,
  ),
  icdar(
    "eu-023",
    "b8e33d2e699769e301cc0ffef4af6fdf75062693e0a08d9f49b26ebea85e3477",
    "5f6bca6d78c3caf3722a75df65933918b33f51d64bb8d5b6f1417bca4b5cb7c0",
    "EU document, tables (held out)",
    true,
  ),
  icdar(
    "eu-024",
    "bab82eeea11846bd68c1a55440c4cddb66931ea59f129ed7cb84f451a586131c",
    "0dce226a2ba1f0ac84023c389eac45c0fa6373292e58a471b275d72156ddf209",
    "EU document, tables (held out)",
    true,
  ),
  icdar(
    "eu-025",
    "52f058b26490df837a57bc73f70ef4294f6c2e3cb2298e032e1deba5a4ea11b5",
    "828c203aa84b82581e1f0f511f93ef9e96d1c6ffdb23e9d9548a845bb7a5199a",
    "EU document, tables (held out)",
    true,
  ),
  icdar(
    "eu-026",
    "4bfed630dbbc40f2af8b1966e5ec9ee0b4d1cd18d053db5fd8d734e96fefbb51",
    "9a5b4dd116b09fed202ea743b95f4a203cb5246458d58df7958404b2a3a3ec5a",
    "EU document, tables (held out)",
    true,
  ),
  icdar(
    "eu-027",
    "59cc72cd33ffe390d8bea34666698866f31cfa15c9444ceb2112229d2f14c648",
    "3a7b39811a3e4303c434087e194d427d19684cd77d51ad8ac25388c98f311fda",
    "EU document, tables (held out)",
    true,
  ),
  icdar(
    "us-020",
    "d884d32bd2a1d620e0c7b5446e4d0b58ba67dab04e884839b2640b9a35749e99",
    "b69438dcdfbbe5bf70bbb4ade949f32966cead08a53489597fd32667fc357649",
    "US document, tables (held out)",
    true,
  ),
  icdar(
    "us-021",
    "f380c576ab267c6f9a689c42e848c52555db728be982eb4745a6396a3b55800d",
    "bff8c53dcf90cdf489d50ce460b2717bfa10c1f71718135c266b627009b98825",
    "US document, tables (held out)",
    true,
  ),
  icdar(
    "us-022",
    "e528557a198ca7562e3a326bb3bf6a3182bd7c319c52795a6a7039ae84c630a4",
    "b9b2fde4e8d09238646a279d77707fe6fdc7d6e9ff64ae94f80d85a0d2b39ed8",
    "US document, tables (held out)",
    true,
  ),
  icdar(
    "us-023",
    "f75b64a8ed07e12b9080956a5b1e26089a9d100edacf93a5c5b7bf3ac2bd62b9",
    "e20c57dad8ce471a7313c7eaa67537fbf6b62210fc6517b6d1bd7b68b33f3570",
    "US document, tables (held out)",
    true,
  ),
  icdar(
    "us-024",
    "8f731f16866f92020bad3d1710974f491df293d96b64085d997154c3e98f05a0",
    "fc231b98ed64ab7161e043eb1fb45a80d591bce81e95aa50829273e96cab9eec",
    "US document, tables (held out)",
    true,
  ),
  icdar(
    "us-025",
    "3d6ce39e886e2a555bd732d06c32e982b811b302115225ddd56ffdb5207fa588",
    "07db945fb8a5599f15c2272ab7b017fa3e5f289d5ac5a6ab274c899f02ef1f95",
    "US document, tables (held out)",
    true,
  ),
  icdar(
    "us-026",
    "3017cb46ea0533281340821bd00c493a8346c59ef33fa0b44f5e5745ffdbfa19",
    "4fd087fcdff1413b1e3166dd7e3d844becda257059b2ba8ef87454564fe258bb",
    "US document, tables (held out)",
    true,
  ),
  icdar(
    "us-027",
    "338c0cb8a9cea35f7c92fde16345617e3a82523f77ae1176122cc008e7dd8333",
    "39aa048a15613ddc9e01e208bdccfb9c6bd34755ef033702693873292b4d3f9c",
    "US document, tables (held out)",
    true,
  ),
  icdar(
    "us-028",
    "df8a50e6b1e0a62ad07d4706d5081b211b7f703359ee2c3c533caaeeb05fc576",
    "7c19e18269baf9dda3100f6e794190398d7054b0ae602cc40d10127884920540",
    "US document, tables (held out)",
    true,
  ),
  icdar(
    "us-029",
    "400aa3d91b61e4659994bf55915905950f92285db3f4863e122ba774a42da7c6",
    "df593280cc1e15020e878ac52c7d696162847b335c32845883a3a95283518807",
    "US document, tables (held out)",
    true,
  ),
  icdar(
    "us-030",
    "5445100424603942b94d42db86e5cac43ed11a227253483643a51dc7c6b74d53",
    "4cf06c94a95f723c5df4c43361d9de33b07f3aa429676c9175c8ae0f4a2fc658",
    "US document, tables (held out)",
    true,
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
      scan: true,
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
    "interface-config-guide-p93.pdf",
    "49afbd240077426a8cfb0ee3da73c41c404e85fa8c782f0e77cf8b8a72a25ea9",
    "vendor manual page: CLI listing in DejaVu Sans Mono, numbered heading, running head, three-line foot",
    { code: true },
  ),
  unstructured(
    "pdf-with-ocr-text.pdf",
    "a0e8a73f4b94e9f04aabd8d74db9e23c6ef000b5d15ec389ebe86f91a31bb49b",
    "scan with an OCR text layer",
  ),
  camelot(
    "health.pdf",
    "tests/files/health.pdf",
    "efdcd7794fc9397dd3626075f025fa27a95b1180331b0b2c5b89a6c85ae3c4f6",
    ["data_stream"],
    "unruled budget table, two-row spanning header",
  ),
  camelot(
    "12s0324.pdf",
    "tests/files/tabula/12s0324.pdf",
    "092853e4af150d1c72f474a59ce902305e8675c1d04059d5e2af4a628bc6dfbd",
    ["data_network_two_tables_1", "data_network_two_tables_2"],
    "Statistical Abstract page: two unruled tables, dot leaders, multi-row headers",
  ),
  camelot(
    "twotables_2.pdf",
    "tests/files/twotables_2.pdf",
    "c910eabbe6ea2c2b6669e37889efc31b8f68bfd691d9f5c148fa0a5174ea7c91",
    ["data_lattice_two_tables_1", "data_lattice_two_tables_2"],
    "two ruled tables on a page, spanning header",
  ),
  camelot(
    "column_span_2.pdf",
    "tests/files/column_span_2.pdf",
    "14290fe5c01ad98b9362906b0c9646756ebf2999a82aaaeefc4dcecff5d3726f",
    ["data_lattice_shift_text_left_top"],
    "ruled table, cells spanning rows",
  ),
  camelot(
    "multiple_tables.pdf",
    "tests/files/multiple_tables.pdf",
    "9ac99cf86d3dd9b8e3773b773b942ec784c9e4b6e36febe1637767468e96526a",
    ["data_network_two_tables_b_1", "data_network_two_tables_b_2"],
    "two unruled tables with a paragraph between them",
  ),
  camelot(
    "background_lines_1.pdf",
    "tests/files/background_lines_1.pdf",
    "fe4c0ea9c600f03fdc8c4d6d030265116178a71fa02fcbf6f4d0ae149ea608fb",
    ["data_lattice_process_background"],
    "annual report: prose, then a table on shaded rows with a wrapped multi-line header",
  ),
  camelot(
    "split_text_lattice.pdf",
    "tests/files/split_text_lattice.pdf",
    "15b8cf2901342f88a7d4d57da6e7c98a4bb29c6b9b022707af2adf593a3db9a2",
    ["data_lattice_split_text"],
    "ruled register, cells wrapped over several lines",
  ),
  camelot(
    "stream_inner_outer_columns.pdf",
    "tests/files/stream_inner_outer_columns.pdf",
    "c1b275fa317d166038d1c9ac3525283a3c6ef25837a079e6ea34d47ec2b2ed02",
    ["data_stream_inner_outer_columns"],
    "unruled table, columns empty below the first row",
  ),
  tabulaJson(
    "spanning_cells",
    "f0a8fb8a293a192ca896ff4100b7b7113149ca89145ba61da662bd9d9fec3acf",
    "06c2a98b1fb8d4ff9e8f09b0b98051a4ad513b58d688139560c6e6aaeb1dfe42",
    "report appendix: two ruled tables, scenario headings spanning every column, prose between",
  ),
  tabulaJson(
    "twotables",
    "72a9d20672e4d581ae9933a07cbe9a6f6db40632218fb7e73bd923dee033d8cd",
    "32a393e77a8f70a4114ff30cd232471610d0576ba55ce0624b3880820d77fc6a",
    "Japanese financial statement: two ruled tables, two-level spanning headers, wrapped header cells",
  ),
  gmft(
    "1.pdf",
    "4f5534e8a33e96ca86f12f0895ac1dfe3a897499580941002275b44ad98b32fb",
    [4, 6, 8, 10, 11, 13, 14, 16, 19],
    ["pdf1_t0", "pdf1_t1", "pdf1_t2", "pdf1_t3", "pdf1_t4", "pdf1_t5", "pdf1_t6", "pdf1_t7", "pdf1_t8", "pdf1_t9"],
    "water-science paper, two columns: booktabs tables of materials, isotherm and kinetics parameters",
  ),
  gmft(
    "2.pdf",
    "ed97152e845d42892dc973e5d1f9ce1b06037208129b8b59b8d598b4807b5cb0",
    [3, 6, 7, 8],
    ["pdf2_t0", "pdf2_t1", "pdf2_t2", "pdf2_t3"],
    "clinical pharmacology paper: demographics with group rows, PK parameters",
  ),
  gmft(
    "3.pdf",
    "425de3328275e117ea0f96da59313706966c2cc2023114646958d7ae2d50319d",
    [4, 6, 8],
    ["pdf3_t1", "pdf3_t2", "pdf3_t3"],
    "Nature Communications article: unruled results tables, minus signs, units in headers (page 1 left out: gmft's table there is the abstract)",
  ),
  gmft(
    "4.pdf",
    "18893573d6a95cbbd65a0f21538be57a3bdd7c8f9869cb20046a119a23c0fbc4",
    [3, 8],
    ["pdf4_t0", "pdf4_t1"],
    "Scientific Reports article: results tables",
  ),
  gmft(
    "5.pdf",
    "77f2f0f752daab1a6f0749384bc6fa0757751e9af30a998222165c8e3270453a",
    [3, 5],
    ["pdf5_t0", "pdf5_t1"],
    "IUCrJ crystallography paper: long parameter tables",
  ),
  gmft(
    "6.pdf",
    "ac34475f0d9d818d8000e6ec3301ec3de0699ea8e69895189ce5c1f6fbdf5089",
    [5, 7, 12],
    ["pdf6_t0", "pdf6_t1", "pdf6_t2"],
    "Rice journal article: results tables with wrapped cells",
  ),
  gmft(
    "7.pdf",
    "7ad9276c97ffbf1b2404e4667dc832cee40754c02883577779cd7e2b4b67e8d7",
    [3, 4],
    ["pdf7_t0", "pdf7_t1", "pdf7_t2"],
    "BMC article: patient tables, two on a page, values like 11 / 18",
  ),
  gmft(
    "tatr.pdf",
    "9ed56fdf6cdac02a1b559b59e787b18eb26bf67fbcc216f7d4ba33e72a83d593",
    [4, 6, 7, 8],
    ["pubt_p4", "pubt_p6", "pubt_p7", "pubt_p8"],
    "PubTables-1M paper (arXiv): booktabs results tables, spanning group labels down the rows",
  ),
  pdfjs(
    "bug1997343.pdf",
    "759755768fbebf2b4ea36dcaa45520fbf66249d6a5844a5ebeecb62d5dfbb37c",
    "LaTeX two-column example, tagged: headings, lists, a Code listing, artifacts",
  ),
  pdfjs(
    "bug2009627.pdf",
    "1febf685fda55a8f3fadd5ff912c682f5560cf2db00b91c6e76ba830da114f31",
    "LaTeX document with a table of contents, tagged",
  ),
  pdfjs(
    "issue12706.pdf",
    "2349411ebaaf6eb2e226448756988ca7e997e8216a2101040d68bcfbd5046ddf",
    "Word (PDFMaker) form sample, tagged",
  ),
  pdfjs(
    "pdfjs_wikipedia.pdf",
    "4a10e1aee6565b5f329f073470cf95410272412510985948dc86399b57d7b4db",
    "Wikipedia page printed by Chrome, tagged",
  ),
  pdfjs(
    "issue9972-1.pdf",
    "dc072721f16954e5625e10df7c3d103e74454dd43395e98b68ddfb75d4b40379",
    "OmniGraffle questionnaire, tagged",
  ),
  pdfjs(
    "bug1937438_mml_from_latex.pdf",
    "5b23d74150cdcef440519f66a1bea90140077e33e7dd844bb18e55f430a3ea5a",
    "LaTeX page with a numbered section and a list, tagged",
  ),
  pdfua(
    "PDFUA-Ref-2-03_AcademicAbstract.pdf",
    "e61257d371261867926eb006f8895569a95fcfbcb93fca3be04b8b9187cb93a0",
    "ACM-style paper abstract page, two columns, tagged: numbered sections",
    { scan: true },
  ),
  pdfua(
    "PDFUA-Ref-2-04_Presentation.pdf",
    "90acb829ca8bfa037796592539d15010e9099d1cd2622aac1fce7d9fd3ae7575",
    "slide deck through Adobe PDF Library, tagged",
  ),
  pdfua(
    "PDFUA-Ref-2-05_BookChapter-german.pdf",
    "fc525b8899da31779b6143c16053779cd560d4417018a901472de33c71252352",
    "German book chapter through Adobe PDF Library, tagged: numbered H2/H3",
  ),
  pdfua(
    "PDFUA-Ref-2-06_Brochure.pdf",
    "aefd5ab48a908b9996ffadcb14d8ff31a2c653657cbe011a46f4cf61396a589e",
    "multi-column brochure, tagged",
  ),
  pdfua(
    "PDFUA-Ref-2-08_BookChapter.pdf",
    "2b958600daec79373736f413f2712fcd9c604de2c352cbc1ec9d67cc5d7932f1",
    "textbook chapter (AbleDocs), tagged: chapter title, section headings",
  ),
  {
    repo: "pdf-association/pdf20examples",
    commit: "786de4fe5",
    licence: "CC BY-SA 4.0",
    file: "pdf20examples/pdf20-utf8-test.pdf",
    path: "pdf20-utf8-test.pdf",
    sha256: "4f25a7640724038c064bd11127ee67b2ad9c08138248e3d4f2f8a8168eb4f513",
    note: "hand-written PDF 2.0, tagged: H1-H3",
  },
  pdfjs(
    "bug2004951.pdf",
    "03996344ab293d7636929c39040e4450d395ec0c78e1d590ba7205d7c0580b06",
    "LaTeX page with a numbered section, tagged",
  ),
  pdfua(
    "PDFUA-Ref-2-02_Invoice.pdf",
    "fbae08464f192f532205833215505b78266e86df6283d9b0c439cb06927ce0b9",
    "invoice, tagged: one heading over address blocks and a table",
  ),
  latex3(
    "asmeconf-template.pdf",
    "tagging-status/testfiles/asmeconf/asmeconf-template.pdf",
    "67d15fe35",
    "cfba159c9005c79fefc24dc570efe8098615dc64da14862c2077b6db09d8a4ef",
    "ASME conference paper template, tagged: numbered upper-case sections, run-in paragraph headings",
    { scan: true },
  ),
  pdfuaTechnique(
    "UA1_Tpdf-H_02.pdf",
    "H_02-Multiline-heading-correctly-tagged",
    "21597b622cab31700d7c1d311536cf41f9da629386882a5f51887ddab771614a",
    "a heading set on two lines, tagged",
  ),
  pdfuaTechnique(
    "UA1_Tpdf-H_03.pdf",
    "H_03-Headings-with-different-levels-correctly-tagged",
    "5a542c854127d5c1725b900eca9c06110dffb0d047e807ef3a15ebf758e11625",
    "headings of three levels between paragraphs, tagged",
  ),
  pdfuaTechnique(
    "UA1_Tpdf-H_05.pdf",
    "H_05-Heading-levels-correctly-not-skipped",
    "513284c861416442cad00ce4ea47b1cb90cf99b31b5f49eac2aca5f666c0fab9",
    "numbered headings (1, 1.1.1), tagged",
  ),
  pdfuaTechnique(
    "UA1_Tpdf-H_08.pdf",
    "H_08-Heading-level-7-correctly-rolemapped-to-P",
    "5c800f3ceb967bf1299a22a0c875c2d1b26fed96a280574da45f02d5291ff2dd",
    "headings H1-H6 and a seventh level tagged as a paragraph",
  ),
  pymupdf(
    "bug1945.pdf",
    "fb431fd9d8c65d48b7c65d18ec11795b5b5416ce880123da0728e16075114d6a",
    "BBC news page printed by Chromium, tagged (held out)",
  ),
  pymupdf(
    "test_3842.pdf",
    "ccc9f0d80145c1e380fdf3f3394257545e0876b1b72379c826af091d2facf43a",
    "NIST report from Word, tagged (held out)",
  ),
  pymupdf(
    "test_4245.pdf",
    "5604e7d19e6b93b86ee3539269d1f4f38064c07428a9033ba76aad4b249ffa14",
    "Wikipedia page printed by Chrome, tagged (held out)",
  ),
  pymupdf(
    "test-4055.pdf",
    "9382004462267330c0259946f2ee1bebb445a71314d21cd9127040d11f87ef8e",
    "IRS form from LiveCycle Designer, tagged, artifacts (held out)",
  ),
  pymupdf(
    "cms-etc-filled.pdf",
    "c09d9b2b905785b1d666551186b85d3e835c9abaf522bec8eb7af37281203870",
    "CMS form from InDesign, tagged (held out)",
  ),
];
