import { randomUUID } from 'node:crypto';
import os from 'node:os';

/**
 * This instance's lease on the invoices it extracts. A `processing` record names its owner and how long the lease
 * lasts; the owner renews it while it works, so an expired lease means the extraction died with its process, and a
 * sweeper may claim the record (extraction-recovery.ts).
 */
export interface ExtractionLease {
  /** Unique per running instance (host, pid and a random part: readable in the database, never reused). */
  owner: string;
  /** How long a lease lasts unless renewed; renewed every third of it. */
  ms: number;
}

export const DEFAULT_LEASE_MS = 30_000;

export function newLease(ms = DEFAULT_LEASE_MS): ExtractionLease {
  return { owner: `${os.hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`, ms };
}

/** The invoice is no longer this instance's to finish: its lease ran out and another instance claimed it. */
export class LeaseLostError extends Error {
  constructor(readonly invoiceId: string) {
    super(`invoice ${invoiceId} is being processed by another instance`);
  }
}

export interface LeaseKeeper {
  /** Keeps the lease on this invoice alive until the returned release is called. */
  hold(invoiceId: string): () => void;
  /** Stops renewing (shutdown). */
  stop(): void;
}

/**
 * Renews the leases of the invoices held, all in one statement every third of the lease. It runs only while
 * something is held (an idle instance sends nothing), and only held ids are renewed: a record this instance gave up
 * on is left to expire and be claimed again.
 */
export function createLeaseKeeper(
  lease: ExtractionLease,
  renew: (invoiceIds: string[]) => Promise<unknown>,
  log: { warn(obj: object, msg: string): void },
): LeaseKeeper {
  const held = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let renewing = false;

  async function tick(): Promise<void> {
    if (renewing || held.size === 0) return;
    renewing = true;
    try {
      await renew([...held.keys()]);
    } catch (err) {
      log.warn({ err }, 'renewing extraction leases failed; they expire unless the next renewal succeeds');
    } finally {
      renewing = false;
    }
  }

  return {
    hold(invoiceId) {
      held.set(invoiceId, (held.get(invoiceId) ?? 0) + 1);
      if (!timer) {
        timer = setInterval(() => void tick(), Math.max(50, Math.floor(lease.ms / 3)));
        timer.unref();
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const n = (held.get(invoiceId) ?? 1) - 1;
        if (n > 0) held.set(invoiceId, n);
        else held.delete(invoiceId);
        if (held.size === 0 && timer) {
          clearInterval(timer);
          timer = undefined;
        }
      };
    },
    stop() {
      held.clear();
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
