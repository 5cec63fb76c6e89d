// Portuguese labels kept apart from the engine's: EN 16931 term names in other words ("Identificador da fatura",
// "Valor total sem impostos"), synonyms, abbreviations ("Fat. n.º", "Dt. emissão") and typos.
import type { Vocabulary } from './types.ts';

export const pt: Vocabulary = {
  key: {
    invoiceNumber: ['Identificador da fatura', 'N.º da fat.', 'Fat. n.º', 'Número do doc.', 'Referência da fatura', 'Fatura/Recibo n.º', 'Nº fact.', 'Númro da fatura'],
    invoiceDate: ['Data de emissão da fatura', 'Data fat.', 'Emitido em', 'Data do doc.', 'Faturado em', 'Dt. emissão', 'Data da fatrua'],
    dueDate: ['Data de vencimento do pagamento', 'Prazo de pagamento', 'Pagável até', 'Liquidar até', 'Vencimento em', 'Data limite', 'Pagamento em'],
    subtotal: ['Valor total sem impostos', 'Total ilíquido s/ IVA', 'Soma das bases', 'Valor líquido total', 'Total s/ IVA', 'Montante sem IVA', 'Subtotal líquido'],
    taxTotal: ['Valor total de impostos', 'Total de imposto', 'IVA liquidado', 'Soma do IVA', 'Imposto total', 'IVA a pagar'],
    total: ['Valor total com impostos', 'Total c/ IVA', 'Montante total', 'Total final', 'Importância total', 'Total do documento', 'Valor da fatura', 'Totla a pagar'],
    amountDue: ['Valor pendente', 'Montante a liquidar', 'Saldo em dívida', 'Resta pagar', 'Por liquidar', 'Valor por pagar'],
    prepaid: ['Valor já pago', 'Adiantamento recebido', 'Pagamentos recebidos', 'Já liquidado', 'Montante adiantado', 'Recebido por conta'],
    itemsTotal: ['Total das linhas', 'Soma das linhas', 'Total artigos', 'Valor das mercadorias', 'Total de itens'],
  },
  other: {
    seller: ['Vendido por', 'Fornecedor', 'Emitente', 'Dados do fornecedor', 'Prestador'],
    customerNumber: ['N.º Cliente', 'Código cliente', 'Conta cliente', 'Cliente n.º'],
    orderNumber: ['V/ Encomenda', 'N.º Encomenda', 'Requisição', 'Nota de encomenda'],
    orderDate: ['Data da encomenda', 'Encomendado em', 'Data do pedido'],
    deliveryDate: ['Data efetiva de entrega', 'Entregue em', 'Data de expedição', 'Data de carga'],
    deliveryNote: ['Guia de remessa', 'Guia n.º', 'Guia de transporte', 'Nota de entrega'],
    billTo: ['Faturar a', 'Exmo.(s) Sr.(s)', 'Cliente', 'Adquirente'],
    shipTo: ['Local de entrega', 'Morada de entrega', 'Entregar em', 'Local de descarga'],
    contractNumber: ['Referência do contrato', 'Contrato n.º', 'N.º compromisso', 'Contrato'],
    buyerReference: ['Referência do comprador', 'Centro de custo', 'Compromisso', 'Ref. interna'],
    gln: ['GLN', 'Código GLN', 'Código de local', 'Local GLN'],
    gtin: ['EAN', 'GTIN', 'Código EAN', 'Cód. barras'],
    supplierNumber: ['N.º fornecedor', 'Código fornecedor', 'Nosso n.º de fornecedor', 'Fornecedor n.º'],
    projectNumber: ['Referência do projeto', 'Projeto n.º', 'Obra', 'Processo'],
    servicePeriod: ['Período de faturação', 'Período', 'Período de serviço', 'Referente a'],
    printDate: ['Data de impressão', 'Impresso em', 'Processado em', 'Data de processamento'],
    taxNumber: ['CAE', 'Cód. CAE', 'CAE principal', 'Código CAE'],
    accountHolder: ['Titular da conta', 'Beneficiário', 'Titular', 'Em nome de'],
  },
  rights: ['Todos os direitos reservados.', 'Todos os direitos reservados'],
  taxNumber: ['#####'],
};
