import sharp from "sharp";
import { AppError, errorMessage } from "@/server/errors";

/**
 * Image files to PNG pages. The format is read from the bytes (a .jpg that is really a PNG still decodes), the
 * extension only names the file in messages. sharp reads PNG, JPEG, TIFF (every page), WebP, GIF and AVIF; its
 * prebuilt binary has no BMP reader and no HEVC decoder, so BMP goes through Skia (@napi-rs/canvas) and HEIC
 * through libheif compiled to WebAssembly (heic-decode).
 */

export const MAX_PAGE_PIXELS = 60_000_000;
export const MAX_IMAGE_PAGES = 200;
/** Past this many pixels over all pages, later pages are left out (a 200-page TIFF of posters is hours of OCR). */
export const MAX_TOTAL_PIXELS = 800_000_000;

export type DecodedPage = { png: Buffer; width: number; height: number };

export type DecodedImage = {
  pages: DecodedPage[];
  /** Pages (frames) in the file; more than `pages.length` when the limits cut the file short. */
  totalPages: number;
};

const unprocessable = (message: string, cause?: unknown) => new AppError("UNPROCESSABLE", message, { cause });

const damaged = (ext: string, detail: unknown) =>
  unprocessable(
    `The .${ext} image could not be decoded; the file is damaged, truncated or not really a .${ext} image (${errorMessage(detail).split("\n")[0]})`,
    detail,
  );

const checkPixels = (width: number, height: number, page: number) => {
  if (!(width > 0 && height > 0)) throw unprocessable(`Page ${page} of the image has no pixels`);
  if (width * height > MAX_PAGE_PIXELS) {
    throw unprocessable(
      `The image is ${width}×${height} pixels (${Math.round((width * height) / 1e6)} megapixels); Quarry reads images of at most ${MAX_PAGE_PIXELS / 1e6} megapixels per page`,
    );
  }
};

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

type Kind = "bmp" | "heic" | "sharp";

const HEIC_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "mif1", "msf1", "heim", "heis"]);

const sniff = (bytes: Uint8Array): Kind => {
  if (bytes[0] === 0x42 && bytes[1] === 0x4d) return "bmp";
  if (bytes.length >= 16 && ascii(bytes, 4, 8) === "ftyp") {
    // mif1 is also AVIF's brand; the compatible brands tell them apart, and sharp reads AVIF itself.
    const boxSize = Math.min(
      bytes.length,
      ((bytes[0] ?? 0) << 24) | ((bytes[1] ?? 0) << 16) | ((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0),
    );
    const brands: string[] = [ascii(bytes, 8, 12)];
    for (let at = 16; at + 4 <= boxSize; at += 4) brands.push(ascii(bytes, at, at + 4));
    if (brands.some((b) => b === "avif" || b === "avis")) return "sharp";
    if (brands.some((b) => HEIC_BRANDS.has(b))) return "heic";
  }
  return "sharp";
};

// ---------------------------------------------------------------------------------------------------------------

const decodeWithSharp = async (bytes: Uint8Array, ext: string): Promise<DecodedImage> => {
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>["metadata"]>>;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw damaged(ext, error);
  }
  if (!meta.width || !meta.height) throw damaged(ext, "no image size in the header");
  checkPixels(meta.width, meta.height, 1);
  // Animation frames (GIF, WebP) are one picture; only TIFF and HEIF hold separate pages.
  const multiPage = meta.format === "tiff" || meta.format === "heif";
  const totalPages = multiPage ? Math.max(1, meta.pages ?? 1) : 1;
  const pages: DecodedPage[] = [];
  let pixels = 0;
  for (let page = 0; page < Math.min(totalPages, MAX_IMAGE_PAGES); page++) {
    try {
      const { data, info } = await sharp(input, {
        page,
        pages: 1,
        limitInputPixels: MAX_PAGE_PIXELS,
        // Truncated data fails; slips many cameras and scanners make (stray bytes between markers) pass.
        failOn: "truncated",
      })
        .rotate() // EXIF orientation: phone photos are often stored sideways
        .flatten({ background: "#ffffff" })
        .toColourspace("srgb")
        .png()
        .toBuffer({ resolveWithObject: true });
      pages.push({ png: data, width: info.width, height: info.height });
      pixels += info.width * info.height;
    } catch (error) {
      if (/pixel limit/i.test(errorMessage(error))) {
        const m = await sharp(input, { page, limitInputPixels: false })
          .metadata()
          .catch(() => null);
        checkPixels(m?.width ?? 0, m?.height ?? 0, page + 1);
      }
      throw damaged(ext, error);
    }
    if (pixels >= MAX_TOTAL_PIXELS) break;
  }
  return { pages, totalPages };
};

// ---------------------------------------------------------------------------------------------------------------

const u16 = (b: Uint8Array, at: number) => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
const u32 = (b: Uint8Array, at: number) => (u16(b, at) | (u16(b, at + 2) << 16)) >>> 0;
const i32 = (b: Uint8Array, at: number) => u32(b, at) | 0;

/**
 * Header checks Skia does not make: it decodes a truncated BMP without complaint (the missing rows come out
 * black), which would OCR as garbage instead of failing.
 */
const checkBmp = (bytes: Uint8Array, ext: string): { width: number; height: number } => {
  if (bytes.length < 26) throw damaged(ext, "the file ends inside the BMP header");
  const offset = u32(bytes, 10);
  const dibSize = u32(bytes, 14);
  let width: number;
  let height: number;
  let bpp: number;
  let compression = 0;
  if (dibSize === 12) {
    width = u16(bytes, 18);
    height = u16(bytes, 20);
    bpp = u16(bytes, 24);
  } else {
    if (bytes.length < 34) throw damaged(ext, "the file ends inside the BMP header");
    width = i32(bytes, 18);
    height = Math.abs(i32(bytes, 22));
    bpp = u16(bytes, 28);
    compression = u32(bytes, 30);
  }
  if (![1, 2, 4, 8, 16, 24, 32].includes(bpp)) throw damaged(ext, `unsupported bit depth ${bpp}`);
  checkPixels(width, height, 1);
  // Uncompressed rows (BI_RGB, BI_BITFIELDS, BI_ALPHABITFIELDS) have a known size: the file must hold them all.
  if (compression === 0 || compression === 3 || compression === 6) {
    const stride = Math.ceil((width * bpp) / 32) * 4;
    const needed = offset + stride * height;
    if (bytes.length < needed) {
      throw damaged(ext, `the pixel data is truncated (${bytes.length} of ${needed} bytes)`);
    }
  }
  return { width, height };
};

const decodeBmp = async (bytes: Uint8Array, ext: string): Promise<DecodedImage> => {
  const { width, height } = checkBmp(bytes, ext);
  const { createCanvas, loadImage } = await import("@napi-rs/canvas");
  let image: Awaited<ReturnType<typeof loadImage>>;
  try {
    image = await loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (error) {
    throw damaged(ext, error);
  }
  if (image.width !== width || image.height !== height)
    throw damaged(ext, "the decoded size does not match the header");
  const canvas = createCanvas(width, height);
  const context = canvas.getContext("2d");
  context.fillStyle = "#ffffff";
  context.fillRect(0, 0, width, height);
  context.drawImage(image, 0, 0);
  return { pages: [{ png: await canvas.encode("png"), width, height }], totalPages: 1 };
};

// ---------------------------------------------------------------------------------------------------------------

const decodeHeic = async (bytes: Uint8Array, ext: string): Promise<DecodedImage> => {
  const heic = (await import("heic-decode")).default;
  let frames: Awaited<ReturnType<typeof heic.all>>;
  try {
    frames = await heic.all({ buffer: bytes });
  } catch (error) {
    throw damaged(ext, error);
  }
  try {
    const pages: DecodedPage[] = [];
    let pixels = 0;
    for (const [i, frame] of frames.slice(0, MAX_IMAGE_PAGES).entries()) {
      checkPixels(frame.width, frame.height, i + 1);
      let decoded: Awaited<ReturnType<typeof frame.decode>>;
      try {
        decoded = await frame.decode();
      } catch (error) {
        throw damaged(ext, error);
      }
      const png = await sharp(Buffer.from(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength), {
        raw: { width: decoded.width, height: decoded.height, channels: 4 },
      })
        .flatten({ background: "#ffffff" })
        .png()
        .toBuffer();
      pages.push({ png, width: decoded.width, height: decoded.height });
      pixels += decoded.width * decoded.height;
      if (pixels >= MAX_TOTAL_PIXELS) break;
    }
    return { pages, totalPages: frames.length };
  } finally {
    frames.dispose();
  }
};

// ---------------------------------------------------------------------------------------------------------------

/**
 * Every page (frame) of an image file as an 8-bit sRGB PNG on white, EXIF orientation applied. At most 200 pages
 * and 60 megapixels per page; a damaged or truncated file fails with an UNPROCESSABLE error saying so.
 */
export const decodeImage = async (bytes: Uint8Array, ext: string): Promise<DecodedImage> => {
  const name = ext.toLowerCase().replace(/^\./, "") || "image";
  if (bytes.length < 8) throw damaged(name, "the file is empty or almost empty");
  const kind = sniff(bytes);
  const decoded =
    kind === "bmp"
      ? await decodeBmp(bytes, name)
      : kind === "heic"
        ? await decodeHeic(bytes, name)
        : await decodeWithSharp(bytes, name);
  if (decoded.pages.length === 0) throw damaged(name, "no image found in the file");
  return decoded;
};
