import { Type, type Static } from 'typebox';

/** Product kinds of docs/product-spec.md §1 and §8. */
export const SUPPORTED_PRODUCT_KINDS = [
  'footwear',
  'beauty',
  'accessories',
  'electronics',
  'furniture',
  'cosmetics',
] as const;
export const UNSUPPORTED_PRODUCT_KINDS = ['food', 'kitchenware', 'clothing', 'models'] as const;

export type SupportedProductKind = (typeof SUPPORTED_PRODUCT_KINDS)[number];
export type UnsupportedProductKind = (typeof UNSUPPORTED_PRODUCT_KINDS)[number];
export type ProductKind = SupportedProductKind | UnsupportedProductKind | 'unknown';

export const UNSUPPORTED_PRODUCT_MESSAGE = 'This product type is currently not supported';
export const UNSUPPORTED_PRODUCT_CODE = 'unsupported_product';

/** The list shown under an unsupported-product message (docs/product-spec.md §8). */
export const SUPPORTED_PRODUCT_LIST = [
  'shoes and footwear',
  'accessories (bags, watches, jewelry)',
  'electronics and gadgets',
  'home decor and furniture',
  'beauty and cosmetics',
] as const;

export function isUnsupportedKind(kind: string): kind is UnsupportedProductKind {
  return (UNSUPPORTED_PRODUCT_KINDS as readonly string[]).includes(kind);
}

/**
 * What the upload's photo was read as when it was analysed, before any run (docs/decisions.md,
 * "Product kind"): its kind, 'unknown' where the engine reads none from pixels, and whether
 * Prodshot shoots it. The photo alone decides: a title never refuses one.
 */
export const ProductReading = Type.Object({ kind: Type.String(), supported: Type.Boolean() });
export type ProductReading = Static<typeof ProductReading>;

export function productReading(kind: ProductKind): ProductReading {
  return { kind, supported: !isUnsupportedKind(kind) };
}

/** What the analysis read off the product: the seller's title wins where they gave one. */
export const ProductInfo = Type.Object({
  productTitle: Type.String(),
  productDescription: Type.String(),
  productType: Type.String(),
});
export type ProductInfo = Static<typeof ProductInfo>;
