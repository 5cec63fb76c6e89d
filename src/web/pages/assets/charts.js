// Draws the pages' charts with Chart.js (window.Chart, served from node_modules by this server) from the JSON each
// <figure data-chart> carries (built by chart.ts). The numbers are the server's, already rounded: they are printed
// as they are, never rounded again.
(function () {
  'use strict';
  if (!window.Chart) return;
  var css = getComputedStyle(document.documentElement);
  function color(name) {
    var v = css.getPropertyValue('--' + name).trim();
    return v || '#334e68';
  }
  var COLORS = { brand: color('brand'), muted: '#9aa5b1', ok: color('ok'), warn: color('warn'), bad: color('bad') };
  var money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
  var moneyShort = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', notation: 'compact', maximumFractionDigits: 1 });
  var dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
  var plain = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
  function fmt(kind, v, short) {
    if (v === null || v === undefined) return '—';
    // Axis ticks are a scale, not figures: whole dollars, thousands as K. Tooltips print the figure as it is.
    if (kind === 'money') return short ? (Math.abs(v) >= 1000 ? moneyShort.format(v) : dollars.format(v)) : money.format(v);
    if (kind === 'percent') return plain.format(v) + '%';
    return plain.format(v) + ' h';
  }
  var phone = window.matchMedia('(max-width: 600px)').matches;

  function draw(figure) {
    var spec;
    try {
      spec = JSON.parse(figure.dataset.chart);
    } catch (e) {
      return;
    }
    var canvas = figure.querySelector('canvas');
    if (!canvas) return;
    if (spec.horizontal) figure.style.height = Math.max(160, spec.labels.length * 30 + 40) + 'px';
    var valueAxis = spec.horizontal ? 'x' : 'y';
    var datasets = spec.series.map(function (s) {
      var base = COLORS[s.color || 'brand'];
      var perPoint = s.colors
        ? s.colors.map(function (c) {
            return c ? COLORS[c] : base;
          })
        : base;
      var set = {
        label: s.label,
        data: s.values,
        type: s.type || 'bar',
        backgroundColor: perPoint,
        borderColor: s.type === 'line' ? base : perPoint,
        borderWidth: s.type === 'line' ? 2 : 0,
        pointRadius: s.type === 'line' ? 3 : 0,
        borderRadius: s.type === 'line' ? 0 : 3,
        order: s.type === 'line' ? 0 : 1,
        spanGaps: true,
      };
      if (s.stack) set.stack = s.stack;
      set[spec.horizontal ? 'xAxisID' : 'yAxisID'] = s.axis === 'right' ? 'right' : valueAxis;
      return set;
    });
    var scales = {};
    scales[valueAxis] = {
      beginAtZero: true,
      stacked: spec.series.some(function (s) {
        return s.stack;
      }),
      ticks: {
        callback: function (v) {
          return fmt(spec.format, v, true);
        },
      },
    };
    var categoryAxis = spec.horizontal ? 'y' : 'x';
    scales[categoryAxis] = {
      stacked: scales[valueAxis].stacked,
      ticks: { autoSkip: true, maxRotation: phone ? 60 : 0, font: { size: phone ? 10 : 12 } },
      grid: { display: false },
    };
    if (spec.rightFormat) {
      scales.right = {
        position: 'right',
        beginAtZero: true,
        grid: { drawOnChartArea: false },
        ticks: {
          callback: function (v) {
            return fmt(spec.rightFormat, v, true);
          },
        },
      };
    }
    new window.Chart(canvas, {
      type: 'bar',
      data: { labels: spec.labels, datasets: datasets },
      options: {
        indexAxis: spec.horizontal ? 'y' : 'x',
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        scales: scales,
        plugins: {
          legend: { display: spec.series.length > 1, position: 'bottom', labels: { boxWidth: 12 } },
          tooltip: {
            callbacks: {
              label: function (item) {
                var s = spec.series[item.datasetIndex];
                var kind = s.axis === 'right' ? spec.rightFormat : spec.format;
                return s.label + ': ' + fmt(kind, item.raw, false);
              },
            },
          },
        },
      },
    });
    figure.dataset.drawn = 'true';
  }

  var figures = document.querySelectorAll('figure[data-chart]');
  for (var i = 0; i < figures.length; i++) draw(figures[i]);
  // The dashboard swaps its spend section in after a live invoice: draw what arrives.
  document.addEventListener('charts:draw', function (event) {
    var root = event.target && event.target.querySelectorAll ? event.target : document;
    var fresh = root.querySelectorAll('figure[data-chart]:not([data-drawn])');
    for (var j = 0; j < fresh.length; j++) draw(fresh[j]);
  });
})();
