import { createCanvas, loadImage } from "@napi-rs/canvas";

/** A rectangle in pixels of an image. */
export type PixelBox = { left: number; top: number; width: number; height: number };

export type Crop = { png: Buffer; width: number; height: number };

/**
 * Cuts boxes out of one PNG (decoded once). A crop larger than `maxSide` pixels a side is scaled down to fit. Boxes
 * are clamped to the image; one with no pixels left gives null.
 */
export const cropPng = async (png: Buffer, boxes: readonly PixelBox[], maxSide = 2000): Promise<(Crop | null)[]> => {
  if (boxes.length === 0) return [];
  const image = await loadImage(png);
  return boxes.map((box) => {
    const left = Math.max(0, Math.floor(box.left));
    const top = Math.max(0, Math.floor(box.top));
    const right = Math.min(image.width, Math.ceil(box.left + box.width));
    const bottom = Math.min(image.height, Math.ceil(box.top + box.height));
    const sourceWidth = right - left;
    const sourceHeight = bottom - top;
    if (sourceWidth < 1 || sourceHeight < 1) return null;
    const shrink = Math.min(1, maxSide / Math.max(sourceWidth, sourceHeight));
    const width = Math.max(1, Math.round(sourceWidth * shrink));
    const height = Math.max(1, Math.round(sourceHeight * shrink));
    const canvas = createCanvas(width, height);
    canvas.getContext("2d").drawImage(image, left, top, sourceWidth, sourceHeight, 0, 0, width, height);
    return { png: canvas.toBuffer("image/png"), width, height };
  });
};
