/*!
 * Perfil Seguro drop-in, version 1.
 *
 * Partners load it from our origin:
 *   <script src="https://<our host>/widget/v1.js"></script>
 * and then either call
 *   PerfilSeguro('pk_live_…').verify(clientSecret).then(function (result) { … })
 * from a click handler, or use the <perfil-seguro-button> element.
 *
 * The result ({id, status}) only says how the hosted flow ended in this browser. It is a hint
 * for the partner's page, not a proof: the partner's server confirms a session with its secret
 * key (API or webhooks) before trusting it. No personal data ever reaches this script.
 */
(function () {
  'use strict';

  // Loaded twice (two script tags): keep the first copy.
  if (window.PerfilSeguro && window.PerfilSeguro.version === '1') return;

  var VERSION = '1';
  var POPUP_WIDTH = 480;
  var POPUP_HEIGHT = 760;
  var POPUP_NAME = 'perfilseguro';
  var POLL_MS = 500;
  var PHONE_QUERY = '(max-width: 640px)';
  var MESSAGE_TYPE = 'perfilseguro:session';
  var STATUSES = ['created', 'in_progress', 'completed', 'declined', 'expired', 'canceled'];

  var KEY_PATTERN = /^pk_(live|test)_[A-Za-z0-9_-]+$/;
  var LEGACY_KEY_PATTERN = /^pk_[0-9a-fA-F]{24}$/; // partners' key ids from before pk_live_/pk_test_
  var SESSION_ID_PATTERN = /^vs_[A-Za-z0-9]{24,}$/;
  var CLIENT_SECRET_PATTERN = /^(vs_[A-Za-z0-9]{24,})_secret_[A-Za-z0-9_-]+$/;

  // The origin this file was served from: the default home of the hosted pages.
  // document.currentScript is only set while the script first runs, so it is read now.
  var scriptOrigin = null;
  var currentScript = document.currentScript;
  if (currentScript && currentScript.src) {
    try {
      scriptOrigin = new URL(currentScript.src, window.location.href).origin;
    } catch (e) {
      scriptOrigin = null;
    }
  }

  function isValidKey(key) {
    return typeof key === 'string' && (KEY_PATTERN.test(key) || LEGACY_KEY_PATTERN.test(key));
  }

  function isKnownStatus(status) {
    return typeof status === 'string' && STATUSES.indexOf(status) !== -1;
  }

  // Only the origin of baseUrl counts: the hosted pages live at its root.
  function originOf(baseUrl) {
    var url;
    try {
      url = new URL(String(baseUrl));
    } catch (e) {
      throw new Error('Perfil Seguro: baseUrl no es una URL válida');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new Error('Perfil Seguro: baseUrl debe ser una dirección https:// (o http:// en desarrollo)');
    }
    return url.origin;
  }

  function hostedUrl(config, clientSecret, redirect) {
    // The client secret goes in the fragment: browsers never send it to a server, so it stays
    // out of access logs and Referer headers.
    return config.base + '/conectar?pk=' + encodeURIComponent(config.publishableKey) +
      (redirect ? '&mode=redirect' : '') + '#' + clientSecret;
  }

  function wantsRedirect(config) {
    if (config.mode === 'redirect') return true;
    return typeof window.matchMedia === 'function' && window.matchMedia(PHONE_QUERY).matches;
  }

  // Opens the popup centred over the current window (left may be negative on a screen to the left
  // of the primary one). Returns null when the browser blocked it.
  function openPopup(url) {
    var outerWidth = window.outerWidth || POPUP_WIDTH;
    var outerHeight = window.outerHeight || POPUP_HEIGHT;
    var left = Math.round((window.screenX || 0) + (outerWidth - POPUP_WIDTH) / 2);
    var top = Math.round((window.screenY || 0) + (outerHeight - POPUP_HEIGHT) / 2);
    var features = 'popup,width=' + POPUP_WIDTH + ',height=' + POPUP_HEIGHT + ',left=' + left + ',top=' + top;
    return window.open(url, POPUP_NAME, features) || null;
  }

  function redirectTo(config, clientSecret) {
    window.location.assign(hostedUrl(config, clientSecret, true));
    // The page is going away; the hosted flow sends the person back to the partner's returnUrl
    // (see PerfilSeguro.resultFromUrl). This promise never settles.
    return new Promise(function () {});
  }

  // Waits for the hosted page in `popup` to report how the session ended.
  function watchPopup(config, id, popup) {
    return new Promise(function (resolve) {
      var closedSeen = false;
      var timer = null;

      function settle(result) {
        window.removeEventListener('message', onMessage);
        clearInterval(timer);
        resolve(result);
      }

      function onMessage(event) {
        if (event.origin !== config.base || event.source !== popup) return;
        var data = event.data;
        if (!data || data.type !== MESSAGE_TYPE || data.id !== id || !isKnownStatus(data.status)) return;
        // Only these two fields are taken from the message, whatever else it may carry.
        settle({ id: data.id, status: data.status });
      }

      function poll() {
        if (!popup.closed) return;
        // The page posts its message and then closes: give a message already on its way one
        // more tick before deciding that the person closed the window.
        if (!closedSeen) {
          closedSeen = true;
          return;
        }
        settle({ id: id, status: 'closed' });
      }

      window.addEventListener('message', onMessage);
      timer = setInterval(poll, POLL_MS);
    });
  }

  // Runs one verification. `preopened` is undefined when the popup is still to be opened, or
  // the window (or null, if blocked) opened earlier within the same click.
  function run(config, clientSecret, preopened) {
    var match = typeof clientSecret === 'string' ? CLIENT_SECRET_PATTERN.exec(clientSecret) : null;
    if (!match) {
      if (preopened) preopened.close();
      return Promise.reject(new Error('Perfil Seguro: el client secret no es válido (vs_…_secret_…)'));
    }
    var id = match[1];

    if (preopened === undefined) {
      if (wantsRedirect(config)) return redirectTo(config, clientSecret);
      var popup = openPopup(hostedUrl(config, clientSecret, false));
      if (!popup) return redirectTo(config, clientSecret); // popup blocked
      return watchPopup(config, id, popup);
    }
    if (!preopened) return redirectTo(config, clientSecret);
    preopened.location.href = hostedUrl(config, clientSecret, false);
    return watchPopup(config, id, preopened);
  }

  function configFor(publishableKey, options) {
    if (!isValidKey(publishableKey)) {
      throw new Error('Perfil Seguro: llave publicable no válida (pk_live_… o pk_test_…)');
    }
    options = options || {};
    var base = options.baseUrl ? originOf(options.baseUrl) : scriptOrigin;
    if (!base) {
      throw new Error('Perfil Seguro: indica options.baseUrl (no se pudo saber de dónde se cargó v1.js)');
    }
    return { publishableKey: publishableKey, base: base, mode: options.mode };
  }

  function PerfilSeguro(publishableKey, options) {
    var config = configFor(publishableKey, options);
    return {
      // Call it from a click handler: the popup must open within the user's gesture.
      verify: function (clientSecret) {
        return run(config, clientSecret, undefined);
      },
    };
  }

  PerfilSeguro.version = VERSION;

  // Reads the result the hosted flow appended to the partner's returnUrl after a redirect:
  // ?perfilseguro_session=<id>&perfilseguro_status=<status>. Null when absent or malformed.
  PerfilSeguro.resultFromUrl = function (href) {
    var url;
    try {
      url = new URL(href === undefined ? window.location.href : String(href), window.location.href);
    } catch (e) {
      return null;
    }
    var id = url.searchParams.get('perfilseguro_session');
    var status = url.searchParams.get('perfilseguro_status');
    if (!id || !SESSION_ID_PATTERN.test(id) || !isKnownStatus(status)) return null;
    return { id: id, status: status };
  };

  window.PerfilSeguro = PerfilSeguro;

  // <perfil-seguro-button publishable-key="pk_…" client-secret="vs_…_secret_…"> or, instead of
  // client-secret, session-endpoint="/ruta/en/tu/sitio" answering POST with {"clientSecret": "…"}.
  if (typeof window.customElements === 'undefined' || window.customElements.get('perfil-seguro-button')) return;

  var DEFAULT_LABEL = 'Validar con Perfil Seguro';
  var CSS =
    ':host{display:inline-block}' +
    'button{font:inherit;font-weight:600;line-height:1.25;color:#fff;background:#0F766E;border:0;' +
    'border-radius:8px;padding:.75em 1.25em;min-height:44px;cursor:pointer}' +
    'button:hover{background:#115E59}' +
    'button:focus-visible{outline:3px solid #0F766E;outline-offset:2px}' +
    'button:disabled{opacity:.6;cursor:progress}';

  // Constructed style sheets are not subject to the page's Content Security Policy (style-src),
  // unlike a <style> element, which is the fallback for older browsers.
  function applyStyles(root) {
    try {
      var sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS);
      root.adoptedStyleSheets = [sheet];
      return;
    } catch (e) {
      // no constructable style sheets here
    }
    var style = document.createElement('style');
    style.textContent = CSS;
    root.appendChild(style);
  }

  function fetchClientSecret(endpoint) {
    return fetch(endpoint, { method: 'POST', credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then(function (response) {
        if (!response.ok) throw new Error('Perfil Seguro: tu servidor no creó la sesión (HTTP ' + response.status + ')');
        return response.json();
      })
      .then(function (body) {
        if (!body || typeof body.clientSecret !== 'string') {
          throw new Error('Perfil Seguro: la respuesta de tu servidor no trae clientSecret');
        }
        return body.clientSecret;
      });
  }

  class PerfilSeguroButton extends HTMLElement {
    static get observedAttributes() {
      return ['label'];
    }

    constructor() {
      super();
      var root = this.attachShadow({ mode: 'open' });
      applyStyles(root);
      this._button = document.createElement('button');
      this._button.type = 'button';
      this._button.setAttribute('part', 'button');
      root.appendChild(this._button);
      this._button.addEventListener('click', this._start.bind(this));
      // Back from the hosted page (redirect variant) through the back-forward cache: usable again.
      this._onPageShow = function (event) {
        if (event.persisted) this._setBusy(false);
      }.bind(this);
      this._render();
    }

    connectedCallback() {
      window.addEventListener('pageshow', this._onPageShow);
      this._render();
    }

    disconnectedCallback() {
      window.removeEventListener('pageshow', this._onPageShow);
    }

    attributeChangedCallback() {
      this._render();
    }

    _render() {
      this._button.textContent = this.getAttribute('label') || DEFAULT_LABEL;
    }

    _setBusy(busy) {
      this._button.disabled = busy;
      if (busy) this._button.setAttribute('aria-busy', 'true');
      else this._button.removeAttribute('aria-busy');
    }

    _emit(name, detail) {
      this.dispatchEvent(new CustomEvent(name, { detail: detail, bubbles: true, composed: true }));
    }

    _start() {
      if (this._button.disabled) return;
      var clientSecret = this.getAttribute('client-secret');
      var endpoint = this.getAttribute('session-endpoint');
      var config;
      try {
        config = configFor(this.getAttribute('publishable-key'), { baseUrl: this.getAttribute('base-url') || undefined });
        if (!clientSecret && !endpoint) {
          throw new Error('Perfil Seguro: falta el atributo client-secret o session-endpoint');
        }
      } catch (error) {
        this._emit('perfilseguro:error', { message: error.message });
        return;
      }

      var pending;
      if (clientSecret) {
        pending = run(config, clientSecret, undefined);
      } else {
        // The popup opens now, blank, while the click still counts as the user's gesture; it is
        // sent to the hosted page once the partner's server has answered.
        var preopened = wantsRedirect(config) ? undefined : openPopup('about:blank');
        pending = fetchClientSecret(endpoint).then(
          function (secret) {
            return run(config, secret, preopened);
          },
          function (error) {
            if (preopened) preopened.close();
            throw error;
          }
        );
      }

      this._setBusy(true);
      var self = this;
      pending.then(
        function (result) {
          self._setBusy(false);
          self._emit('perfilseguro:result', { id: result.id, status: result.status });
        },
        function (error) {
          self._setBusy(false);
          self._emit('perfilseguro:error', { message: (error && error.message) || String(error) });
        }
      );
    }
  }

  window.customElements.define('perfil-seguro-button', PerfilSeguroButton);
})();
