/** The five event kinds of the contract. */
export const EVENT_TYPES = ['invoice.created', 'invoice.processed', 'invoice.failed', 'receipt.processed', 'vendor.created'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

/** One outbox row as subscribers see it: `data` is the resource (ExtractedInvoice, ExtractedReceipt, Vendor). */
export interface DomainEvent {
  /** The outbox position (total order). */
  seq: string;
  /** Stable id of the event (webhook-id; receivers dedupe on it). */
  id: string;
  type: string;
  tenantId: string;
  subjectId: string;
  timestamp: Date;
  data: Record<string, unknown>;
}
