// The invoice page: draws the original PDF with pdf.js (served from node_modules by this server, no CDN; its worker
// and standard fonts too), and sends field corrections to GraphQL correctInvoice with the session cookie.
import * as pdfjs from '/app/assets/pdf.min.mjs';

pdfjs.GlobalWorkerOptions.workerSrc = '/app/assets/pdf.worker.min.mjs';

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
    return;
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
    label.textContent = `Page ${page} of ${doc.numPages}`;
    back.disabled = page <= 1;
    forward.disabled = page >= doc.numPages;
    box.dataset.state = 'drawn';
  }
  const go = (step) => {
    page = Math.min(doc.numPages, Math.max(1, page + step));
    drawing = drawing.then(draw, draw);
  };
  back.addEventListener('click', () => go(-1));
  forward.addEventListener('click', () => go(1));
  go(0);
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

for (const box of document.querySelectorAll('.pdf-viewer[data-src]')) void viewer(box);
const form = document.getElementById('correct');
if (form) corrections(form);
