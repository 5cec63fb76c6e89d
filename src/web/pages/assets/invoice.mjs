// The invoice page: draws the original PDF with pdf.js (served from node_modules by this server, no CDN; its worker
// and standard fonts too), outlines where a value was read when it is pointed at or focused, and sends field
// corrections to GraphQL correctInvoice with the session cookie.
import * as pdfjs from '/app/assets/pdf.min.mjs';

pdfjs.GlobalWorkerOptions.workerSrc = '/app/assets/pdf.worker.min.mjs';

/** The PDF drawn page by page; resolves to `turnTo(page)` (a promise settled once that page is drawn), or null. */
async function viewer(box) {
  const canvas = box.querySelector('canvas');
  const label = box.querySelector('.pdf-page');
  const [back, forward] = box.querySelectorAll('button[data-step]');
  let doc;
  try {
    // isEvalSupported false: the pages' CSP allows no eval; fonts load from our standard_fonts.
    doc = await pdfjs.getDocument({ url: box.dataset.src, isEvalSupported: false, standardFontDataUrl: '/app/assets/standard_fonts/' }).promise;
  } catch (err) {
    box.dataset.state = 'failed';
    canvas.replaceWith(
      Object.assign(document.createElement('p'), { className: 'error', textContent: 'The original could not be shown here: use the link below.' }),
    );
    return null;
  }
  let page = 1;
  let drawing = Promise.resolve();
  async function draw() {
    const p = await doc.getPage(page);
    const width = box.clientWidth || 600;
    const base = p.getViewport({ scale: 1 });
    const scale = width / base.width;
    const ratio = window.devicePixelRatio || 1;
    const viewport = p.getViewport({ scale: scale * ratio });
    canvas.width = Math.floor(viewport.width);
    canvas.height = Math.floor(viewport.height);
    canvas.style.width = '100%';
    await p.render({ canvas, canvasContext: canvas.getContext('2d'), viewport }).promise;
    canvas.setAttribute('aria-label', `Page ${page} of ${doc.numPages} of the original invoice`);
    canvas.dataset.page = String(page);
    label.textContent = `Page ${page} of ${doc.numPages}`;
    back.disabled = page <= 1;
    forward.disabled = page >= doc.numPages;
    box.dataset.state = 'drawn';
  }
  const turnTo = (n) => {
    const next = Math.min(doc.numPages, Math.max(1, n));
    if (next === page) return drawing;
    page = next;
    box.dataset.state = 'drawing';
    drawing = drawing.then(draw, draw);
    return drawing;
  };
  back.addEventListener('click', () => turnTo(page - 1));
  forward.addEventListener('click', () => turnTo(page + 1));
  drawing = draw();
  return turnTo;
}

/**
 * Where a value was read, drawn over the original: hovering a field's row or a line's cell, or focusing its mark,
 * turns the PDF to the value's page and outlines its box (fractions of the page) on the canvas or the image.
 */
function evidence(frame, surface, turnTo) {
  const mark = Object.assign(document.createElement('div'), { className: 'evidence-mark', hidden: true });
  mark.setAttribute('aria-hidden', 'true');
  frame.append(mark);
  let wanted = null;
  async function show(anchor) {
    wanted = anchor;
    const page = Number(anchor.dataset.page);
    if (turnTo) await turnTo(page);
    else if (page !== 1) return;
    if (wanted !== anchor) return;
    const [x, y, w, h] = anchor.dataset.box.split(' ').map(Number);
    const s = surface();
    // The drawing fills the element's content box (inside its border).
    const left = s.offsetLeft + s.clientLeft;
    const top = s.offsetTop + s.clientTop;
    Object.assign(mark.style, {
      left: `${left + x * s.clientWidth}px`,
      top: `${top + y * s.clientHeight}px`,
      width: `${w * s.clientWidth}px`,
      height: `${h * s.clientHeight}px`,
    });
    mark.dataset.page = String(page);
    mark.dataset.field = anchor.getAttribute('aria-label') ?? '';
    mark.hidden = false;
  }
  function hide(anchor) {
    if (wanted !== anchor) return;
    wanted = null;
    mark.hidden = true;
  }
  for (const anchor of document.querySelectorAll('.ev[data-box]')) {
    // A field's whole row answers the pointer; a line item's cell does.
    const zone = anchor.closest('.fields-table tr') ?? anchor.closest('td') ?? anchor;
    zone.addEventListener('mouseenter', () => void show(anchor));
    zone.addEventListener('mouseleave', () => hide(anchor));
    anchor.addEventListener('focus', () => void show(anchor));
    anchor.addEventListener('blur', () => hide(anchor));
  }
}

function corrections(form) {
  const open = document.getElementById('correct-open');
  const cancel = document.getElementById('correct-cancel');
  const status = document.getElementById('correct-status');
  open.hidden = false;
  open.addEventListener('click', () => {
    form.hidden = false;
    open.hidden = true;
    form.querySelector('input').focus();
  });
  cancel.addEventListener('click', () => {
    form.hidden = true;
    open.hidden = false;
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const input = {};
    for (const field of form.querySelectorAll('input[name]')) {
      if (field.value === field.dataset.was) continue;
      const text = field.value.trim();
      input[field.name] = text === '' ? null : field.type === 'number' ? Number(text) : text;
    }
    if (Object.keys(input).length === 0) {
      status.textContent = 'Nothing changed.';
      return;
    }
    status.textContent = 'Saving…';
    const res = await fetch('/graphql', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation Correct($id: UUID!, $input: InvoiceCorrectionInput!) { correctInvoice(id: $id, input: $input) { id } }',
        variables: { id: form.dataset.invoiceId, input },
      }),
    }).then(
      (r) => r.json(),
      () => null,
    );
    const error = !res ? 'The connection failed. Try again.' : (res.errors?.[0]?.message ?? res.error);
    if (error) status.textContent = error;
    else location.reload();
  });
}

const pdf = document.querySelector('.pdf-viewer[data-src]');
const image = document.querySelector('.original-frame img');
if (pdf) void viewer(pdf).then((turnTo) => turnTo && evidence(pdf, () => pdf.querySelector('canvas'), turnTo));
else if (image) evidence(image.parentElement, () => image, null);
const form = document.getElementById('correct');
if (form) corrections(form);
