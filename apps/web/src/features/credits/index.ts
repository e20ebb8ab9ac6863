// What other features may use of credits: the seller's balance.
export { totalCredits, useSubscription } from './api/get-subscription.js';
