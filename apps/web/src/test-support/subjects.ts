import type { SubjectDto } from '@prodshot/contracts';

/** Two products side by side: the engine cannot tell which one the seller means. */
export const twoProducts: SubjectDto = {
  imageId: 'img-1',
  status: 'ready',
  needsFocus: true,
  confidence: 0.41,
  candidates: [
    { box: { x: 0.1, y: 0.2, width: 0.3, height: 0.6 }, point: { x: 0.25, y: 0.5 }, score: 0.48 },
    { box: { x: 0.55, y: 0.25, width: 0.35, height: 0.5 }, point: { x: 0.72, y: 0.5 }, score: 0.44 },
  ],
  error: null,
};

export const oneProduct: SubjectDto = {
  ...twoProducts,
  needsFocus: false,
  confidence: 0.93,
  candidates: [twoProducts.candidates[0]!],
};

export const pendingSubject: SubjectDto = {
  ...twoProducts,
  status: 'pending',
  needsFocus: false,
  confidence: null,
  candidates: [],
};

export const failedSubject: SubjectDto = {
  ...twoProducts,
  status: 'failed',
  needsFocus: false,
  confidence: null,
  candidates: [],
  error: 'We could not find a product in this photo. Try one with the product in clear view.',
};

/** A readable photo the engine saw no product in: the seller may tap where it is. */
export const unseenProduct: SubjectDto = {
  ...failedSubject,
  error: 'This image has nothing to work with: no product could be found in it. Please upload a photo of your product.',
  tapMayFind: true,
};

/** One product, and an outline the engine is sure of. */
export const sureOutline: SubjectDto = {
  ...oneProduct,
  outline: {
    url: '/storage/outline.webp',
    unsure: false,
    reasons: [],
    confirmed: false,
    focus: null,
    needsConfirmation: false,
  },
};

/** One product whose cutout runs into the frame: the seller must confirm or fix it before paying. */
export const unsureOutline: SubjectDto = {
  ...oneProduct,
  outline: {
    url: '/storage/outline.webp',
    unsure: true,
    reasons: ['touches_frame'],
    confirmed: false,
    focus: null,
    needsConfirmation: true,
  },
};
