// What `npm run seed -- --demo` created (demo-seed.ts): the partner, its key, the month and the counts.

export interface DemoSeedSummary {
  partnerId: string;
  tenantId: string;
  apiKey: string;
  /** The month the demo fills: the report range to look at. */
  startDate: string;
  endDate: string;
  stores: { id: string; externalStoreId: string; name: string; timezone: string; employees: number }[];
  counts: {
    stores: number;
    employees: number;
    schedules: { published: number; archived: number; draft: number };
    shifts: number;
    punches: number;
    /** Past shifts nobody punched for (call-outs). */
    missedShifts: number;
    /** Punches without a shift (covering for someone). */
    extraPunches: number;
    /** Employees clocked in right now (their shift is in progress). */
    clockedIn: number;
    salesDays: number;
    netSales: number;
    inventoryItems: number;
    inventoryCounts: number;
    /** Vendor invoices uploaded (read by the extraction engine, their PDFs kept). */
    invoices: number;
    timeOff: { pending: number; approved: number; denied: number };
  };
  /** The labor report of the demo month (append to the server's URL, send the key as X-API-Key). */
  laborReportPath: string;
}
