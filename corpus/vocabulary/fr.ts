// French labels kept apart from the engine's: EN 16931 term names in other words ("Identifiant de facture",
// "Date d'émission de la facture"), synonyms, abbreviations ("Fact. n°", "Réf. fact.") and typos.
import type { Vocabulary } from './types.ts';

export const fr: Vocabulary = {
  key: {
    invoiceNumber: ['Identifiant de facture', 'Fact. n°', 'Réf. fact.', 'N° de pièce', 'Numéro de pièce', 'Référence facture', 'Numero de factrue', 'N° fact.'],
    invoiceDate: ["Date d'émission de la facture", 'Facturé le', 'Date fact.', 'Établie le', 'Date de la pièce', 'Émis le', 'Date facturation', 'Dte facture'],
    dueDate: ["Date d'échéance du paiement", 'Échéance de règlement', 'Date de paiement prévue', 'Règlement le', 'À payer le', 'Exigible le', 'Échéance au'],
    subtotal: ['Montant total hors taxe', 'Somme HT', 'Cumul HT', 'Valeur HT', 'Base de calcul TVA', 'Net hors taxes', 'Total HT facture'],
    taxTotal: ['Montant total TVA', 'Somme TVA', 'TVA due', 'Total des taxes', 'TVA facturée', 'Cumul TVA', 'Montant des taxes'],
    total: ['Total toutes taxes', 'Somme TTC', 'Montant à régler TTC', 'Total général TTC', 'Valeur TTC', 'Montant facturé', 'Total TTC facture', 'Totla TTC'],
    amountDue: ['Solde restant', 'Reste dû à ce jour', 'Montant exigible', 'Solde à régler', 'Restant à payer', 'Net à régler'],
    prepaid: ['Acompte reçu', 'Déjà encaissé', 'Versements reçus', 'Avance reçue', 'Montant prépayé', 'Règlement reçu'],
    itemsTotal: ['Total des lignes', 'Somme des lignes', 'Total marchandises', 'Total produits', 'Cumul lignes'],
  },
  other: {
    seller: ['Vendu par', 'Fournisseur', 'Émetteur de la facture', 'Vendeur', 'Prestataire'],
    customerNumber: ['N° client', 'Compte client', 'Code client', 'Identifiant client'],
    orderNumber: ['Réf. commande', 'Bon de commande n°', 'Votre commande', 'N° de commande client'],
    orderDate: ['Date de commande', 'Commandé le', 'Commande du'],
    deliveryDate: ['Date de livraison effective', 'Livré le', "Date d'expédition", 'Expédié le'],
    deliveryNote: ['Bon de livraison', 'BL n°', "Avis d'expédition", 'N° de BL'],
    billTo: ['Adresse de facturation', 'Facturer à', 'Client', 'Acheteur'],
    shipTo: ['Adresse de livraison', 'Livrer à', 'Lieu de livraison', 'Destinataire'],
    contractNumber: ['Référence du contrat', 'N° de contrat', 'Contrat cadre', 'Marché n°'],
    buyerReference: ["Référence de l'acheteur", 'Service exécutant', 'Code service', 'Engagement juridique'],
    gln: ['GLN', 'Code GLN', 'Code lieu', 'EAN lieu'],
    gtin: ['EAN', 'GTIN', 'Code EAN', 'Code-barres'],
    supplierNumber: ['N° fournisseur', 'Code fournisseur', 'Notre n° chez vous', 'Réf. fournisseur'],
    projectNumber: ['Référence projet', 'N° de projet', 'Chantier', 'Affaire n°'],
    servicePeriod: ['Période de facturation', 'Période', 'Période de prestation', 'Période concernée'],
    printDate: ["Date d'impression", 'Imprimé le', 'Édité le', 'Édition du'],
    taxNumber: ['SIREN', 'N° SIREN', 'Siren', 'SIREN n°'],
    accountHolder: ['Titulaire du compte', 'Bénéficiaire', 'Titulaire', 'Au nom de'],
  },
  rights: ['Tous droits réservés.', 'Tous droits réservés'],
  taxNumber: ['### ### ###'],
};
