// Keeps a list of invoices live (the dashboard's recent invoices, the invoices page): the invoiceEvents subscription
// over graphql-ws, authorised by the session cookie. Rows are built with DOM text nodes only; the table's
// data-columns names its cells, as invoice-rows.ts#invoiceRow renders them on the server.
(function () {
  'use strict';
  var table = document.getElementById('live-invoices');
  var status = document.getElementById('live-status');
  if (!table || !status || !window.graphqlWs) return;
  var body = table.tBodies[0];
  var storeId = table.dataset.storeId || null;
  var limit = Number(table.dataset.limit) || 10;
  var columns = (table.dataset.columns || 'vendor number date total status').split(' ');
  var dates = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', year: 'numeric', month: 'short', day: 'numeric' });
  var INVOICE = 'id vendorName invoiceNumber invoiceDate dueDate total currency status costCategories';
  var RECENT = 'query($storeId: UUID, $first: Int!) { invoices(first: $first, filter: { storeId: $storeId }) { nodes { ' + INVOICE + ' } } }';
  var STORE_OF = 'query($id: UUID!) { invoice(id: $id) { storeId } }';
  var EVENTS = 'subscription { invoiceEvents { type invoice { ' + INVOICE + ' } } }';

  function day(v) {
    if (!v) return '—';
    var d = new Date(v.slice(0, 10) + 'T00:00:00Z');
    return isNaN(d.getTime()) ? v : dates.format(d);
  }
  function money(v, currency) {
    if (v === null || v === undefined) return '—';
    try {
      return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency || 'USD' }).format(v);
    } catch (e) {
      return v.toFixed(2);
    }
  }
  function setStatus(state, text) {
    status.dataset.state = state;
    status.textContent = text;
  }
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function gql(query, variables) {
    return fetch('/graphql', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: query, variables: variables }),
    })
      .then(function (res) {
        return res.json();
      })
      .then(function (res) {
        if (res.errors && res.errors.length) throw new Error(res.errors[0].message);
        return res.data;
      });
  }

  function label(code) {
    var text = code.replace(/_/g, ' ');
    return text.charAt(0).toUpperCase() + text.slice(1);
  }
  function tags(codes) {
    var span = el('span');
    (codes || []).forEach(function (c, i) {
      if (i) span.appendChild(document.createTextNode(' '));
      span.appendChild(el('span', 'tag', label(c)));
    });
    return span;
  }
  var CELLS = {
    vendor: function (inv) {
      var link = el('a', '', inv.vendorName || (inv.status === 'processing' ? 'Reading…' : 'Unknown vendor'));
      link.href = '/app/invoices/' + encodeURIComponent(inv.id);
      return link;
    },
    number: function (inv) {
      return el('span', 'nowrap', inv.invoiceNumber || '—');
    },
    date: function (inv) {
      return el('span', 'nowrap', day(inv.invoiceDate));
    },
    due: function (inv) {
      return el('span', 'nowrap', day(inv.dueDate));
    },
    total: function (inv) {
      return el('span', 'num', money(inv.total, inv.currency));
    },
    status: function (inv) {
      return el('span', 'status status-' + inv.status, inv.status);
    },
    categories: function (inv) {
      return tags(inv.costCategories);
    },
  };
  function rowFor(inv) {
    var tr = el('tr');
    tr.dataset.invoiceId = inv.id;
    columns.forEach(function (c) {
      var td = el('td', 'c-' + c);
      td.appendChild(CELLS[c](inv));
      tr.appendChild(td);
    });
    return tr;
  }

  /** Adds or updates an invoice's row (newest on top); a late 'processing' never overwrites a final status. */
  function upsert(inv, fresh) {
    var existing = null;
    for (var i = 0; i < body.rows.length; i++) if (body.rows[i].dataset.invoiceId === inv.id) existing = body.rows[i];
    if (existing && inv.status === 'processing' && !existing.querySelector('.status-processing')) return;
    var tr = rowFor(inv);
    if (fresh) tr.className = 'fresh';
    if (existing) existing.replaceWith(tr);
    else {
      body.insertBefore(tr, body.firstChild);
      while (body.rows.length > limit) body.deleteRow(-1);
    }
    var none = document.getElementById('live-empty');
    if (none) none.remove();
  }

  function remove(id) {
    for (var i = 0; i < body.rows.length; i++) if (body.rows[i].dataset.invoiceId === id) return body.rows[i].remove();
  }

  // The dashboard's spend section is rendered on the server (same figures and chart as on load); swapped in after a
  // processed invoice, at most every 300 ms. It is our own escaped HTML from this origin.
  var spend = document.getElementById('spend');
  var spendTimer = null;
  function refreshSpend() {
    if (!spend || spendTimer) return;
    spendTimer = setTimeout(function () {
      spendTimer = null;
      fetch('/app/dashboard/spend', { credentials: 'same-origin' })
        .then(function (res) {
          return res.ok ? res.text() : null;
        })
        .then(
          function (html) {
            if (html === null) return;
            spend.innerHTML = html;
            spend.dispatchEvent(new Event('charts:draw', { bubbles: true }));
          },
          function () {},
        );
    }, 300);
  }

  // No store filter on the subscription: a store-scoped user's view asks each invoice's store once.
  var inStore = new Map();
  function inScope(id) {
    if (!storeId) return Promise.resolve(true);
    if (!inStore.has(id)) {
      inStore.set(
        id,
        gql(STORE_OF, { id: id }).then(
          function (d) {
            return d.invoice.storeId === storeId;
          },
          function () {
            return false;
          },
        ),
      );
    }
    return inStore.get(id);
  }

  /** After (re)connecting: whatever was processed while no subscription was listening. */
  function catchUp() {
    return gql(RECENT, { storeId: storeId, first: limit }).then(
      function (d) {
        d.invoices.nodes
          .slice()
          .reverse()
          .forEach(function (inv) {
            upsert(inv, false);
          });
      },
      function () {},
    );
  }

  var client = window.graphqlWs.createClient({
    url: (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/graphql',
    retryAttempts: 30,
    on: {
      connected: function () {
        setStatus('live', 'Live updates: on');
        catchUp();
      },
      closed: function (event) {
        if (event && event.code === 4403) {
          setStatus('stopped', 'Live updates stopped: your session has ended. Open the application you came from again.');
          client.dispose();
        } else if (status.dataset.state !== 'stopped') {
          setStatus('connecting', 'Live updates: reconnecting…');
        }
      },
    },
  });
  client.subscribe(
    { query: EVENTS },
    {
      next: function (message) {
        var event = message.data && message.data.invoiceEvents;
        var inv = event && event.invoice;
        if (!inv) return;
        // A duplicate upload is not one of the recent invoices (the list leaves it out): drop its row.
        if (event.type === 'invoice.duplicate') return remove(inv.id);
        inScope(inv.id).then(function (ok) {
          if (!ok) return;
          upsert(inv, true);
          if (inv.status === 'processed') refreshSpend();
        });
      },
      error: function () {
        if (status.dataset.state !== 'stopped') setStatus('stopped', 'Live updates stopped. Reload the page to try again.');
      },
      complete: function () {},
    },
  );
})();
