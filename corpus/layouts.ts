// The layout families of the corpus: each fixes one way an invoice is laid out or one thing it contains; everything
// else about a document (language, country, fonts, labels, formats, the other layout choices) is drawn at random.

export const LAYOUTS = [
  'label-left', // "Invoice No.: 123" pairs, labels left of their values
  'label-above', // a row of cells: small labels above their values
  'two-column-header', // seller and buyer side by side, the invoice data in a block of its own
  'title-line', // "Rechnung Nr. 2024-117 vom 05.06.2024" as the title: number and date have no labels of their own
  'boxed-table', // line items in a fully ruled grid
  'no-ruling-table', // line items aligned by whitespace only
  'totals-side-box', // totals in a framed box beside payment details
  'multi-page', // a long table over pages: repeated headers, carried-forward subtotals, "Page 2 of 3"
  'long-descriptions', // descriptions wrapped over several lines with detail lines
  'discounts', // line discounts, a document allowance, negative lines (-12,00 / 12,00-), shipping, prepayment
  'multi-vat', // several VAT rates, a rate column and a tax breakdown table
  'receipt-narrow', // an 80 mm till receipt, paid at the counter
  'card-slip', // a narrow receipt with the card terminal's slip printed below it
  'data-sheet', // a plain rendering of e-invoice data: "Label: value" sections, buyer first, items as blocks of rows
] as const;
export type LayoutFamily = (typeof LAYOUTS)[number];

export const NARROW: ReadonlySet<LayoutFamily> = new Set(['receipt-narrow', 'card-slip']);
