/** The pages a visitor reaches without an account: what search engines may list (sitemap.xml). */
export const PUBLIC_PAGES = ['/', '/pricing', '/sign-up', '/terms-of-service', '/privacy-policy'] as const;
export type PublicPage = (typeof PUBLIC_PAGES)[number];
