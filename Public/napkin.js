// napkin.js — the browser side of napkin.
//
// The server renders every page completely and every form posts normally, so
// the app works with JavaScript off. This script only enhances:
//   1. it listens to the session's event stream and swaps patched fragments
//      in place, keeping focus, caret and typed values where it can;
//   2. it submits napkin forms with fetch instead of a full page load, and
//      shows an error the server answers as a toast;
//   3. it fades out toasts the server renders, and hides one at once when
//      its close button is pressed;
//   4. when the session is gone (the stream answers 204) it stops and says
//      so, with a link to reload.
// It follows only paths that resolve to this page's origin.
// No framework, no build step, no inline script: load with
//   <script src="/napkin.js" defer></script>
(() => {
  'use strict';

  const body = document.body;
  if (!body || !window.fetch) return;

  const streamURL = body.dataset.napkinStream;
  let lastEventId = body.dataset.napkinEventId || '';

  // ---------------------------------------------------------------- toasts

  const TOAST_MS = 6000;
  const TOAST_LIMIT = 3;                       // the newest few; older ones leave
  const reducedMotion = () =>
    window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

  // Schedules the fade-out of a toast (once per element).
  function armToast(el) {
    if (el.dataset.napkinArmed) return;
    el.dataset.napkinArmed = '1';
    setTimeout(() => {
      if (reducedMotion()) { el.remove(); return; }
      el.classList.add('toast-out');          // CSS fades it
      setTimeout(() => el.remove(), 600);      // then it leaves the DOM
    }, TOAST_MS);
  }

  const armToasts = (root) => root.querySelectorAll('.toast').forEach(armToast);

  // Shows a toast with plain text (never parsed as HTML), shaped like the
  // server's: its own status message and a close button.
  function toast(text) {
    let box = document.querySelector('.toasts');
    if (!box) box = body.appendChild(Object.assign(document.createElement('div'), { className: 'toasts' }));
    const el = Object.assign(document.createElement('div'), { className: 'toast' });
    const message = Object.assign(document.createElement('p'), { className: 'toast-text', textContent: text });
    message.setAttribute('role', 'status');
    const close = Object.assign(document.createElement('button'), { type: 'button', className: 'toast-close', textContent: '×' });
    close.setAttribute('aria-label', 'Dismiss');
    el.append(message, close);
    armToast(box.appendChild(el));
    while (box.querySelectorAll('.toast').length > TOAST_LIMIT) box.querySelector('.toast').remove();
  }

  // A close button: the server's is a form (handled with the other forms
  // below, so it works without JavaScript too); ours is a plain button.
  document.addEventListener('click', (e) => {
    const close = e.target instanceof Element && e.target.closest('.toast-close');
    if (close && close.type === 'button') close.closest('.toast').remove();
  });

  // --------------------------------------------------------------- patches

  const CONTROLS = 'input, textarea, select';

  // A key that finds "the same control" in the old and the new fragment:
  // its id, or else its form (by id, action name or position) and its name.
  function controlKey(el, root) {
    if (el.id) return '#' + el.id;
    if (!el.name) return null;
    const form = el.closest('form');
    let formKey = '';
    if (form) {
      const action = form.querySelector('input[name="_action"]');
      formKey = form.id || (action && action.getAttribute('value')) ||
        String(Array.prototype.indexOf.call(root.querySelectorAll('form'), form));
    }
    const type = (el.type || '').toLowerCase();
    const suffix = type === 'radio' || type === 'checkbox' ? '=' + el.getAttribute('value') : '';
    return formKey + '|' + el.name + suffix;
  }

  // What the server said the control's value is (its attributes, not its state).
  function serverValue(el) {
    if (el.tagName === 'TEXTAREA') return el.defaultValue;
    if (el.tagName === 'SELECT') {
      return Array.from(el.options).map((o) => (o.defaultSelected ? '1' : '0') + o.value).join();
    }
    return String(el.getAttribute('value')) + '|' + el.hasAttribute('checked');
  }

  // Copies what the user typed/chose from `from` into `to`.
  function copyState(from, to) {
    const type = (from.type || '').toLowerCase();
    if (type === 'file' || type === 'hidden') return;
    if (type === 'checkbox' || type === 'radio') to.checked = from.checked;
    else if (from.tagName === 'SELECT') {
      Array.from(to.options).forEach((o, i) => { o.selected = !!(from.options[i] && from.options[i].selected); });
    } else to.value = from.value;
  }

  // The first element of an HTML string, parsed inert (scripts never run).
  function parse(html) {
    const tpl = document.createElement('template');
    tpl.innerHTML = html.trim();
    return tpl.content.firstElementChild;
  }

  // Replaces `old` by the element parsed from `html`, preserving user state.
  function swap(old, html) {
    const fresh = parse(html);
    if (!fresh) return;

    // Remember the state of the old controls, keyed.
    const before = new Map();
    old.querySelectorAll(CONTROLS).forEach((el) => {
      const key = controlKey(el, old);
      if (key && !before.has(key)) before.set(key, el);
    });
    const active = document.activeElement;
    const focused = active && old.contains(active) ? active : null;
    const focusKey = focused && (focused.matches(CONTROLS) ? controlKey(focused, old) : (focused.id ? '#' + focused.id : null));
    let selection = null;
    if (focused) {
      try { selection = [focused.selectionStart, focused.selectionEnd, focused.selectionDirection]; } catch (_) { /* no caret */ }
    }

    // Carry typed values over where the server did not change the value.
    fresh.querySelectorAll(CONTROLS).forEach((el) => {
      const key = controlKey(el, fresh);
      const prev = key && before.get(key);
      if (prev && prev.tagName === el.tagName && serverValue(prev) === serverValue(el)) copyState(prev, el);
    });

    old.replaceWith(fresh);
    armToasts(fresh);

    // Put focus and caret back on the matching element, if it still exists.
    if (!focusKey) return;
    const target = Array.from(fresh.querySelectorAll(focusKey.startsWith('#') ? '[id]' : CONTROLS))
      .find((el) => (el.matches(CONTROLS) ? controlKey(el, fresh) : '#' + el.id) === focusKey);
    if (!target) return;
    target.focus({ preventScroll: true });
    if (selection && selection[0] != null && target.value === focused.value) {
      try { target.setSelectionRange(selection[0], selection[1], selection[2] || 'none'); } catch (_) { /* no caret */ }
    }
  }

  // Applies one patch: {id, html}. Unknown ids are ignored.
  function applyPatch(patch) {
    if (!patch || typeof patch.id !== 'string' || typeof patch.html !== 'string') return;
    const old = document.getElementById(patch.id);
    if (old) swap(old, patch.html);
  }

  // ---------------------------------------------------------------- stream

  // Reconnect delays grow with each failure (a cap doubling from 1 s to
  // 15 s) and are drawn at random between the minimum and that cap ("full
  // jitter" with a floor): tabs that lost the server at the same moment, as
  // in a restart, then come back spread out instead of all at once.
  const BACKOFF_MIN = 500;
  const BACKOFF_MAX = 15000;
  let source = null;
  let failures = 0;
  let retryTimer = null;
  let ended = false;        // the session is gone: never reconnect
  let generation = 0;       // bumped by disconnect, so a late probe is ignored

  function retryDelay() {
    failures = Math.min(failures + 1, 10);
    const cap = Math.min(BACKOFF_MIN * 2 ** failures, BACKOFF_MAX);
    return BACKOFF_MIN + Math.random() * (cap - BACKOFF_MIN);
  }

  function retry() {
    if (retryTimer || ended) return;
    retryTimer = setTimeout(connect, retryDelay());
  }

  function streamURLWithId() {
    if (!lastEventId) return streamURL;
    return streamURL + (streamURL.includes('?') ? '&' : '?') + 'last-event-id=' + encodeURIComponent(lastEventId);
  }

  const remember = (e) => { if (e.lastEventId) lastEventId = e.lastEventId; };

  // EventSource never shows the status it got. A 204 (napkin's "no such
  // session"), any other non-200 answer, and even a refused or blocked
  // connection all end in `error` with readyState CLOSED in Chromium, so
  // CLOSED alone cannot tell "stop for good" from "try later". When the
  // browser has given up, one plain GET of the same URL reads the status:
  // 204 means the session ended; anything else (a network error, a 5xx, a
  // 200 stream once more) means retry with backoff. The probe is aborted as
  // soon as its headers arrive, so it never holds a stream open, and it runs
  // only after a failure, never on the healthy path.
  async function probe() {
    const mine = generation;
    const abort = new AbortController();
    let status = 0;
    try {
      const res = await fetch(streamURLWithId(), {
        method: 'GET', credentials: 'same-origin', cache: 'no-store',
        headers: { Accept: 'text/event-stream' }, signal: abort.signal,
      });
      status = res.status;
    } catch (_) { /* network trouble: status stays 0 */ }
    abort.abort();
    if (mine !== generation) return;
    if (status === 204) sessionEnded(); else retry();
  }

  function connect() {
    retryTimer = null;
    if (ended) return;
    if (source) source.close();
    source = new EventSource(streamURLWithId());
    source.onopen = () => { failures = 0; };
    source.onerror = () => {
      // CONNECTING: the browser would retry on its own fixed schedule;
      // CLOSED: it gave up, and we must learn why. Either way we close it
      // and decide ourselves.
      const gaveUp = source.readyState === EventSource.CLOSED;
      source.close();
      source = null;
      if (gaveUp) probe(); else retry();
    };
    source.addEventListener('patch', (e) => {
      remember(e);
      try { applyPatch(JSON.parse(e.data)); } catch (err) { console.error('napkin: bad patch', err); }
    });
    // The server closes a session's oldest stream when a newer tab opens one
    // past its limit, and says so: reconnecting would only push out another
    // tab in turn, so this tab stops until the reader asks for it again.
    source.addEventListener('end', () => {
      stop('This tab stopped updating because newer tabs of this site are open. ', 'Reload to resume');
    });
  }

  function disconnect() {
    generation += 1;
    if (retryTimer) { clearTimeout(retryTimer); retryTimer = null; }
    if (source) { source.close(); source = null; }
  }

  // The server no longer knows this session (it restarted, or evicted it):
  // patches will never come, and posts would be refused. Say so once, in a
  // small banner that blocks nothing, with a link that starts afresh.
  const sessionEnded = () => stop('Your session has ended. ', 'Reload the page');

  // Stops the stream for good and shows why, with a reload link.
  function stop(text, linkText) {
    ended = true;
    disconnect();
    if (document.querySelector('.napkin-ended')) return;
    const banner = Object.assign(document.createElement('p'), { className: 'napkin-ended' });
    banner.setAttribute('role', 'status');
    banner.setAttribute('aria-live', 'polite');
    const reload = Object.assign(document.createElement('a'), {
      href: location.pathname + location.search, textContent: linkText,
    });
    banner.append(text, reload);
    body.prepend(banner);
  }

  // ----------------------------------------------------------------- forms

  // The URL a server-provided path leads to, if it stays on this origin;
  // else null. Only resolving it as the browser will is safe: "/\evil" and
  // "/<TAB>/evil" look local to a string check, yet browsers read both as
  // "//evil", another host.
  function sameOrigin(path) {
    if (typeof path !== 'string' || !path) return null;
    let url;
    try { url = new URL(path, location.href); } catch (_) { return null; }
    return url.origin === location.origin ? url : null;
  }

  // Posts the form the plain way (no fetch), keeping the clicked button's value.
  function plainSubmit(form, submitter) {
    if (submitter && submitter.name) {
      form.appendChild(Object.assign(document.createElement('input'), { type: 'hidden', name: submitter.name, value: submitter.value }));
    }
    form.submit();
  }

  async function submit(form, submitter) {
    let data;
    try { data = new FormData(form, submitter || undefined); } catch (_) {
      data = new FormData(form);                      // older browsers: add the button by hand
      if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    }
    // The form's own token is the freshest (a patch may have re-rendered it).
    const csrf = data.get('_csrf') || body.dataset.napkinCsrf || '';
    const back = sameOrigin(data.get('_return'));
    const busy = (on) => { if (submitter) submitter.disabled = on; if (on) form.dataset.napkinBusy = '1'; else delete form.dataset.napkinBusy; };

    busy(true);
    let res;
    try {
      res = await fetch(form.getAttribute('action') || location.pathname, {
        method: 'POST',
        body: new URLSearchParams(data),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Napkin': '1', 'X-CSRF-Token': csrf },
        credentials: 'same-origin',
        redirect: 'manual',
      });
    } catch (_) {
      busy(false);
      plainSubmit(form, submitter);                    // network trouble: let the browser try
      return;
    }
    try {
      if (res.status === 204) {
        // Done; the patches come over the stream. Navigate only when asked to.
        const to = sameOrigin(res.headers.get('X-Napkin-Location'));
        if (to) location.assign(to.href);
        else if (back && back.pathname + back.search !== location.pathname + location.search) location.assign(back.href);
      } else if (res.type === 'opaqueredirect') {
        // The server answered as it would a plain browser (303): go back.
        // (The redirect's own target is opaque to us, so `_return` decides.)
        location.assign(back ? back.href : location.href);
      } else if (res.status === 422) {
        // The fragment re-rendered with its errors, same id.
        const html = await res.text();
        const fresh = parse(html);
        const old = (fresh && fresh.id && document.getElementById(fresh.id)) || form.closest('.napkin');
        if (old) swap(old, html);
        const invalid = document.querySelector('[aria-invalid="true"]');
        if (invalid && (!document.activeElement || document.activeElement === body)) invalid.focus();
      } else if (!res.ok) {
        const type = res.headers.get('Content-Type') || '';
        const text = type.includes('html') ? '' : (await res.text()).trim();
        toast(text && text.length < 300 ? text : 'Something went wrong (' + res.status + ').');
      }
    } catch (err) {
      toast('Something went wrong. Please try again.');
    } finally {
      busy(false);
    }
  }

  document.addEventListener('submit', (e) => {
    const form = e.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute('data-napkin-form')) return;
    e.preventDefault();
    if (form.dataset.napkinBusy) return;            // one post at a time per form
    // A toast's close button: hide it now; the post tells the server, whose
    // patch agrees a moment later.
    const closing = form.closest('.toast');
    if (closing) closing.remove();
    submit(form, e.submitter);
  });

  // ------------------------------------------------------------------ start

  // A hidden tab gives its stream back after a short grace, and a tab that
  // loads hidden waits to be seen: a browser opens at most six connections
  // per host, and every open stream holds one, so background tabs must not
  // starve the visible one. Shown again, the tab reconnects with its last
  // event id and the server sends whatever it missed (the whole page when
  // it is behind).
  const HIDDEN_GRACE = 10000;
  let hiddenTimer = null;
  let parked = false;

  function onVisibility() {
    if (document.visibilityState === 'hidden') {
      if (hiddenTimer || parked) return;
      const grace = Number(body.dataset.napkinHiddenGrace) || HIDDEN_GRACE;
      hiddenTimer = setTimeout(() => {
        hiddenTimer = null;
        if (document.visibilityState !== 'hidden' || ended) return;
        parked = true;
        disconnect();
      }, grace);
    } else {
      if (hiddenTimer) { clearTimeout(hiddenTimer); hiddenTimer = null; }
      if (parked && !ended) { parked = false; connect(); }
    }
  }

  armToasts(document);
  if (streamURL && window.EventSource) {
    if (document.visibilityState === 'hidden') parked = true; else connect();
    document.addEventListener('visibilitychange', onVisibility);
    // Leaving the page closes the stream; coming back from the back/forward
    // cache opens it again.
    window.addEventListener('pagehide', disconnect);
    window.addEventListener('pageshow', (e) => {
      if (e.persisted && !source && !ended && document.visibilityState !== 'hidden') connect();
    });
  }
})();
