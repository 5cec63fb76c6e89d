// Spanish labels kept apart from the engine's: EN 16931 term names in other words ("Identificador de factura",
// "Importe total sin impuestos"), synonyms, abbreviations ("Fra. nº", "Vto. pago") and typos.
import type { Vocabulary } from './types.ts';

export const es: Vocabulary = {
  key: {
    invoiceNumber: ['Identificador de factura', 'Nº de documento', 'Núm. de fra.', 'Fra. nº', 'Número fra.', 'Código de factura', 'Num. de factura', 'Facutra nº', 'Nro. factura'],
    invoiceDate: ['Fecha de expedición de la factura', 'Fecha emisión', 'Fecha fra.', 'Emitida', 'Fecha del documento', 'Expedida el', 'Fcha. factura'],
    dueDate: ['Fecha de vencimiento del pago', 'Vencimiento de pago', 'Pagar a más tardar el', 'Fecha límite', 'Vto. pago', 'Plazo de pago hasta', 'Fecha de cobro'],
    subtotal: ['Importe total sin impuestos', 'Base imponible total', 'Suma de bases', 'Neto total', 'Total antes de impuestos', 'Importe sin IVA', 'Subtotal neto'],
    taxTotal: ['Importe total de impuestos', 'Total cuota IVA', 'Suma IVA', 'IVA repercutido', 'Cuota tributaria', 'Total IVA repercutido'],
    total: ['Importe total con impuestos', 'Total factura con IVA', 'Importe final', 'Total importe', 'Suma total', 'Total con IVA incluido', 'Tota factura'],
    amountDue: ['Importe pendiente de pago', 'Saldo a pagar', 'Resto a pagar', 'Queda por pagar', 'Importe adeudado', 'Líquido pendiente'],
    prepaid: ['Importe ya pagado', 'Anticipo recibido', 'Pagos a cuenta', 'Cobrado', 'Entregas a cuenta', 'Anticipado'],
    itemsTotal: ['Total líneas', 'Suma artículos', 'Total mercancía', 'Importe de líneas', 'Total conceptos'],
  },
  other: {
    seller: ['Vendido por', 'Proveedor', 'Emisor', 'Datos del vendedor', 'Razón social del emisor'],
    customerNumber: ['Nº cliente', 'Código cliente', 'Cuenta cliente', 'Id. cliente'],
    orderNumber: ['Nº pedido', 'Su pedido', 'Ref. pedido', 'Orden de compra nº'],
    orderDate: ['Fecha pedido', 'Pedido del', 'Fecha de la orden'],
    deliveryDate: ['Fecha real de entrega', 'Entregado el', 'Fecha de envío', 'Enviado el'],
    deliveryNote: ['Albarán nº', 'Nº albarán', 'Albarán de entrega', 'Nota de entrega'],
    billTo: ['Facturar a', 'Datos del cliente', 'Cliente', 'Comprador'],
    shipTo: ['Dirección de entrega', 'Enviar a', 'Lugar de entrega', 'Destinatario'],
    contractNumber: ['Referencia del contrato', 'Nº contrato', 'Contrato marco', 'Expediente'],
    buyerReference: ['Referencia del comprador', 'Órgano gestor', 'Unidad tramitadora', 'Centro de coste'],
    gln: ['GLN', 'Código GLN', 'Punto operacional', 'Código de ubicación'],
    gtin: ['EAN', 'GTIN', 'Código EAN', 'Cód. barras'],
    supplierNumber: ['Nº proveedor', 'Código proveedor', 'Nuestro nº de proveedor', 'Id. proveedor'],
    projectNumber: ['Referencia de proyecto', 'Nº proyecto', 'Obra', 'Proyecto'],
    servicePeriod: ['Periodo de facturación', 'Periodo', 'Periodo de servicio', 'Periodo facturado'],
    printDate: ['Fecha de impresión', 'Impreso el', 'Listado del', 'Generado el'],
    taxNumber: ['RGSEAA', 'R.G.S.E.A.A.', 'Nº RGSEAA', 'Reg. Sanitario'],
    accountHolder: ['Titular de la cuenta', 'Beneficiario', 'Titular', 'A nombre de'],
  },
  rights: ['Todos los derechos reservados.', 'Todos los derechos reservados'],
  taxNumber: ['##.######/M', '##.#####/B'],
};
