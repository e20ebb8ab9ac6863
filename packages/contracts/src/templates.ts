/** The nine designer templates of docs/product-spec.md §3, handles exactly as the spec spells them. */
export const TEMPLATES = [
  { id: 1, name: 'Studio', handle: 'studio' },
  { id: 2, name: 'Lifestyle', handle: 'lifestyle' },
  { id: 3, name: 'Light Wood', handle: 'lightwood' },
  { id: 4, name: 'Marble', handle: 'marble' },
  { id: 5, name: 'Dark Wood', handle: 'darkwood' },
  { id: 6, name: 'Silk Fabric', handle: 'silk' },
  { id: 7, name: 'Industrial', handle: 'industrial' },
  { id: 8, name: 'Scrapbook', handle: 'scrapebook' },
  { id: 9, name: 'Pastel Gradient', handle: 'pastel-gradient' },
] as const;

export type TemplateHandle = (typeof TEMPLATES)[number]['handle'];

export const TEMPLATE_HANDLES: readonly TemplateHandle[] = TEMPLATES.map((t) => t.handle);

export function isTemplateHandle(value: unknown): value is TemplateHandle {
  return typeof value === 'string' && (TEMPLATE_HANDLES as readonly string[]).includes(value);
}

/** Auto mode's backgroundType (docs/product-spec.md §4): the engine picks the scene from its analysis of the product. */
export const AUTO_BACKGROUND = 'auto';
/** What a manual shot asks for by backgroundType: a template, or auto. */
export type ShotBackground = TemplateHandle | typeof AUTO_BACKGROUND;
export const SHOT_BACKGROUNDS: readonly ShotBackground[] = [...TEMPLATE_HANDLES, AUTO_BACKGROUND];

/** A request's display name (docs/product-spec.md §3 history type): the template's name, 'Auto', or 'Custom' for a prompt. */
export function templateName(handle: string | undefined | null): string {
  if (handle === AUTO_BACKGROUND) return 'Auto';
  return TEMPLATES.find((t) => t.handle === handle)?.name ?? 'Custom';
}

/** The popular prompt chips of the editor's Custom Background tab. */
export const PROMPT_CHIPS = ['Wooden table', 'Beach sunset', 'Modern kitchen', 'Studio lighting'] as const;

export const PROMPT_MAX_LENGTH = 1000;
export const PROMPT_WARN_LENGTH = 900;
