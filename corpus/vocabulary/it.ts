// Italian labels kept apart from the engine's: EN 16931 term names in other words ("Identificativo fattura",
// "Data di emissione della fattura"), synonyms, abbreviations ("Fatt. n.", "Tot. IVA") and typos.
import type { Vocabulary } from './types.ts';

export const it: Vocabulary = {
  key: {
    invoiceNumber: ['Identificativo fattura', 'Fatt. n.', 'Num. fattura', 'Protocollo n.', 'Rif. fattura', 'Nr. fatt.', 'Numero di fattura', 'Nuemro fattura'],
    invoiceDate: ['Data di emissione della fattura', 'Data fatt.', 'Emessa in data', 'Data doc.', 'Fatturato il', 'Data del documento', 'Dtaa fattura'],
    dueDate: ['Data di scadenza del pagamento', 'Scadenza rata', 'Termine di pagamento', 'Pagabile entro il', 'Scadenza il', 'Data limite di pagamento', 'Da saldare entro'],
    subtotal: ['Importo totale senza IVA', 'Totale netto documento', 'Imponibile complessivo', 'Netto merce', 'Tot. imponibile', 'Somma imponibili', 'Totale senza imposte'],
    taxTotal: ['Importo totale IVA', 'Totale imposte', 'IVA complessiva', 'Tot. IVA', 'Imposta dovuta', 'Totale IVA documento'],
    total: ['Importo totale con IVA', 'Totale complessivo documento', 'Tot. documento', 'Importo complessivo', 'Totale fatt.', 'Totale lordo documento', 'Toatle fattura'],
    amountDue: ['Netto da corrispondere', 'Importo residuo', 'Saldo da pagare', 'Resta da pagare', 'Importo da saldare', 'Da versare'],
    prepaid: ['Acconti ricevuti', 'Anticipo ricevuto', 'Già versato', 'Pagamenti ricevuti', 'Importo anticipato', 'Caparra'],
    itemsTotal: ['Totale righe documento', 'Somma righe', 'Tot. merce', 'Totale articoli', 'Importo righe'],
  },
  other: {
    seller: ['Venduto da', 'Cedente/prestatore', 'Fornitore', 'Emittente', 'Dati del fornitore'],
    customerNumber: ['Codice cliente', 'Cod. cliente', 'Cliente n.', 'ID cliente'],
    orderNumber: ['Vs. ordine', 'Rif. ordine', 'Ordine n.', "Numero d'ordine"],
    orderDate: ['Data ordine', 'Ordine del', 'Ordinato il'],
    deliveryDate: ['Data di consegna effettiva', 'Consegnato il', 'Data spedizione', 'Spedito il'],
    deliveryNote: ['DDT n.', 'Documento di trasporto', 'Bolla n.', 'Rif. DDT'],
    billTo: ['Spett.le', 'Intestatario', 'Cessionario/committente', 'Cliente'],
    shipTo: ['Destinazione merce', 'Luogo di consegna', 'Consegna presso', 'Destinatario'],
    contractNumber: ['Riferimento contratto', 'Contratto n.', 'Convenzione', 'CIG'],
    buyerReference: ['Codice destinatario', 'Codice univoco ufficio', 'Rif. amministrazione', 'Centro di costo'],
    gln: ['GLN', 'Codice GLN', 'Codice luogo', 'Cod. località'],
    gtin: ['EAN', 'GTIN', 'Codice EAN', 'Cod. a barre'],
    supplierNumber: ['Cod. fornitore', 'Codice fornitore', 'Ns. codice fornitore', 'Fornitore n.'],
    projectNumber: ['Riferimento progetto', 'CUP', 'Commessa', 'Progetto n.'],
    servicePeriod: ['Periodo di fatturazione', 'Periodo', 'Periodo di riferimento', 'Competenza'],
    printDate: ['Data stampa', 'Stampato il', 'Data di stampa', 'Elaborato il'],
    taxNumber: ['Codice fiscale', 'C.F.', 'Cod. fisc.', 'Cod. fiscale'],
    accountHolder: ['Intestatario conto', 'Beneficiario', 'Intestato a', 'Titolare'],
  },
  rights: ['Tutti i diritti riservati.', 'Tutti i diritti riservati'],
  taxNumber: ['###########'],
};
