// Over 250 lines: the product reading: the kind vocabulary and the palette and brightness measures that settle
// a kind.
import sharp from 'sharp';
import { isUnsupportedKind, SUPPORTED_PRODUCT_LIST, UNSUPPORTED_PRODUCT_MESSAGE } from '@prodshot/contracts';
import type { ProductKind } from '@prodshot/contracts';
import type { RawImage } from '../input/normalise-input.js';
import type { Analysis, KindReading, PaletteColour, ProductHints } from '../types.js';
import { boundingBox } from './cutout/mask-ops.js';
import type { SubjectFindings } from './cutout/ml-cutout.js';

/** Words in a seller's title or description that name a kind. Checked as whole words. */
const KIND_WORDS: Record<Exclude<ProductKind, 'unknown'>, string[]> = {
  footwear: [
    'shoe',
    'shoes',
    'sneaker',
    'sneakers',
    'trainer',
    'trainers',
    'boot',
    'boots',
    'sandal',
    'sandals',
    'heels',
    'loafer',
    'loafers',
    'plimsoll',
    'plimsolls',
    'slipper',
    'slippers',
    'footwear',
    'slip-on',
  ],
  cosmetics: [
    'lipstick',
    'mascara',
    'eyeshadow',
    'foundation',
    'makeup',
    'make-up',
    'cosmetic',
    'cosmetics',
    'concealer',
    'eyeliner',
    'nail',
  ],
  beauty: [
    'serum',
    'skincare',
    'moisturiser',
    'moisturizer',
    'shampoo',
    'conditioner',
    'perfume',
    'fragrance',
    'cologne',
    'lotion',
    'soap',
    'beauty',
    'cream',
    'toner',
  ],
  accessories: [
    'bag',
    'handbag',
    'tote',
    'backpack',
    'wallet',
    'purse',
    'watch',
    'sunglasses',
    'glasses',
    'eyewear',
    'sunnies',
    'jewelry',
    'jewellery',
    'necklace',
    'ring',
    'earrings',
    'bracelet',
    'belt',
  ],
  electronics: [
    'phone',
    'smartphone',
    'headphones',
    'earbuds',
    'speaker',
    'camera',
    'laptop',
    'tablet',
    'charger',
    'keyboard',
    'mouse',
    'console',
    'gadget',
    'smartwatch',
    'electronics',
  ],
  furniture: [
    'chair',
    'sofa',
    'armchair',
    'desk',
    'lamp',
    'shelf',
    'stool',
    'vase',
    'decor',
    'cushion',
    'candle',
    'furniture',
  ],
  food: [
    'food',
    'snack',
    'chocolate',
    'cake',
    'cookie',
    'cookies',
    'fruit',
    'juice',
    'drink',
    'coffee',
    'tea',
    'sauce',
    'honey',
  ],
  kitchenware: [
    'mug',
    'mugs',
    'cup',
    'pan',
    'pot',
    'kettle',
    'plate',
    'bowl',
    'cutlery',
    'knife',
    'teapot',
    'kitchenware',
    'tumbler',
  ],
  clothing: [
    'shirt',
    't-shirt',
    'tshirt',
    'dress',
    'jacket',
    'hoodie',
    'sweater',
    'jumper',
    'jeans',
    'trousers',
    'skirt',
    'beanie',
    'hat',
    'cap',
    'scarf',
    'socks',
    'coat',
    'clothing',
  ],
  models: ['model', 'person', 'wearing', 'portrait'],
};

/** Guesses the kind from the seller's words: a hint (settleKind), as the local engine reads no kind from pixels. */
export function guessKind(hints: ProductHints | undefined): { kind: ProductKind; confidence: number } {
  const title = (hints?.title ?? '').toLowerCase().match(/[a-z-]+/g) ?? [];
  const description = (hints?.description ?? '').toLowerCase().match(/[a-z-]+/g) ?? [];
  let best: { kind: ProductKind; score: number } = { kind: 'unknown', score: 0 };
  for (const [kind, words] of Object.entries(KIND_WORDS) as [Exclude<ProductKind, 'unknown'>, string[]][]) {
    // A title word weighs more than a description word: descriptions mention pairings ("wear with jeans").
    const score =
      title.filter((w) => words.includes(w)).length * 2 + description.filter((w) => words.includes(w)).length;
    if (score > best.score) best = { kind, score };
  }
  if (best.score === 0) return { kind: 'unknown', confidence: 0 };
  return { kind: best.kind, confidence: Math.min(0.95, 0.55 + best.score * 0.15) };
}

/** What an engine that reads no kind from pixels (the local one) says the photo shows. */
export const UNREAD_KIND: KindReading = { kind: 'unknown', confidence: 0 };

/**
 * The kind a run works with (docs/decisions.md, "Product kind"): the photo's reading decides, and
 * with it whether the product is refused; where the photo says nothing, the seller's words may name
 * a supported kind (its styles, its advice), never an unsupported one: a title alone refuses nothing.
 */
export function settleKind(
  image: KindReading,
  hints: ProductHints | undefined,
): Pick<Analysis, 'kind' | 'kindConfidence' | 'supported' | 'unsupported'> {
  const hinted = guessKind(hints);
  const { kind, confidence } = image.kind !== 'unknown' ? image : isUnsupportedKind(hinted.kind) ? UNREAD_KIND : hinted;
  const unsupported = isUnsupportedKind(kind);
  return {
    kind,
    kindConfidence: confidence,
    supported: !unsupported,
    unsupported: unsupported ? { message: UNSUPPORTED_PRODUCT_MESSAGE, supportedList: SUPPORTED_PRODUCT_LIST } : null,
  };
}

/** Dominant colours by coarse 4-bit binning of the product's opaque pixels. */
function palette(rgba: Uint8Array, mask: Uint8Array | null): { colours: PaletteColour[]; brightness: number } {
  const bins = new Map<number, { n: number; r: number; g: number; b: number }>();
  let total = 0,
    luminance = 0;
  for (let p = 0; p < rgba.length / 4; p++) {
    if (mask && !mask[p]) continue;
    const r = rgba[p * 4]!,
      g = rgba[p * 4 + 1]!,
      b = rgba[p * 4 + 2]!;
    const key = ((r >> 5) << 6) | ((g >> 5) << 3) | (b >> 5);
    const bin = bins.get(key) ?? { n: 0, r: 0, g: 0, b: 0 };
    bin.n++;
    bin.r += r;
    bin.g += g;
    bin.b += b;
    bins.set(key, bin);
    total++;
    luminance += (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
  }
  const colours = [...bins.values()]
    .sort((a, b) => b.n - a.n)
    .slice(0, 5)
    .filter((bin) => bin.n / total >= 0.03)
    .map((bin) => ({
      hex: toHex(bin.r / bin.n, bin.g / bin.n, bin.b / bin.n),
      share: Math.round((bin.n / total) * 1000) / 1000,
    }));
  return { colours, brightness: total ? Math.round((luminance / total) * 1000) / 1000 : 0 };
}

function toHex(r: number, g: number, b: number): string {
  return `#${[r, g, b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
}

export async function analyseImage(
  image: RawImage,
  segmentation: ({ mask: Uint8Array } & SubjectFindings) | null,
  hints: ProductHints | undefined,
): Promise<Analysis> {
  const { width, height } = image;
  const box = segmentation ? boundingBox(segmentation.mask, width, height) : null;
  let subject: Analysis['subject'] = null;
  if (segmentation && box) {
    const factor = Math.min(1, 512 / Math.max(width, height));
    const maskWidth = Math.max(1, Math.round(width * factor)),
      maskHeight = Math.max(1, Math.round(height * factor));
    const maskPng = await sharp(Buffer.from(segmentation.mask.map((v) => v * 255)), {
      raw: { width, height, channels: 1 },
    })
      .resize(maskWidth, maskHeight)
      .png()
      .toBuffer();
    let area = 0;
    for (const v of segmentation.mask) area += v;
    const { candidates, confidence, needsFocus } = segmentation;
    subject = {
      box,
      coverage: Math.round((area / (width * height)) * 1000) / 1000,
      fromAlpha: image.hasAlpha,
      maskPng,
      maskWidth,
      maskHeight,
      candidates,
      confidence,
      needsFocus,
    };
  }
  const { colours, brightness } = palette(image.data, subject ? segmentation!.mask : null);
  return {
    width,
    height,
    aspect: Math.round((width / height) * 1000) / 1000,
    subject,
    palette: colours,
    brightness,
    ...settleKind(UNREAD_KIND, hints),
  };
}
