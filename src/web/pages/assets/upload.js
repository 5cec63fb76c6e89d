// Uploads from the invoices page: files dropped on the zone (or chosen) are sent one at a time to GraphQL
// uploadInvoice (multipart, with the session cookie), each with a progress bar while its bytes go up and a status
// while it is read. The new row itself arrives in the live list (live-invoices.js) from the invoiceEvents
// subscription; this script only reports each file's outcome.
(function () {
  'use strict';
  var zone = document.getElementById('dropzone');
  var input = document.getElementById('upload-file');
  var list = document.getElementById('uploads');
  var store = document.getElementById('upload-store');
  if (!zone || !input || !list) return;
  var MAX = 25 * 1024 * 1024;
  var MUTATION =
    'mutation Upload($file: Upload!, $storeId: UUID) { uploadInvoice(file: $file, storeId: $storeId) { invoices { id vendorName total currency status error } } }';
  var queue = [];
  var busy = false;

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function money(v, currency) {
    if (v === null || v === undefined) return '';
    try {
      return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency || 'USD' }).format(v);
    } catch (e) {
      return v.toFixed(2);
    }
  }

  function add(files) {
    for (var i = 0; i < files.length; i++) {
      var file = files[i];
      var item = el('li', 'upload-item');
      item.appendChild(el('span', 'upload-name', file.name));
      var bar = el('progress');
      bar.max = 100;
      bar.value = 0;
      item.appendChild(bar);
      var state = el('span', 'upload-state', 'Waiting…');
      item.appendChild(state);
      list.insertBefore(item, list.firstChild);
      if (file.size > MAX) {
        done(item, 'error', 'Too large: at most 25 MB.');
        continue;
      }
      queue.push({ file: file, item: item, bar: bar, state: state });
    }
    next();
  }

  function done(item, kind, text, href) {
    item.dataset.state = kind;
    var state = item.querySelector('.upload-state');
    state.textContent = '';
    if (href) {
      var link = el('a', '', text);
      link.href = href;
      state.appendChild(link);
    } else state.textContent = text;
    var bar = item.querySelector('progress');
    if (bar) bar.value = kind === 'done' ? 100 : bar.value;
  }

  function next() {
    if (busy || queue.length === 0) return;
    busy = true;
    var job = queue.shift();
    var form = new FormData();
    form.append('operations', JSON.stringify({ query: MUTATION, variables: { file: null, storeId: (store && store.value) || null } }));
    form.append('map', JSON.stringify({ 0: ['variables.file'] }));
    form.append('0', job.file, job.file.name);
    var xhr = new XMLHttpRequest();
    xhr.open('POST', '/graphql');
    xhr.setRequestHeader('Apollo-Require-Preflight', 'true');
    job.item.dataset.state = 'sending';
    job.state.textContent = 'Uploading…';
    xhr.upload.onprogress = function (e) {
      if (!e.lengthComputable) return;
      job.bar.value = Math.round((e.loaded / e.total) * 100);
      job.state.textContent = 'Uploading ' + job.bar.value + '%';
    };
    xhr.upload.onload = function () {
      job.bar.value = 100;
      job.item.dataset.state = 'reading';
      job.state.textContent = 'Reading the document…';
    };
    xhr.onload = function () {
      var res = null;
      try {
        res = JSON.parse(xhr.responseText);
      } catch (e) {
        res = null;
      }
      var error = res && res.errors && res.errors[0];
      var invoices = res && res.data && res.data.uploadInvoice && res.data.uploadInvoice.invoices;
      if (error || !invoices) done(job.item, 'error', (error && error.message) || (res && res.error) || 'The upload failed (' + xhr.status + '). Try again.');
      else {
        var first = invoices[0];
        if (first.status === 'failed') done(job.item, 'error', 'Could not be read: ' + (first.error || 'unknown reason'), '/app/invoices/' + first.id);
        else {
          var more = invoices.length > 1 ? ' (+' + (invoices.length - 1) + ' more in this file)' : '';
          done(
            job.item,
            'done',
            'Read: ' + (first.vendorName || 'unknown vendor') + ' ' + money(first.total, first.currency) + more,
            '/app/invoices/' + first.id,
          );
        }
      }
      busy = false;
      next();
    };
    xhr.onerror = function () {
      done(job.item, 'error', 'The connection failed. Try again.');
      busy = false;
      next();
    };
    xhr.send(form);
  }

  input.addEventListener('change', function () {
    add(input.files);
    input.value = '';
  });
  ['dragenter', 'dragover'].forEach(function (type) {
    zone.addEventListener(type, function (e) {
      e.preventDefault();
      zone.dataset.state = 'over';
    });
  });
  ['dragleave', 'drop'].forEach(function (type) {
    zone.addEventListener(type, function (e) {
      e.preventDefault();
      zone.dataset.state = 'idle';
    });
  });
  zone.addEventListener('drop', function (e) {
    if (e.dataTransfer && e.dataTransfer.files.length) add(e.dataTransfer.files);
  });
})();
