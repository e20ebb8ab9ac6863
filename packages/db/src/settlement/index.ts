export { ledgerKeys, type GenerationRefundReason } from './ledger-keys.js';
/** Fail → refund → settle, each one transaction, answering what moved so the caller announces it. */
export * as settlement from './settlement.js';
export type { FailedSlots, GenerationRef, Refunded, SettlementDeps, SlotRef } from './settlement.js';
