// /docs: Redoc renders the published contract (/openapi.json) from the bundle this server serves.
/* global Redoc */
Redoc.init(
  '/openapi.json',
  {
    hideDownloadButton: false,
    expandResponses: '200,201',
    pathInMiddlePanel: true,
    theme: {
      typography: { fontFamily: 'system-ui, sans-serif', headings: { fontFamily: 'system-ui, sans-serif' }, code: { fontFamily: 'ui-monospace, monospace' } },
    },
  },
  document.getElementById('redoc'),
);
