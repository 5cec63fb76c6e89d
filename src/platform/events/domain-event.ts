/**
 * The five event kinds of the contract, plus the two an upload recorded as a duplicate ends with instead of the
 * processed event (issue 18): webhooks deliver them only to endpoints registered for them.
 */
export const EVENT_TYPES = [
  'invoice.created',
  'invoice.processed',
  'invoice.failed',
  'invoice.duplicate',
  'receipt.processed',
  'receipt.duplicate',
  'vendor.created',
] as const;
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
