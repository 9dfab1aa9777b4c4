// napkin.js — the browser side of napkin.
//
// The server renders every page completely and every form posts normally, so
// the app works with JavaScript off. This script only enhances:
//   1. it listens to the tab's event stream and swaps patched fragments in
//      place, keeping focus, caret and typed values where it can;
//   2. it submits napkin forms with fetch instead of a full page load, shows
//      an error the server answers as a toast, and after a successful post
//      resets the form's typed values to what the server rendered; a post
//      the app refused (422) puts the fragment the server re-rendered with
//      its message in place, keeping what was typed, and focuses the field
//      at fault; while a post is on its way the form is aria-busy and its
//      submit buttons are disabled (a double click posts once); a form
//      marked data-napkin-validate is checked by the server as the person
//      types, and its fields' messages filled in;
//   3. it follows in-app links live: a click fetches the page for this tab
//      (the server moves the tab's own napkin tree), swaps it in, and pushes
//      the address with history.pushState; Back and Forward do the same
//      without pushing. The stream stays open throughout;
//   4. it fades out toasts the server renders, and hides one at once when
//      its close button is pressed;
//   5. when the session is gone (the stream answers 204) it stops and says
//      so, with a link to reload; when only the tab is gone (410, e.g. after
//      it was hidden a long time) it fetches the page again in place, which
//      brings the tab back, and follows its stream; when the server drains
//      (a restart) it reconnects after a random delay, with the page's path,
//      to whichever server is next, which brings the tab back there;
//   6. when the page goes (pagehide) it says goodbye with a beacon, so the
//      server starts the tab's short grace at once.
// A link is followed live only for a plain primary click (no modifier key)
// on an <a href> to this origin, over http(s), without `target` (or with
// `_self`), without `download`, and not a jump within the page. To make a
// link, or every link inside an element, do a full page load instead, mark
// it or the element `data-napkin-reload`:
//   <a href="/export" data-napkin-reload>Export</a>
// It follows only paths that resolve to this page's origin.
// No framework, no build step, no inline script. Every napkin app serves
// this file itself, at /_napkin/napkin.js, and napkin's page layout loads it:
//   <script src="/_napkin/napkin.js" defer></script>
(() => {
  'use strict';

  const body = document.body;
  if (!body || !window.fetch) return;

  // What the server told this page about its tab; a live navigation may
  // change all of them (a released tab comes back as a new one).
  // Tell the server this browser runs napkin's client: each page load is
  // then a tab of its own (a browser without it keeps to one tab).
  document.cookie = 'napkin_js=1; path=/; max-age=31536000; SameSite=Lax' +
    (location.protocol === 'https:' ? '; Secure' : '');

  let streamURL = body.dataset.napkinStream;
  let tabId = body.dataset.napkinTab || '';
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
    if (!box) {
      box = body.appendChild(Object.assign(document.createElement('div'), { className: 'toasts' }));
      box.dataset.napkinOwn = '';             // ours: a live navigation keeps it
    }
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

  // Replaces `old` by the element parsed from `html` (or by the element
  // `html`, from another document), preserving user state.
  function swap(old, html) {
    const fresh = typeof html === 'string' ? parse(html) : document.adoptNode(html);
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
  let rotated = false;      // told to reconnect after the session's id rotated
  let drained = false;      // the server drained: the next server may not hold this tab
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
    const params = [];
    if (lastEventId) params.push('last-event-id=' + encodeURIComponent(lastEventId));
    // After a drain, the page's path: a server without the tab brings it back there.
    if (drained) params.push('path=' + encodeURIComponent(location.pathname + location.search));
    if (!params.length) return streamURL;
    return streamURL + (streamURL.includes('?') ? '&' : '?') + params.join('&');
  }

  // Patches that arrive while a live navigation is in flight wait for it:
  // applied at once, one could land on the old page and then be overwritten
  // by the older copy the navigation brings back.
  let held = null;
  // A live navigation's page is as of its event id: patches at or below it
  // that connections opened before it still deliver are older than the page.
  // Only theirs: a stream opened later asked the server from the page's id
  // on, and the server may have started the tab's numbering over (a tab it
  // had released, brought back under its id). `from` numbers connections.
  let connections = 0;
  let staleBefore = 0;        // connections up to this one ...
  let staleUpTo = 0;          // ... deliver patches up to this id stale

  function onPatch(e, from) {
    if (from <= staleBefore && e.lastEventId && Number(e.lastEventId) <= staleUpTo) return;
    if (held) { held.push([e, from]); return; }
    if (e.lastEventId) lastEventId = e.lastEventId;
    try { applyPatch(JSON.parse(e.data)); } catch (err) { console.error('napkin: bad patch', err); }
  }

  // Stops holding patches; applies the held ones unless they belong to a
  // stream this page no longer follows.
  function release(apply) {
    const waiting = held || [];
    held = null;
    if (apply) waiting.forEach(([e, from]) => onPatch(e, from));
  }

  // EventSource never shows the status it got. A 204 (napkin's "no such
  // session"), any other non-200 answer, and even a refused or blocked
  // connection all end in `error` with readyState CLOSED in Chromium, so
  // CLOSED alone cannot tell "stop for good" from "try later". When the
  // browser has given up, one plain GET of the same URL reads the status:
  // 204 means the session ended; 410 means the server released this tab
  // (the session lives on), so the page is fetched again in place, which
  // brings the tab back; anything else (a network error, a 5xx, a 200
  // stream once more) means retry with backoff. The probe is aborted as
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
    if (status === 204 && rotated) { rotated = false; retry(); }
    else if (status === 204) sessionEnded();
    else if (status === 410 && live) tabReleased();
    else retry();
  }

  function connect() {
    retryTimer = null;
    if (ended) return;
    if (source) source.close();
    source = new EventSource(streamURLWithId());
    source.onopen = () => { failures = 0; rotated = false; drained = false; };
    source.onerror = () => {
      // CONNECTING: the browser would retry on its own fixed schedule;
      // CLOSED: it gave up, and we must learn why. Either way we close it
      // and decide ourselves.
      const gaveUp = source.readyState === EventSource.CLOSED;
      source.close();
      source = null;
      if (gaveUp) probe(); else retry();
    };
    const from = ++connections;
    source.addEventListener('patch', (e) => onPatch(e, from));
    // The server closes a session's oldest stream when a newer tab opens one
    // past its limit, and says so: reconnecting would only push out another
    // tab in turn, so this tab stops until the reader asks for it again.
    // The session's id rotated (a sign-in or sign-out): the stream was opened
    // with the old cookie, which no longer works. Come back with the new
    // one, which the response that rotated it is bringing; should it not
    // have arrived yet, the first "no session" answer is tried once more.
    source.addEventListener('reconnect', () => {
      source.close();
      source = null;
      rotated = true;
      failures = 0;
      if (!retryTimer) retryTimer = setTimeout(connect, 250 + Math.random() * 250);
    });
    // The server is stopping (a restart): come back after a random delay of
    // up to the event's milliseconds, so its tabs reach the other servers
    // spread out, with the page's path for the one that does not hold it.
    source.addEventListener('drain', (e) => {
      source.close();
      source = null;
      drained = true;
      failures = 0;
      if (!retryTimer) retryTimer = setTimeout(connect, Math.random() * (Number(e.data) || 0));
    });
    source.addEventListener('end', () => {
      stop('This tab stopped updating because newer tabs of this site are open. ', 'Reload to resume');
    });
  }

  function disconnect() {
    generation += 1;
    if (retryTimer) { clearTimeout(retryTimer); retryTimer = null; }
    if (source) { source.close(); source = null; }
  }

  // Starts the stream over, at once, e.g. on another tab's URL (unless the
  // tab is parked while hidden: it connects when shown).
  function restartStream() {
    disconnect();
    failures = 0;
    if (!parked && !ended && streamURL && window.EventSource) connect();
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

  // Leaving the page (closing it, following a link away, reloading) tells
  // the server at once, so the tab's grace starts now instead of when the
  // server notices its stream drop; a reload's new tab comes within the
  // grace. A beacon outlives the page; it carries the session's CSRF token
  // like a form, so nobody else can end the tab.
  function sayGoodbye() {
    if (!tabId || ended || !navigator.sendBeacon) return;
    const data = new URLSearchParams([['_tab', tabId], ['_csrf', body.dataset.napkinCsrf || '']]);
    try { navigator.sendBeacon('/_napkin/leave', data); } catch (_) { /* the stream's end says it too */ }
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

  // A post that signed in or out rotated the session's CSRF token and
  // sends the new one: every form on the page posts with it from now on.
  function adoptToken(res) {
    const token = res.headers.get('X-CSRF-Token');
    if (!token) return;
    body.dataset.napkinCsrf = token;
    document.querySelectorAll('input[name="_csrf"]').forEach((input) => { input.value = token; });
  }

  // Posts the form the plain way (no fetch), keeping the clicked button's value.
  function plainSubmit(form, submitter) {
    if (submitter && submitter.name) {
      form.appendChild(Object.assign(document.createElement('input'), { type: 'hidden', name: submitter.name, value: submitter.value }));
    }
    form.submit();
  }

  // Whether a form sends files: URLSearchParams would drop them.
  function hasFiles(form) {
    return form.enctype === 'multipart/form-data' || !!form.querySelector('input[type="file"]');
  }

  // Posts a form with files as multipart (XHR, whose upload reports
  // progress, which fetch does not), showing how much was sent in a
  // <progress> at the end of the form and as --napkin-upload (0 to 1) on
  // it. Resolves to a Response as fetch would; a redirect the browser
  // followed counts as the opaque redirect fetch would have returned.
  function upload(form, url, data, csrf) {
    const bar = Object.assign(document.createElement('progress'), { max: 1, value: 0, className: 'napkin-progress' });
    bar.setAttribute('aria-label', 'Upload progress');
    form.appendChild(bar);
    const done = () => { bar.remove(); form.style.removeProperty('--napkin-upload'); };
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', url);
      xhr.setRequestHeader('X-Napkin', '1');
      xhr.setRequestHeader('X-CSRF-Token', csrf);
      xhr.upload.onprogress = (e) => {
        if (!e.lengthComputable) { bar.removeAttribute('value'); return; }
        bar.value = e.loaded / e.total;
        form.style.setProperty('--napkin-upload', String(bar.value));
      };
      xhr.onerror = xhr.onabort = () => { done(); reject(new Error('upload failed')); };
      xhr.onload = () => {
        done();
        const headers = new Headers();
        xhr.getAllResponseHeaders().trim().split(/[\r\n]+/).forEach((line) => {
          const at = line.indexOf(':');
          if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
        });
        const empty = xhr.status === 204 || xhr.status === 304;
        const res = new Response(empty ? null : xhr.responseText, { status: xhr.status, headers });
        if (xhr.responseURL && new URL(xhr.responseURL).href !== new URL(url, location.href).href) {
          Object.defineProperty(res, 'type', { value: 'opaqueredirect' });
        }
        resolve(res);
      };
      xhr.send(data);
    });
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
    const busy = (on) => pending(form, on);

    busy(true);
    cancelValidation(form);
    let res;
    try {
      const url = form.getAttribute('action') || location.pathname;
      res = hasFiles(form) ? await upload(form, url, data, csrf) : await fetch(url, {
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
    adoptToken(res);
    try {
      if (res.status === 204) {
        // Done; the patches come over the stream. What the user typed was
        // sent: the form shows what the server rendered again. Its token
        // was spent: the next post carries the one the server sent.
        const next = res.headers.get('X-Napkin-Form-Token');
        const token = next && Array.from(form.elements).find((el) => el.name === '_token');
        if (token) token.value = next;
        resetAfterPost(form, data);
        // A form of another page (its way back is elsewhere) goes back there.
        if (back && back.pathname + back.search !== location.pathname + location.search) follow(back);
      } else if (res.type === 'opaqueredirect') {
        // The server answered as it would a plain browser (303): go back.
        // (The redirect's own target is opaque to us, so `_return` decides.)
        location.assign(back ? back.href : location.href);
      } else if (res.status === 422) {
        await showRefusal(data, res);
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

  // While a form's post is on its way: the form is aria-busy, its submit
  // buttons are disabled (so a second click sends nothing) and show their
  // "working" label (data-napkin-working) if they have one; afterwards each
  // gets back its own label and state.
  function pending(form, on) {
    const buttons = form.querySelectorAll('button:not([type="button"]):not([type="reset"]), input[type="submit"]');
    if (on) {
      form.dataset.napkinBusy = '1';
      form.setAttribute('aria-busy', 'true');
      buttons.forEach((b) => {
        if (b.disabled) return;                     // disabled by the app: left alone
        b.disabled = true;
        const working = b.dataset.napkinWorking;
        if (!working) { b.dataset.napkinLabel = ''; return; }
        b.dataset.napkinLabel = b.tagName === 'INPUT' ? b.value : b.textContent;
        if (b.tagName === 'INPUT') b.value = working; else b.textContent = working;
      });
      return;
    }
    delete form.dataset.napkinBusy;
    form.removeAttribute('aria-busy');
    buttons.forEach((b) => {
      if (b.dataset.napkinLabel === undefined) return;
      const label = b.dataset.napkinLabel;
      delete b.dataset.napkinLabel;
      b.disabled = false;
      if (!b.dataset.napkinWorking) return;
      if (b.tagName === 'INPUT') b.value = label; else b.textContent = label;
    });
  }

  // ---------------------------------------------- validation while typing

  // A form marked data-napkin-validate (its value: milliseconds of quiet)
  // is sent for a validation pass as the person types: the server runs
  // the action's decoder and checks only, and answers 204 (nothing to say)
  // or a verdict {field, message}, shown in the field's message element
  // (data-napkin-message). The newest pass wins: an older one in flight is
  // aborted, and a late answer is ignored. Only fields the person touched
  // get a message; a submit cancels a pending pass.
  const checks = new WeakMap();                     // form -> {timer, controller, seq, touched}

  function checkState(form) {
    let state = checks.get(form);
    if (!state) { state = { timer: null, controller: null, seq: 0, touched: new Set() }; checks.set(form, state); }
    return state;
  }

  function cancelValidation(form) {
    const state = checks.get(form);
    if (!state) return;
    clearTimeout(state.timer);
    state.seq += 1;
    if (state.controller) state.controller.abort();
    state.controller = null;
  }

  function scheduleValidation(e) {
    const control = e.target;
    const form = control && control.form;
    if (!form || !form.hasAttribute('data-napkin-validate') || !control.name || control.type === 'file') return;
    const state = checkState(form);
    state.touched.add(control.name);
    clearTimeout(state.timer);
    const quiet = parseInt(form.getAttribute('data-napkin-validate'), 10);
    state.timer = setTimeout(() => validate(form, state), quiet >= 0 ? quiet : 300);
  }

  async function validate(form, state) {
    if (form.dataset.napkinBusy || !form.isConnected) return;
    if (state.controller) state.controller.abort();
    const controller = window.AbortController ? new AbortController() : null;
    state.controller = controller;
    const seq = ++state.seq;
    const params = new URLSearchParams();
    new FormData(form).forEach((value, name) => { if (typeof value === 'string') params.append(name, value); });
    let verdict = null;
    try {
      const res = await fetch(form.getAttribute('action') || location.pathname, {
        method: 'POST',
        body: params,
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded', 'X-Napkin': '1', 'X-Napkin-Validate': '1',
          'X-CSRF-Token': params.get('_csrf') || body.dataset.napkinCsrf || '',
        },
        credentials: 'same-origin',
        redirect: 'manual',
        signal: controller ? controller.signal : undefined,
      });
      if (res.status === 200) verdict = await res.json();
      else if (res.status !== 204) return;          // no say: leave the messages be
    } catch (_) {
      return;                                       // aborted by a newer pass, or offline
    }
    if (seq !== state.seq || !form.isConnected) return;
    state.controller = null;
    showVerdict(form, verdict, state.touched);
  }

  // Puts a verdict's message in its field's message element and marks the
  // field; clears the messages of the other fields the person touched.
  // Fields not touched keep what they show (a refused post's message).
  function showVerdict(form, verdict, touched) {
    const field = verdict && typeof verdict.field === 'string' ? verdict.field : null;
    const message = field && typeof verdict.message === 'string' ? verdict.message : '';
    form.querySelectorAll('[data-napkin-message]').forEach((el) => {
      const name = el.dataset.napkinMessage;
      if (!touched.has(name)) return;
      const mine = name === field;
      if (el.textContent !== (mine ? message : '')) el.textContent = mine ? message : '';
      el.hidden = !mine;
      const control = Array.from(form.elements).find((c) => c.name === name && c.type !== 'hidden');
      if (!control) return;
      if (mine) {
        control.setAttribute('aria-invalid', 'true');
        control.setAttribute('aria-describedby', el.id);
      } else if (control.getAttribute('aria-describedby') === el.id) {
        control.removeAttribute('aria-invalid');
        control.removeAttribute('aria-describedby');
      }
    });
  }

  document.addEventListener('input', scheduleValidation);
  document.addEventListener('change', scheduleValidation);

  // A refused post (422): the server re-rendered the form's fragment with
  // the problem (a message at the top of the form, the field at fault
  // marked) and sent it whole. It takes the old fragment's place like a
  // patch, so what was typed stays wherever the server did not fill the
  // field in itself, and focus goes to the field at fault (else to the
  // message) unless the person moved on to something outside the fragment
  // meanwhile. A refusal that comes as text (the fragment left the page)
  // is shown as a toast.
  async function showRefusal(data, res) {
    const type = res.headers.get('Content-Type') || '';
    const text = await res.text();
    const fresh = /^\s*text\/html\b/i.test(type) ? parse(text) : null;
    const old = fresh && fresh.id && fresh.classList.contains('napkin') ? document.getElementById(fresh.id) : null;
    if (!old) {
      const error = fresh && fresh.querySelector('.napkin-error');
      const message = (error ? error.textContent : fresh ? '' : text).trim();
      toast(message && message.length < 300 ? message : 'Please check the form and try again.');
      return;
    }
    const active = document.activeElement;
    const stayed = !active || active === body || old.contains(active);
    swap(old, fresh);
    if (!stayed) return;
    // The posted form's new copy: the same action, and the same key when
    // the fragment has one such form per item.
    const value = (f, name) => { const el = f.querySelector('input[name="' + name + '"]'); return el ? el.value : null; };
    const posted = Array.from(fresh.querySelectorAll('form[data-napkin-form]'))
      .find((f) => value(f, '_action') === data.get('_action') && value(f, '_key') === data.get('_key')) || fresh;
    const error = posted.querySelector('.napkin-error');
    const field = error && error.dataset.napkinField;
    const target = posted.querySelector('[aria-invalid="true"]') ||
      (field && Array.from(posted.querySelectorAll(CONTROLS)).find((el) => el.name === field && el.type !== 'hidden'));
    if (target) target.focus();
    else if (error && !fresh.contains(document.activeElement)) {
      error.tabIndex = -1;                          // where a keyboard goes on from
      error.focus();
    }
  }

  // After a successful post, puts the form's controls back to the values the
  // server rendered (their defaults). A patch may already have replaced the
  // form; then its replacement (same fragment and action) is reset, since
  // the patch carried the typed values over. When that is ambiguous (several
  // such forms, as with one per list item) nothing is reset.
  function resetAfterPost(form, data) {
    let target = form.isConnected ? form : null;
    if (!target) {
      const same = Array.from(document.querySelectorAll('form[data-napkin-form]')).filter((f) => {
        const field = (name) => { const el = f.querySelector('input[name="' + name + '"]'); return el && el.value; };
        return field('_fragment') === data.get('_fragment') && field('_action') === data.get('_action');
      });
      if (same.length === 1) target = same[0];
    }
    // Through the prototype: a control named "reset" shadows form.reset.
    if (target) HTMLFormElement.prototype.reset.call(target);
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

  // ------------------------------------------------------- live navigation

  // Only with a server that gives each page view a tab (it names it on
  // <body>) and a browser that has what it takes; otherwise links load pages.
  const live = !!(tabId && window.history && history.pushState && window.DOMParser && window.AbortController);
  let navigation = null;                            // the newest one in flight
  const pathOf = (url) => url.pathname + url.search;
  let shown = pathOf(location);                     // the page the DOM shows

  // The page's root fragment: the first element child with class napkin and an id.
  const rootOf = (parent) =>
    Array.from(parent.children).find((el) => el.classList.contains('napkin') && el.id) || null;
  // What napkin.js itself put in <body> (the banner, a toast box): a page swap keeps it.
  const own = (node) => node.nodeType === 1 &&
    (node.classList.contains('napkin-ended') || node.hasAttribute('data-napkin-own'));

  // Remembers the scroll position in the current history entry, so Back
  // and Forward (and a reload) can go back to it.
  function saveScroll() {
    if (!live || navigation || pathOf(location) !== shown) return;
    const state = history.state && typeof history.state === 'object' ? history.state : {};
    try {
      history.replaceState(Object.assign({}, state, { napkin: true, scroll: [window.scrollX, window.scrollY] }), '', location.href);
    } catch (_) { /* too many calls: the next one will do */ }
  }

  // Scrolls to the element the hash names, else to the top.
  function scrollToHash(hash) {
    let target = null;
    if (hash && hash.length > 1) {
      let name = hash.slice(1);
      try { name = decodeURIComponent(name); } catch (_) { /* keep it raw */ }
      target = document.getElementById(name) || document.getElementsByName(name)[0] || null;
    }
    if (target) target.scrollIntoView(); else window.scrollTo(0, 0);
  }

  // Puts the fetched page in place of the shown one. The same root fragment
  // (the tab's tree, moved) is swapped like a patch, so focus and typed
  // input survive where the same controls are still there. Otherwise (a new
  // tab, or a page without a root fragment such as the not-found page) the
  // body's content is replaced, all but what napkin.js added itself; a root
  // fragment replacing another still keeps typed input where it can.
  function showPage(doc) {
    const fresh = rootOf(doc.body);
    const old = rootOf(body);
    if (fresh && old && old.id === fresh.id) { swap(old, fresh); return; }
    const adopt = (nodes) => nodes.map((n) => document.adoptNode(n));
    const nodes = Array.from(doc.body.childNodes).filter((n) => !(n.nodeType === 1 && n.tagName === 'SCRIPT'));
    const inPlace = fresh && old;
    Array.from(body.childNodes).forEach((n) => { if (!(inPlace && n === old) && !own(n)) n.remove(); });
    if (inPlace) {
      const at = nodes.indexOf(fresh);
      swap(old, fresh);
      fresh.before(...adopt(nodes.slice(0, at)));
      fresh.after(...adopt(nodes.slice(at + 1)));
    } else {
      const box = body.querySelector(':scope > [data-napkin-own]');
      adopt(nodes).forEach((n) => body.insertBefore(n, box));
      armToasts(body);
    }
  }

  // Shows `url` in this tab without leaving the page: the server moves this
  // tab's napkin tree there and answers the whole page, which replaces the
  // shown one. `how` is 'push' (a click: a new history entry), 'replace'
  // (the same address again), 'pop' (Back/Forward: the address is already
  // there; `state` is its entry's) or 'recover' (the server released the
  // tab: the same address, for a new tab, keeping the scroll). A newer
  // navigation aborts an older one. Anything but a napkin page (its 404
  // page is one) loads the URL the plain way instead.
  async function navigate(url, how, state) {
    if (!live || ended) { location.assign(url.href); return; }
    if (navigation) navigation.abort();
    const mine = navigation = new AbortController();
    if (!held) held = [];
    let res = null;
    let html = null;
    try {
      const headers = { Accept: 'text/html' };
      if (tabId) headers['X-Napkin-Tab'] = tabId;
      res = await fetch(url.href, { headers, credentials: 'same-origin', cache: 'no-store', signal: mine.signal });
      const type = res.headers.get('Content-Type') || '';
      if ((res.ok || res.status === 404) && /^\s*text\/html\b/i.test(type)) html = await res.text();
    } catch (_) { /* aborted, or network trouble */ }
    if (navigation !== mine) return;                // a newer one took over
    navigation = null;

    let final = url;
    if (res && res.redirected) {
      final = sameOrigin(res.url);
      if (final && !final.hash) final.hash = url.hash;
    }
    const doc = html !== null && final ? new DOMParser().parseFromString(html, 'text/html') : null;
    if (!doc || !doc.body || !doc.body.dataset.napkinTab) {   // not a napkin page
      release(true);
      location.assign(url.href);                    // let the browser try
      return;
    }

    const next = doc.body.dataset;
    const eventId = Number(res.headers.get('X-Napkin-Event-ID') || next.napkinEventId) || 0;
    const moved = (next.napkinTab || tabId) !== tabId || (next.napkinStream || streamURL) !== streamURL;
    if (how === 'push' || how === 'replace') saveScroll();   // the entry we leave
    showPage(doc);
    document.title = doc.title;
    for (const key of ['napkinTab', 'napkinStream', 'napkinCsrf', 'napkinEventId']) {
      if (next[key] !== undefined) body.dataset[key] = next[key];
    }
    tabId = body.dataset.napkinTab || tabId;
    streamURL = body.dataset.napkinStream || streamURL;
    // The page is as of event `eventId`: older stream patches are in it.
    staleBefore = connections;
    staleUpTo = eventId;
    lastEventId = eventId ? String(eventId) : '';
    // Patches held meanwhile are newer, unless they came for the old tab.
    release(!moved);

    const address = final.href;
    const entry = Object.assign({}, how === 'pop' ? state : history.state, { napkin: true });
    if (how === 'push') history.pushState({ napkin: true, scroll: [0, 0] }, '', address);
    else if (how !== 'pop' || address !== location.href) history.replaceState(entry, '', address);
    shown = pathOf(final);

    if (how === 'pop' && state && Array.isArray(state.scroll)) window.scrollTo(state.scroll[0], state.scroll[1]);
    else if (how !== 'recover') scrollToHash(final.hash);
    saveScroll();

    // A new tab has a new stream; a stream that had failed may work now.
    if (moved || !source) restartStream();
  }

  // Where a post's answer leads: live when it can.
  const follow = (url) => navigate(url, url.href === location.href ? 'replace' : 'push');

  // The server released this tab while its stream was away (a long-hidden
  // tab): fetch this page again, which brings the tab back (under its id or
  // a new one), and follow its stream.
  function tabReleased() {
    if (!navigation) navigate(new URL(location.href), 'recover');
  }

  document.addEventListener('click', (e) => {
    if (!live || ended || e.defaultPrevented || e.button !== 0) return;
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;   // a new tab or window, a download
    const link = e.target instanceof Element && e.target.closest('a[href]');
    if (!(link instanceof HTMLAnchorElement)) return;
    const target = link.getAttribute('target');
    if (target && target.toLowerCase() !== '_self') return;
    if (link.hasAttribute('download') || link.closest('[data-napkin-reload]')) return;
    const url = sameOrigin(link.href);
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return;
    if (url.hash && pathOf(url) === pathOf(location)) return;      // a jump within the page
    e.preventDefault();
    follow(url);
  });

  // Back and Forward between entries of this page: show the entry's page.
  window.addEventListener('popstate', (e) => {
    if (!live) return;
    if (navigation) {                               // the user went elsewhere first
      navigation.abort();
      navigation = null;
      release(true);
    }
    if (pathOf(location) === shown) {               // only the hash moved
      if (!source) restartStream();
      return;
    }
    navigate(new URL(location.href), 'pop', e.state);
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
  if (live) {
    // napkin restores scroll positions itself, from each entry's state.
    if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
    const state = history.state;
    const nav = performance.getEntriesByType ? performance.getEntriesByType('navigation')[0] : null;
    if (state && state.napkin && Array.isArray(state.scroll) && nav && (nav.type === 'reload' || nav.type === 'back_forward')) {
      window.scrollTo(state.scroll[0], state.scroll[1]);
    }
    saveScroll();
    let scrollTimer = null;
    window.addEventListener('scroll', () => {
      if (scrollTimer) return;
      scrollTimer = setTimeout(() => { scrollTimer = null; saveScroll(); }, 200);
    }, { passive: true });
    window.addEventListener('pagehide', saveScroll);
  }
  if (streamURL && window.EventSource) {
    if (document.visibilityState === 'hidden') parked = true; else connect();
    document.addEventListener('visibilitychange', onVisibility);
    // Leaving the page closes the stream; coming back from the back/forward
    // cache opens it again (a tab released meanwhile answers 410, and the
    // page is fetched again in place).
    window.addEventListener('pagehide', disconnect);
    window.addEventListener('pageshow', (e) => {
      if (e.persisted && !source && !ended && document.visibilityState !== 'hidden') connect();
    });
  }
  window.addEventListener('pagehide', sayGoodbye);
})();
