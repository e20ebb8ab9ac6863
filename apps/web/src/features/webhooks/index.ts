// What routes use of webhooks: the profile's section.
export { WebhooksSection } from './webhooks-section.js';
