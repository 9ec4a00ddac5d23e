/** Widths of the resized copies kept of every image (never wider than the original). */
export const IMAGE_WIDTHS = [320, 640, 960, 1280] as const;
/** The copy `imageUrl` names: wide enough for a card on a large screen. */
export const DEFAULT_IMAGE_WIDTH = 640;

/** The widths kept of an image `width` pixels wide: those below it, and the original when it is narrower. */
export function keptWidths(width: number): number[] {
  const out: number[] = IMAGE_WIDTHS.filter((w) => w < width);
  if (out.length < IMAGE_WIDTHS.length) out.push(Math.min(width, IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1]!));
  return [...new Set(out)];
}

export const imagePath = (imageId: string, width: number) => `/api/images/${imageId}/${width}.webp`;

/** `imageUrl` and `srcset` of a kept image. */
export function servedImage(imageId: string, width: number): { imageUrl: string; imageSrcset: string } {
  const widths = keptWidths(width);
  const main = widths.filter((w) => w <= DEFAULT_IMAGE_WIDTH).pop() ?? widths[0]!;
  return { imageUrl: imagePath(imageId, main), imageSrcset: widths.map((w) => `${imagePath(imageId, w)} ${w}w`).join(', ') };
}
