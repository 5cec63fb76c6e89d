// GET /graphql in a browser: GraphiQL against this server. The API key is pasted once, kept in localStorage, and
// sent as X-API-Key; a new key builds a new fetcher, so GraphiQL loads the schema again with it.
/* global React, ReactDOM, GraphiQL */
(function () {
  var STORAGE = 'partner-api.explorer.key';
  var input = document.getElementById('api-key');
  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  try {
    input.value = localStorage.getItem(STORAGE) || '';
  } catch (e) {
    /* storage disabled: the key lives in the field only */
  }

  function fetcherFor(key) {
    return function (params) {
      // Without a key the server can only say 401: say what to do instead.
      if (!key) return Promise.resolve({ errors: [{ message: 'Paste your API key in the field above (it is sent as X-API-Key).' }] });
      var headers = { 'content-type': 'application/json', accept: 'application/json' };
      headers['x-api-key'] = key;
      return fetch('/graphql', { method: 'POST', headers: headers, body: JSON.stringify(params), credentials: 'same-origin' }).then(function (res) {
        return res.json();
      });
    };
  }

  function render() {
    var key = input.value.trim();
    root.render(
      React.createElement(GraphiQL, {
        key: key,
        fetcher: fetcherFor(key),
        defaultQuery: '# Paste your API key above, then run:\n{ viewer { name tier scopes tenants { id name } } }\n',
        shouldPersistHeaders: false,
      }),
    );
  }

  input.addEventListener('change', function () {
    try {
      localStorage.setItem(STORAGE, input.value.trim());
    } catch (e) {
      /* see above */
    }
    render();
  });
  render();
})();
